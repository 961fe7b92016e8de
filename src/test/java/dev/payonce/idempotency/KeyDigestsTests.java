package dev.payonce.idempotency;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class KeyDigestsTests {

	private static final String SECRET = "k3J9xQ2mV8pL5nR7tY1wZ4cB6dF0gH2j";

	@Test
	void sameKeyOfTwoClientsGivesUnrelatedDigests() {
		KeyDigests digests = new KeyDigests(new KeyDigestProperties(SECRET));
		IdempotencyKey key = new IdempotencyKey("order-4711");

		assertThat(digests.digest("cli_alice", key)).isNotEqualTo(digests.digest("cli_bob", key))
			.matches("[0-9a-f]{16}");
	}

	@Test
	void aDictionaryOfUnsaltedDigestsRecoversNoKey() throws Exception {
		KeyDigests digests = new KeyDigests(new KeyDigestProperties(SECRET));
		List<String> guessable = IntStream.range(0, 10_000).mapToObj((n) -> "order-" + n).toList();
		Set<String> logged = guessable.stream()
			.map((key) -> digests.digest("cli_alice", new IdempotencyKey(key)))
			.collect(Collectors.toSet());

		Set<String> dictionary = guessable.stream().map(KeyDigestsTests::sha256Prefix).collect(Collectors.toSet());

		assertThat(logged).hasSize(guessable.size()).doesNotContainAnyElementsOf(dictionary);
	}

	@Test
	void aConfiguredSecretCorrelatesAcrossInstancesAndADrawnOneDoesNot() {
		IdempotencyKey key = new IdempotencyKey("order-4711");

		String first = new KeyDigests(new KeyDigestProperties(SECRET)).digest("cli_alice", key);
		String second = new KeyDigests(new KeyDigestProperties(SECRET)).digest("cli_alice", key);
		String otherSecret = new KeyDigests(new KeyDigestProperties(SECRET + "x")).digest("cli_alice", key);
		String drawn = new KeyDigests(new KeyDigestProperties(null)).digest("cli_alice", key);

		assertThat(first).isEqualTo(second).isNotEqualTo(otherSecret).isNotEqualTo(drawn);
	}

	@Test
	void scopeAndKeyCannotBeShiftedIntoEachOther() {
		KeyDigests digests = new KeyDigests(new KeyDigestProperties(SECRET));

		assertThat(digests.digest("cli_a", new IdempotencyKey("bc")))
			.isNotEqualTo(digests.digest("cli_ab", new IdempotencyKey("c")));
	}

	private static String sha256Prefix(String key) {
		try {
			byte[] sha256 = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.US_ASCII));
			return HexFormat.of().formatHex(sha256, 0, 8);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
