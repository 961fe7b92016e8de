package dev.payonce.idempotency;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link SqlFragments}: the checks every SQL piece an operation hands the engine passes,
 * at the edges of what they accept.
 */
class SqlFragmentsTests {

	@ParameterizedTest
	@ValueSource(strings = { "payments", "_x", "a", "provider_key_generation", "v13_3", "a0",
			"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk" })
	void acceptsPlainLowerCaseNamesOfUpTo63Characters(String name) {
		assertThat(SqlFragments.isName(name)).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "0a", "9", "Payments", "paymentS", "pay ments", "payments;", "p.id", "\"payments\"",
			"payments--", "paymënts", "pay-ments", "payments\n",
			"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl" })
	void refusesAnythingElseAsAName(String name) {
		assertThat(SqlFragments.isName(name)).isFalse();
	}

	@Test
	void countsEveryPlaceholderOfEveryClause() {
		assertThat(SqlFragments.arguments("A piece", List.of(1, 2, 3), "a = ? AND b = ?", "?")).containsExactly(1, 2,
				3);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SqlFragments.arguments("A piece", List.of(1, 2), "a = ? AND b = ??", "c = ?"))
			.withMessage("A piece has 4 placeholders and 2 arguments");
		assertThatIllegalArgumentException().isThrownBy(() -> SqlFragments.arguments("A piece", List.of(1), "a = 1"))
			.withMessage("A piece has 0 placeholders and 1 arguments");
	}

	@Test
	void refusesClausesThatAreBlankOrCouldEndTheStatement() {
		assertThat(SqlFragments.isClause("status = ?")).isTrue();
		assertThat(SqlFragments.isClause(" \t")).isFalse();
		assertThat(SqlFragments.isClause("id = ?; DROP TABLE payments")).isFalse();
	}

}
