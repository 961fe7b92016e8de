package dev.payonce.idempotency;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link ResourceInsert} and {@link ClaimCondition} refuse what the engine could not
 * embed safely in its claim statement.
 */
class ResourceInsertTests {

	@Test
	void acceptsAnInsertWithOneValuePerColumn() {
		ResourceInsert<String> insert = new ResourceInsert<>("r", "payments", List.of("id", "status"),
				List.of("id", "PENDING"));

		assertThat(insert.columns()).containsExactly("id", "status");
	}

	@Test
	void refusesAColumnThatIsNotAPlainIdentifier() {
		assertThatIllegalArgumentException().isThrownBy(() -> new ResourceInsert<>("r", "payments",
				List.of("id", "status) SELECT 1; --"), List.of("id", "PENDING")));
	}

	@Test
	void refusesFewerValuesThanColumns() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ResourceInsert<>("r", "payments", List.of("id", "status"), List.of("id")))
			.withMessageContaining("2 columns and 1 values");
	}

	@Test
	void aConditionMustBindOneArgumentPerPlaceholder() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ClaimCondition("client_still_authorized(?, ?)", List.of("cli_a"), () -> {
			}))
			.withMessageContaining("2 placeholders and 1 arguments");
	}

	@Test
	void aConditionCannotEndTheStatement() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ClaimCondition("TRUE); DELETE FROM x; (", List.of(), () -> {
			}));
	}

	@Test
	void anInsertAfterAClaimUpdateMayReadWhatTheUpdateReturns() {
		ResourceInsert<String> insert = ResourceInsert.after(take(), (returned) -> "r", "refunds",
				List.of("id", "amount"), List.of("id", ResourceInsert.returned("reserve")));

		assertThat(insert.update()).isNotNull();
		assertThat(insert.values()).containsExactly("id", ResourceInsert.returned("reserve"));
	}

	@Test
	void anInsertCannotReadAColumnItsClaimUpdateDoesNotReturn() {
		assertThatIllegalArgumentException().isThrownBy(() -> ResourceInsert.after(take(), (returned) -> "r", "refunds",
				List.of("id", "amount"), List.of("id", ResourceInsert.returned("amount"))))
			.withMessageContaining("reads amount");
	}

	@Test
	void aPlainInsertCannotReadAReturnedColumn() {
		assertThatIllegalArgumentException().isThrownBy(() -> new ResourceInsert<>("r", "refunds",
				List.of("id", "amount"), List.of("id", ResourceInsert.returned("reserve"))));
	}

	@Test
	void aClaimUpdateBindsOneArgumentPerPlaceholderAcrossItsClauses() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ClaimUpdate("payments", "n = n + ?", "(SELECT ? AS x) AS t", "id = ?", List.of("n"),
					List.of(1, 2), () -> "refused"))
			.withMessageContaining("3 placeholders and 2 arguments");
	}

	@Test
	void aClaimUpdateCannotEndTheStatementInAnyClause() {
		assertThatIllegalArgumentException().isThrownBy(() -> new ClaimUpdate("payments", "n = 1", "t; DROP TABLE x",
				"id = 1", List.of("n"), List.of(), () -> "refused"));
		assertThatIllegalArgumentException().isThrownBy(() -> new ClaimUpdate("payments", "n = 1", null, "id = 1",
				List.of("n, id"), List.of(), () -> "refused"));
	}

	@Test
	void aClaimUpdatesPrecheckBindsOneArgumentPerPlaceholder() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ClaimUpdate("payments", "n = 1", null, "id = 1", List.of("n"), List.of(),
					() -> "refused", "EXISTS (SELECT 1 FROM payments WHERE id = ?)", List.of()))
			.withMessageContaining("1 placeholders and 0 arguments");
	}

	private static ClaimUpdate take() {
		return new ClaimUpdate("payments", "refunds_in_flight = refunds_in_flight + ?", null, "id = ?",
				List.of("reserve", "currency"), List.of(1L, "p"), () -> "refused");
	}

}
