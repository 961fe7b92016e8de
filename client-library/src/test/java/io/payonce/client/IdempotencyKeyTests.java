package io.payonce.client;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class IdempotencyKeyTests {

	@Test
	void derivedKeyIsTheSameForTheSameOperationAndDiffersOtherwise() {
		IdempotencyKey key = IdempotencyKey.derived("checkout", "order-123");

		assertThat(IdempotencyKey.derived("checkout", "order-123")).isEqualTo(key);
		assertThat(IdempotencyKey.derived("checkout", "order-124")).isNotEqualTo(key);
		assertThat(IdempotencyKey.derived("refund", "order-123")).isNotEqualTo(key);
		assertThat(key.value()).startsWith("checkout:").hasSize("checkout:".length() + 43).doesNotContain("order-123");
	}

	@Test
	void derivedKeyIsStableAcrossVersions() {
		// Keys are stored and recomputed by later deployments: the derivation must never
		// change.
		assertThat(IdempotencyKey.derived("checkout", "order-123").value())
			.isEqualTo("checkout:gWtxQ0lsyM4kbynkBtH6ddN7mj7qTOhOQADrZVrH9hw");
	}

	@Test
	void namespaceAndIdCannotBeShiftedIntoEachOther() {
		assertThat(IdempotencyKey.derived("a", "bc")).isNotEqualTo(IdempotencyKey.derived("ab", "c"));
	}

	@Test
	void randomKeysAreDistinctAndValid() {
		Set<IdempotencyKey> keys = new HashSet<>();
		for (int i = 0; i < 10_000; i++) {
			keys.add(IdempotencyKey.random());
		}

		assertThat(keys).hasSize(10_000);
		assertThat(keys).allSatisfy((key) -> assertThat(key.value()).matches("ik_[A-Za-z0-9_-]{22}"));
	}

	@Test
	void refusesWhatTheServiceRefuses() {
		assertThatIllegalArgumentException().isThrownBy(() -> new IdempotencyKey(""));
		assertThatIllegalArgumentException().isThrownBy(() -> new IdempotencyKey("a".repeat(256)));
		assertThatIllegalArgumentException().isThrownBy(() -> new IdempotencyKey("with space"))
			.withMessageContaining("U+0020");
		assertThatIllegalArgumentException().isThrownBy(() -> new IdempotencyKey("caf\u00e9"));
		assertThatIllegalArgumentException().isThrownBy(() -> IdempotencyKey.derived("bad namespace", "1"));
		assertThatIllegalArgumentException().isThrownBy(() -> IdempotencyKey.derived("checkout", ""));
	}

	@Test
	void sendsACommaOrLeadingQuoteAsAnRfc8941String() {
		assertThat(new IdempotencyKey("abc").headerValue()).isEqualTo("abc");
		assertThat(new IdempotencyKey("a,b").headerValue()).isEqualTo("\"a,b\"");
		assertThat(new IdempotencyKey("\"a\\").headerValue()).isEqualTo("\"\\\"a\\\\\"");
	}

	@Test
	void neverPrintsItsValue() {
		IdempotencyKey key = new IdempotencyKey("secret-key-1");

		assertThat(key.toString()).doesNotContain("secret").contains("12 characters");
	}

}
