package dev.payonce.idempotency;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.SqlParameterValue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link ResourceWrite} refuses what the engine could not embed safely in its completion
 * statement.
 */
class ResourceWriteTests {

	@Test
	void acceptsAWriteWhosePlaceholdersMatchItsArguments() {
		ResourceWrite write = new ResourceWrite("payments", "status = ?, decline_code = ?", "id = ? AND version = ?",
				List.of("SUCCEEDED", new SqlParameterValue(Types.VARCHAR, null), "id", 3L));

		assertThat(write.args()).hasSize(4);
	}

	@Test
	void refusesATableNameThatIsNotAPlainIdentifier() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ResourceWrite("payments p", "status = ?", "id = ?", List.of("A", "id")));
	}

	@Test
	void refusesAClauseThatCouldEndTheStatement() {
		assertThatIllegalArgumentException().isThrownBy(
				() -> new ResourceWrite("payments", "status = ?", "id = ?; DELETE FROM payments", List.of("A", "id")));
	}

	@Test
	void refusesMorePlaceholdersThanArguments() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ResourceWrite("payments", "status = ?", "id = ? AND version = ?", List.of("A", "id")))
			.withMessageContaining("3 placeholders and 2 arguments");
	}

	@Test
	void refusesABareNullArgument() {
		List<Object> args = new ArrayList<>();
		args.add(null);
		args.add("id");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ResourceWrite("payments", "decline_code = ?", "id = ?", args));
	}

}
