package dev.payonce.idempotency;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A resource's declared claim update ({@link ResourceTable#claimUpdate}), its clauses
 * checked when declared, at start-up.
 *
 * @param into the fields it sets, each from a returned column, ordered by field
 */
record ClaimUpdate(String table, String set, @Nullable String from, String where, List<Into> into,
		@Nullable String precheck) {

	ClaimUpdate {
		SqlChecks.name(table);
		SqlChecks.clause(set);
		SqlChecks.clause(where);
		if (from != null) {
			SqlChecks.clause(from);
		}
		if (precheck != null) {
			SqlChecks.clause(precheck);
		}
		if (into.isEmpty()) {
			throw new IllegalArgumentException("A claim update returns at least one column");
		}
		into.forEach((field) -> SqlChecks.name(field.returned()));
		into = List.copyOf(into);
	}

	/** The number of the update's own placeholders, which are bound first. */
	int arguments() {
		return SqlChecks.placeholders(this.set) + ((this.from != null) ? SqlChecks.placeholders(this.from) : 0)
				+ SqlChecks.placeholders(this.where);
	}

	/** The number of the precheck's placeholders, bound after the update's. */
	int precheckArguments() {
		return (this.precheck != null) ? SqlChecks.placeholders(this.precheck) : 0;
	}

	/** A field the update sets from the column it returns. */
	record Into(MappedColumn.Accessor field, String returned) {
	}

}
