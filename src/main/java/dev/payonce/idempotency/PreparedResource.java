package dev.payonce.idempotency;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Every statement the engine runs for one declared resource ({@link ResourceTable}), as
 * built once when the engine starts ({@link ResourceStatements}), and the binding of a
 * request's values to them. Per request nothing here builds SQL text: it fills an
 * argument array in the order of the placeholders, from the resource through the
 * accessors found at start-up, runs the statement and reads its result back.
 *
 * @param <R> the resource
 */
final class PreparedResource<R> {

	private final ResourceTable<R> table;

	private final JdbcClient jdbc;

	private final IdempotencyRecords records;

	private final List<ClaimGuard> guards;

	private final @Nullable ClaimUpdate update;

	private final @Nullable CompletionUpdate<R> second;

	private final @Nullable CompletionInsert<R> third;

	private final ResourceStatements<R> statements;

	PreparedResource(ResourceTable<R> table, JdbcClient jdbc, IdempotencyRecords records, List<ClaimGuard> guards,
			ClaimDeadline deadline) {
		this.table = table;
		this.jdbc = jdbc;
		this.records = records;
		this.guards = List.copyOf(guards);
		this.update = table.claimUpdateDeclared();
		this.second = table.completionUpdateDeclared();
		this.third = table.completionInsertDeclared();
		List<@Nullable String> conditions = new ArrayList<>();
		for (ClaimGuard guard : this.guards) {
			String condition = guard.condition();
			conditions.add((condition != null) ? SqlChecks.clause(condition) : null);
		}
		this.statements = new ResourceStatements<>(table, conditions, deadline);
	}

	ResourceTable<R> table() {
		return this.table;
	}

	/** Whether a fresh key of this resource can be claimed in one statement. */
	boolean claimsInOneStatement() {
		return this.statements.claim(0) != null;
	}

	/**
	 * What the claim in one statement did: the index of the first guard whose condition
	 * was not true ({@code -1} if none); whether the record and the resource were
	 * inserted; whether the statement was undone because the claim update did not update
	 * exactly one row (nothing of it written); and the key's record if it had one.
	 */
	record Claimed(int refusedBy, boolean claimed, boolean undone,
			IdempotencyRecords.@Nullable IdempotencyRecord existing) {

	}

	/**
	 * The claim in one statement: reads the key's record; evaluates every guard's
	 * condition (and the claim update's precheck); inserts the IN_PROGRESS record only if
	 * the key has none and all were true; makes the claim update, only if the record was
	 * inserted, and inserts the resource only then. Sets the fields the update returned
	 * on {@code resource}, and its version to 0.
	 */
	Claimed claim(String operation, ClaimRequest request, UUID resourceId, Instant now, Duration lease, R resource,
			Object[] claimArguments) {
		this.table.version().set(resource, 0L);
		List<Object> args = new ArrayList<>(this.statements.inserted().size() + 16);
		args.add(request.scope().value());
		args.add(request.key().value());
		int mask = 0;
		for (int i = 0; i < this.guards.size(); i++) {
			Object[] guarded = this.guards.get(i).arguments(request.scope(), operation);
			if (guarded != null) {
				mask |= 1 << i;
				args.addAll(List.of(guarded));
			}
		}
		int updateArguments = requireClaimArguments(claimArguments);
		for (int i = updateArguments; i < claimArguments.length; i++) {
			args.add(claimArguments[i]);
		}
		args.addAll(
				List.of(request.scope().value(), request.key().value(), operation, request.fingerprint().sha256Hex(),
						IdempotencyRecords.micros(lease), resourceId, now.atOffset(ZoneOffset.UTC)));
		for (int i = 0; i < updateArguments; i++) {
			args.add(claimArguments[i]);
		}
		for (MappedColumn column : this.statements.inserted()) {
			if (!fromUpdate(column)) {
				args.add(column.bind(resource));
			}
		}
		int included = mask;
		String statement = this.statements.claim(mask);
		if (statement == null) {
			throw new IllegalStateException("A guard declares no condition: no claim in one statement");
		}
		try {
			return this.jdbc.sql(statement).params(args).query((rs, row) -> {
				int refusedBy = -1;
				for (int i = 0; i < this.guards.size() && refusedBy < 0; i++) {
					if ((included & (1 << i)) != 0 && !rs.getBoolean("g" + i)) {
						refusedBy = i;
					}
				}
				boolean claimed = rs.getBoolean("claimed");
				if (claimed != rs.getBoolean("created")) {
					throw new IllegalStateException("The claim inserted the record without its resource");
				}
				if (claimed && this.update != null) {
					for (ClaimUpdate.Into into : this.update.into()) {
						into.field().set(resource, into.field().fromDatabase(rs.getObject("r_" + into.returned())));
					}
				}
				IdempotencyRecords.IdempotencyRecord existing = (rs.getString("e_operation") != null)
						? this.records.record(rs, "e_") : null;
				return new Claimed(refusedBy, claimed, false, existing);
			}).single();
		}
		catch (RuntimeException ex) {
			if (IdempotencyRecords.isUndone(ex)) {
				return new Claimed(-1, false, true, null);
			}
			throw ex;
		}
	}

	/**
	 * The claim update alone, in the caller's claim transaction: sets the fields it
	 * returned on {@code resource}.
	 * @return the number of rows it updated (the claim stands only on 1)
	 */
	int updateForClaim(R resource, Object[] claimArguments) {
		ClaimUpdate declared = this.update;
		String statement = this.statements.claimUpdate();
		if (declared == null || statement == null) {
			return 1;
		}
		Object[] args = new Object[requireClaimArguments(claimArguments)];
		System.arraycopy(claimArguments, 0, args, 0, args.length);
		List<Object[]> rows = this.jdbc.sql(statement).params(args).query((rs, row) -> {
			Object[] values = new Object[declared.into().size()];
			for (int i = 0; i < values.length; i++) {
				values[i] = rs.getObject("r_" + declared.into().get(i).returned());
			}
			return values;
		}).list();
		if (rows.size() == 1) {
			for (int i = 0; i < declared.into().size(); i++) {
				MappedColumn.Accessor field = declared.into().get(i).field();
				field.set(resource, field.fromDatabase(rows.get(0)[i]));
			}
		}
		return rows.size();
	}

	/** Inserts the resource in the caller's claim transaction, with version 0. */
	void insert(R resource) {
		this.table.version().set(resource, 0L);
		Object[] args = new Object[this.statements.inserted().size()];
		for (int i = 0; i < args.length; i++) {
			args[i] = this.statements.inserted().get(i).bind(resource);
		}
		this.jdbc.sql(this.statements.insert()).params(args).update();
	}

	/**
	 * The resource as stored, for a takeover.
	 * @throws IllegalStateException if it does not exist
	 */
	R load(UUID id) {
		return load(this.statements.select(), id);
	}

	/** The resource, locked until the caller's transaction ends. */
	R loadForUpdate(UUID id) {
		return load(this.statements.selectForUpdate(), id);
	}

	private R load(String statement, UUID id) {
		return this.jdbc.sql(statement)
			.param(id)
			.query((rs, row) -> this.table.read(rs))
			.optional()
			.orElseThrow(() -> new IllegalStateException(
					"Claimed " + this.table.type().getSimpleName() + " " + id + " does not exist"));
	}

	/**
	 * Writes the moved resource in the caller's transaction, conditioned on its version,
	 * then the declared completion update; moves its version on by one.
	 * @throws IllegalStateException if either matched no row
	 */
	void write(R resource) {
		long version = version(resource);
		Object[] args = new Object[this.statements.updated().size() + 2];
		int next = bindWrite(resource, version, args, 0);
		if (next != args.length || this.jdbc.sql(this.statements.write()).params(args).update() != 1) {
			throw new IllegalStateException(this.table.type().getSimpleName() + " " + this.table.id().bind(resource)
					+ " changed while it was locked");
		}
		CompletionUpdate<R> declared = this.second;
		if (declared != null && this.jdbc.sql(this.statements.secondWrite())
			.params(secondArguments(declared, resource))
			.update() != 1) {
			throw new IllegalStateException("The completion update of " + this.table.type().getSimpleName() + " "
					+ this.table.id().bind(resource) + " matched no row");
		}
		CompletionInsert<R> inserted = this.third;
		if (inserted != null) {
			// The caller completes the record in this transaction or rolls it all back.
			this.jdbc.sql(this.statements.insertWrite()).params(insertValues(inserted, resource)).update();
		}
		this.table.version().set(resource, version + 1);
	}

	/**
	 * The completion in one statement: the record locked if this attempt holds it, the
	 * resource's versioned write, the declared completion update, the record completed,
	 * the declared completion insert.
	 */
	IdempotencyRecords.Completion complete(Lease lease, R resource, StoredResponse response, Instant now,
			Duration retention) {
		long version = version(resource);
		List<Object> args = new ArrayList<>(this.statements.updated().size() + 16);
		args.add(lease.scope().value());
		args.add(lease.key().value());
		args.add(lease.attempt());
		Object[] write = new Object[this.statements.updated().size() + 2];
		bindWrite(resource, version, write, 0);
		args.addAll(List.of(write));
		CompletionUpdate<R> declared = this.second;
		if (declared != null) {
			args.addAll(List.of(secondArguments(declared, resource)));
		}
		args.addAll(List.of(response.status(), this.records.headers(response), response.body(),
				now.atOffset(ZoneOffset.UTC), IdempotencyRecords.micros(retention), lease.scope().value(),
				lease.key().value(), lease.attempt()));
		CompletionInsert<R> inserted = this.third;
		if (inserted != null) {
			args.addAll(List.of(insertValues(inserted, resource)));
		}
		IdempotencyRecords.Completion completion;
		try {
			completion = this.jdbc.sql(this.statements.completion(this.records.completionFenced()))
				.params(args)
				.query((rs, row) -> rs.getBoolean("done") ? IdempotencyRecords.Completion.COMPLETED
						: rs.getBoolean("held") ? IdempotencyRecords.Completion.UNWRITTEN
								: IdempotencyRecords.Completion.STALE)
				.single();
		}
		catch (RuntimeException ex) {
			if (IdempotencyRecords.isUndone(ex)) {
				return IdempotencyRecords.Completion.UNWRITTEN;
			}
			throw ex;
		}
		if (completion == IdempotencyRecords.Completion.COMPLETED) {
			this.table.version().set(resource, version + 1);
		}
		return completion;
	}

	/**
	 * @return the number of the claim update's own arguments, which come first
	 * @throws IllegalArgumentException unless there is one argument per placeholder of
	 * the claim update and its precheck
	 */
	private int requireClaimArguments(Object[] claimArguments) {
		ClaimUpdate declared = this.update;
		int own = (declared != null) ? declared.arguments() : 0;
		int expected = own + ((declared != null) ? declared.precheckArguments() : 0);
		if (claimArguments.length != expected) {
			throw new IllegalArgumentException("The claim update of " + this.table.type().getSimpleName() + " has "
					+ expected + " placeholders and " + claimArguments.length + " arguments");
		}
		return own;
	}

	/** The resource's id. */
	@Nullable Object id(R resource) {
		return this.table.id().accessor().get(resource);
	}

	private long version(R resource) {
		Object version = this.table.version().accessor().get(resource);
		if (!(version instanceof Number number)) {
			throw new IllegalStateException(this.table.type().getSimpleName() + " was never stored");
		}
		return number.longValue();
	}

	private int bindWrite(R resource, long version, Object[] args, int from) {
		int next = from;
		for (MappedColumn column : this.statements.updated()) {
			args[next++] = column.bind(resource);
		}
		args[next++] = this.table.id().bind(resource);
		args[next++] = version;
		return next;
	}

	private Object[] secondArguments(CompletionUpdate<R> declared, R resource) {
		Object[] args = declared.arguments().apply(resource);
		if (args.length != declared.placeholders()) {
			throw new IllegalStateException("The completion update of " + this.table.type().getSimpleName() + " has "
					+ declared.placeholders() + " placeholders and " + args.length + " arguments");
		}
		return args;
	}

	private Object[] insertValues(CompletionInsert<R> inserted, R resource) {
		Object[] values = inserted.values().apply(resource);
		if (values.length != inserted.columns().size()) {
			throw new IllegalStateException("The completion insert of " + this.table.type().getSimpleName() + " names "
					+ inserted.columns().size() + " columns and gives " + values.length + " values");
		}
		return values;
	}

	private boolean fromUpdate(MappedColumn column) {
		return this.statements.returnedFor(column) != null;
	}

}
