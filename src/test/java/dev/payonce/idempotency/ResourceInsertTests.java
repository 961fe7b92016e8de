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

}
