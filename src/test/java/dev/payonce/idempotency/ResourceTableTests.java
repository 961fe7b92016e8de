package dev.payonce.idempotency;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import jakarta.persistence.Embedded;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;
import jakarta.persistence.Version;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * A {@link ResourceTable} is checked when it is declared, at start-up: whatever the
 * engine could not embed safely in the statements it builds then refuses the declaration
 * (and so the start), never a request.
 */
class ResourceTableTests {

	@Test
	void readsTheRowFromTheMappingOnce() {
		ResourceTable<Mapped> table = ResourceTable.of(Mapped.class);

		assertThat(table.table()).isEqualTo("things");
		assertThat(table.columns()).extracting(MappedColumn::name)
			.containsExactly("id", "client_id", "provider_key_generation", "status", "decline_code", "replayed_at",
					"created_at", "version");
		assertThat(table.id().name()).isEqualTo("id");
		assertThat(table.version().name()).isEqualTo("version");
		assertThat(table.columns()).filteredOn(MappedColumn::updatable)
			.extracting(MappedColumn::name)
			.containsExactly("provider_key_generation", "status", "decline_code", "replayed_at");
		assertThat(table.columns()).filteredOn((column) -> !column.insertable())
			.extracting(MappedColumn::name)
			.containsExactly("created_at");
	}

	@Test
	void anEmbeddedColumnGroupIsColumnsOfTheRowReadAndWrittenThroughItsOwner() {
		ResourceTable<Mapped> table = ResourceTable.of(Mapped.class);
		Mapped mapped = new Mapped();
		MappedColumn status = table.columns()
			.stream()
			.filter((column) -> column.name().equals("status"))
			.findFirst()
			.orElseThrow();

		status.set(mapped, "DECLINED");

		assertThat(mapped.attempt).isNotNull();
		assertThat(mapped.attempt.status).isEqualTo("DECLINED");
		assertThat(status.bind(mapped)).isEqualTo("DECLINED");
	}

	@Test
	void refusesAClassWithoutAPlainTableName() {
		assertThatIllegalArgumentException().isThrownBy(() -> ResourceTable.of(Unnamed.class))
			.withMessageContaining("names no plain lower-case table");
	}

	@Test
	void refusesAColumnThatIsNotAPlainName() {
		assertThatIllegalArgumentException().isThrownBy(() -> ResourceTable.of(Injected.class))
			.withMessageContaining("not a plain lower-case name");
	}

	@Test
	void refusesAClassWithoutAVersion() {
		assertThatIllegalArgumentException().isThrownBy(() -> ResourceTable.of(Unversioned.class))
			.withMessageContaining("0 @Version fields");
	}

	@Test
	void aClaimUpdateCannotEndTheStatementInAnyClause() {
		ResourceTable<Mapped> table = ResourceTable.of(Mapped.class);

		assertThatIllegalArgumentException().isThrownBy(
				() -> table.claimUpdate("payments", "n = 1", "t; DROP TABLE x", "id = 1", Map.of("status", "n"), null));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> table.claimUpdate("payments", "n = 1", null, " \t", Map.of("status", "n"), null));
		assertThatIllegalArgumentException().isThrownBy(() -> table.claimUpdate("payments", "n = 1", null, "id = 1",
				Map.of("status", "n"), "TRUE); DELETE FROM x; (TRUE"));
	}

	@Test
	void aClaimUpdateNamesPlainTablesAndReturnedColumnsAndTheResourcesFields() {
		ResourceTable<Mapped> table = ResourceTable.of(Mapped.class);

		assertThatIllegalArgumentException()
			.isThrownBy(() -> table.claimUpdate("payments p", "n = 1", null, "id = 1", Map.of("status", "n"), null));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> table.claimUpdate("payments", "n = 1", null, "id = 1", Map.of("status", "n, id"), null));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> table.claimUpdate("payments", "n = 1", null, "id = 1", Map.of("nothing", "n"), null))
			.withMessageContaining("has no field nothing");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> table.claimUpdate("payments", "n = 1", null, "id = 1", Map.of(), null));
	}

	@Test
	void aClaimUpdateMaySetAFieldThatIsNoColumn() {
		ResourceTable<Mapped> table = ResourceTable.of(Mapped.class)
			.claimUpdate("payments", "n = n + ?", null, "id = ?", Map.of("note", "provider_reference"), null);

		assertThat(table.claimUpdateDeclared()).isNotNull();
		assertThat(table.claimUpdateDeclared().arguments()).isEqualTo(2);
	}

	@Test
	void aCompletionUpdateCannotEndTheStatement() {
		ResourceTable<Mapped> table = ResourceTable.of(Mapped.class);

		assertThatIllegalArgumentException().isThrownBy(() -> table.completionUpdate("payments", "n = ?",
				"id = ?; DELETE FROM payments", (mapped) -> new Object[] { 1, 2 }));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> table.completionUpdate("Payments", "n = ?", "id = ?", (mapped) -> new Object[] { 1, 2 }));
	}

	@ParameterizedTest
	@ValueSource(strings = { "payments", "_x", "a", "provider_key_generation", "v13_3", "a0",
			"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk" })
	void acceptsPlainLowerCaseNamesOfUpTo63Characters(String name) {
		assertThat(SqlChecks.name(name)).isEqualTo(name);
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "0a", "9", "Payments", "paymentS", "pay ments", "payments;", "p.id", "\"payments\"",
			"payments--", "paymënts", "pay-ments", "payments\n",
			"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl" })
	void refusesAnythingElseAsAName(String name) {
		assertThatIllegalArgumentException().isThrownBy(() -> SqlChecks.name(name));
	}

	@Test
	void countsEveryPlaceholderOfAClause() {
		assertThat(SqlChecks.placeholders("a = ? AND b = ??")).isEqualTo(3);
		assertThat(SqlChecks.placeholders("a = 1")).isZero();
	}

	@Test
	void aFieldWithoutAColumnNameIsNamedAsSpringBootNamesIt() {
		assertThat(MappedColumn.snakeCase("providerKeyGeneration")).isEqualTo("provider_key_generation");
		assertThat(MappedColumn.snakeCase("amount")).isEqualTo("amount");
	}

	@Table(name = "things")
	static class Mapped {

		@Id
		UUID id;

		@Column(name = "client_id", updatable = false)
		String clientId;

		int providerKeyGeneration;

		@Embedded
		Attempt attempt;

		@Column(name = "created_at", insertable = false, updatable = false)
		Instant createdAt;

		@Version
		Long version;

		@Transient
		String note;

	}

	/** A column group, as a provider attempt shared by two tables would be. */
	@Embeddable
	static class Attempt {

		String status;

		@Column(name = "decline_code")
		String declineCode;

		@Column(name = "replayed_at")
		Instant replayedAt;

	}

	@Table(name = "things x")
	static class Unnamed {

	}

	@Table(name = "things")
	static class Injected {

		@Id
		UUID id;

		@Column(name = "status) SELECT 1; --")
		String status;

		@Version
		Long version;

	}

	@Table(name = "things")
	static class Unversioned {

		@Id
		UUID id;

	}

}
