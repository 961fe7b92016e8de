package dev.payonce.idempotency;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static dev.payonce.FormatCandidates.assertSameAs;
import static dev.payonce.FormatCandidates.mutations;
import static dev.payonce.FormatCandidates.random;
import static dev.payonce.FormatCandidates.shortStrings;

/**
 * The engine's format checks ({@link IdempotencyScope}, {@link RequestFingerprint}, an
 * operation's name) are loops (docs/performance.md); each one accepts exactly what its
 * documented pattern accepts, over the edge candidates of
 * {@link dev.payonce.FormatCandidates}.
 */
class EngineFormatsTests {

	@Test
	void scopeCheckAcceptsExactlyItsPattern() {
		assertSameAs(Pattern.compile("[A-Za-z0-9_:-]{1,64}"), IdempotencyScope::isWellFormed,
				candidates("webhook:stripe", 1, 2, 63, 64, 65));
	}

	@Test
	void fingerprintCheckAcceptsExactlyItsPattern() {
		String valid = RequestFingerprint.of("POST", "/payments", Map.of("amount", "1999")).sha256Hex();
		assertSameAs(Pattern.compile("[0-9a-f]{64}"), RequestFingerprint::isWellFormed,
				candidates(valid, 1, 63, 64, 65));
	}

	@Test
	void operationNameCheckAcceptsExactlyItsPattern() {
		assertSameAs(Pattern.compile("[a-z_]{1,32}"), IdempotencyService::isOperationName,
				candidates("webhook_event", 1, 2, 31, 32, 33));
	}

	private static List<String> candidates(String valid, int... lengths) {
		List<String> candidates = shortStrings();
		for (int length : lengths) {
			candidates.addAll(mutations(valid.substring(0, 1).repeat(length)));
		}
		candidates.addAll(mutations(valid));
		candidates.addAll(random(valid, 20_000));
		return candidates;
	}

}
