package dev.payonce.client;

import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static dev.payonce.FormatCandidates.assertSameAs;
import static dev.payonce.FormatCandidates.mutations;
import static dev.payonce.FormatCandidates.random;
import static dev.payonce.FormatCandidates.shortStrings;

/**
 * The format checks of {@link ApiKey} and {@link ClientId} are loops
 * (docs/performance.md); each one accepts exactly what its documented pattern accepts.
 * The patterns are the oracle: every string of up to two characters over an alphabet of
 * range edges, each edge character at every position of otherwise valid values of the
 * edge lengths, and random strings.
 */
class ClientFormatsTests {

	static final Pattern API_KEY = Pattern.compile("sk_(live|test)_[A-Za-z0-9_-]{43}");

	static final Pattern CLIENT_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

	@Test
	void apiKeyCheckAcceptsExactlyItsPattern() {
		List<String> candidates = shortStrings();
		String valid = ApiKey.generate(false).secret();
		for (String prefix : List.of("sk_live_", "sk_test_", "sk_LIVE_", "sk_tesT_", "sk_live-", "sk-test_", "sk_lives",
				"pk_live_", "sk_live_sk_test_")) {
			String body = valid.substring(8);
			candidates.add(prefix + body);
			candidates.add(prefix + body.substring(1));
			candidates.add(prefix + body + "A");
		}
		candidates.addAll(mutations(valid));
		candidates.addAll(mutations(ApiKey.generate(true).secret()));
		candidates.addAll(random(valid, 20_000));

		assertSameAs(API_KEY, ApiKey::isWellFormed, candidates);
	}

	@Test
	void clientIdCheckAcceptsExactlyItsPattern() {
		List<String> candidates = shortStrings();
		for (int length : new int[] { 1, 2, 63, 64, 65 }) {
			candidates.addAll(mutations("c".repeat(length)));
		}
		candidates.addAll(random("cli_0123456789abcdef", 20_000));

		assertSameAs(CLIENT_ID, ClientId::isWellFormed, candidates);
	}

}
