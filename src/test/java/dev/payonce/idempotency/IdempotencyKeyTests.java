package dev.payonce.idempotency;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class IdempotencyKeyTests {

	@Test
	void bareAndRfc8941StringSpellingsNameTheSameKey() {
		IdempotencyKey bare = IdempotencyKey.fromHeader("8e03978e-40d5-43e8-bc93-6894a57f9324");

		IdempotencyKey quoted = IdempotencyKey.fromHeader("\"8e03978e-40d5-43e8-bc93-6894a57f9324\"");

		assertThat(quoted).isEqualTo(bare);
	}

	@Test
	void unescapesQuotesAndBackslashesInsideStrings() {
		IdempotencyKey key = IdempotencyKey.fromHeader("\"a\\\"b\\\\c\"");

		assertThat(key.value()).isEqualTo("a\"b\\c");
	}

	@Test
	void ignoresSurroundingWhitespace() {
		assertThat(IdempotencyKey.fromHeader("  abc ")).isEqualTo(new IdempotencyKey("abc"));
	}

	@Test
	void acceptsEveryVisibleAsciiCharacterUpTo255() {
		StringBuilder visible = new StringBuilder();
		for (char c = 0x21; c <= 0x7E; c++) {
			visible.append(c);
		}

		assertThat(new IdempotencyKey(visible.toString()).value()).hasSize(94);
		assertThat(new IdempotencyKey("k".repeat(255)).value()).hasSize(255);
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "a b", "tab\there", "caf\u00e9", "line\nbreak", "\u0000", "\u007f" })
	void rejectsKeysOutsideVisibleAscii(String value) {
		assertThatIllegalArgumentException().isThrownBy(() -> new IdempotencyKey(value));
	}

	@Test
	void rejectsKeysLongerThan255Characters() {
		assertThatIllegalArgumentException().isThrownBy(() -> new IdempotencyKey("k".repeat(256)))
			.withMessageContaining("1-255");
	}

	@ParameterizedTest
	@ValueSource(strings = { "\"abc", "\"a\\x\"", "\"abc\"x", "\"\"", "\"a b\"", "\"abc\\" })
	void rejectsMalformedOrInvalidRfc8941Strings(String header) {
		assertThatIllegalArgumentException().isThrownBy(() -> IdempotencyKey.fromHeader(header));
	}

	@ParameterizedTest
	@ValueSource(strings = { "a,b", "a, b", "order-1,order-1", ",", "abc,", ",abc", "\"a\", \"b\"", "\"a\",b" })
	void rejectsValuesThatCouldBeTwoCombinedHeaderLines(String header) {
		assertThatIllegalArgumentException().isThrownBy(() -> IdempotencyKey.fromHeader(header));
	}

	@Test
	void acceptsCommaInsideAnRfc8941String() {
		assertThat(IdempotencyKey.fromHeader("\"a,b\"")).isEqualTo(new IdempotencyKey("a,b"));
	}

	@Test
	void neverPrintsTheKey() {
		assertThat(new IdempotencyKey("order-4711")).hasToString("IdempotencyKey[length=10]");
	}

}
