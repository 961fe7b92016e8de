package dev.payonce.client.security;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class AdminTokenPolicyTests {

	private static final SecureRandom RANDOM = new SecureRandom();

	@ParameterizedTest
	@ValueSource(strings = { "test-admin-token-R7q2Wm9xKp4Vt8Ls3Nd6Hz1FbQ5yTc",
			"Z2VCij-UybYOcaU5resbKdSVxtxN0W5vkpi-pXamqGE", "kp_cLcptOFH2ZxIiYBQ7TKaocSV6FYQBuWdhHNXk0P0",
			"XgZ0INDIDpnPXXop5MluFZIvBIecCaFnSWhVvg5ZNWk=",
			"2ecefd56a5a943a4300d81421075a1bba12791379d320e306fab44eb4e3b98aa" })
	void acceptsRandomBytesInEveryDocumentedEncoding(String token) {
		assertThat(AdminTokenPolicy.violation(token, true)).isEmpty();
	}

	@RepeatedTest(3)
	void acceptsWhatTheDocumentedCommandsGenerate() {
		byte[] bytes = new byte[32];
		RANDOM.nextBytes(bytes);

		// openssl rand -base64 32 | tr '+/' '-_' | tr -d '=', openssl rand -base64 32 and
		// openssl rand -hex 32.
		assertThat(AdminTokenPolicy.violation(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes), true))
			.isEmpty();
		assertThat(AdminTokenPolicy.violation(Base64.getEncoder().encodeToString(bytes), true)).isEmpty();
		assertThat(AdminTokenPolicy.violation(HexFormat.of().formatHex(bytes), true)).isEmpty();
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|',
			textBlock = """
					32 times a                        | aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa                                          | at least 64 characters of hex
					48 times x                        | xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx                          | mostly repeat
					a digit sequence                  | 0123456789012345678901234567890123456789012345678901234567890123          | mostly repeat
					49 digits in sequence             | 0123456789012345678901234567890123456789012345678                         | at least 64 characters of hex
					the alphabet                      | abcdefghijklmnopqrstuvwxyz0123456789abcdefghijk                           | too easy to guess
					a repeated password               | Passw0rd!Passw0rd!Passw0rd!Passw0rd!Passw0rd!                             | may hold only
					a repeated password, b64token     | Passw0rd.Passw0rd.Passw0rd.Passw0rd.Passw0rd.                             | too easy to guess
					words and a date                  | payonce-production-admin-token-2026-12-02-abc                             | too easy to guess
					a keyboard sequence with a year   | qwertyuiopasdfghjklzxcvbnm2026qwertyuiop2026                              | too easy to guess
					an API key                        | sk_live_k3J9xQ2mV8pL5nR7tY1wZ4cB6dF0gH2jk3J9xQ2                           | like an API key
					an sk_ prefix in upper case       | SK_k3J9xQ2mV8pL5nR7tY1wZ4cB6dF0gH2jXk3J9xQ2mV8p                           | like an API key
					32 random characters              | k3J9xQ2mV8pL5nR7tY1wZ4cB6dF0gH2j                                          | at least 43 characters (32 random bytes), got 32
					words and a date, 41 characters   | payonce-production-admin-token-2026-12-02                                 | at least 43 characters
					hex of 16 bytes (an MD5)          | 583f4be146b6127f9e4f3f036ce7df43                                          | at least 64 characters of hex
					hex of 20 bytes (a SHA-1)         | c8fed00eb2e87f1cee8e90ebbe870c190ac3848c                                  | at least 64 characters of hex
					a UUID v4                         | 3f2b6c1e-8a4d-4f3b-9c2e-7d1a5b6c8e9f                                      | is a UUID
					a UUID in braces                  | {3F2B6C1E-8A4D-4F3B-9C2E-7D1A5B6C8E9F}                                    | may hold only
					hex SHA-256 of admin              | 8c6976e5b5410415bde908bd4dee15dfb167a9c873fc4bb8a81f6f2ab448a918          | hash of a dictionary word
					upper-case hex SHA-256 of admin   | 8C6976E5B5410415BDE908BD4DEE15DFB167A9C873FC4BB8A81F6F2AB448A918          | hash of a dictionary word
					base64url SHA-256 of monkey       | AAwoVFf8lx-GKnm3hkdseIEsiJcGPG-pwEX1eaOy1j8                               | hash of a dictionary word
					base64 of password repeated       | cGFzc3dvcmRwYXNzd29yZHBhc3N3b3JkcGFzc3dvcmQ=                              | base64 of text
					hex of text                       | 70617373776f726470617373776f726470617373776f726470617373776f7264          | base64 of text
					hex of a byte sequence            | 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f          | count up or down
					hex of two bytes repeated         | 0102010201020102010201020102010201020102010201020102010201020102          | mostly repeat
					""")
	void refusesWeakOrMisleadingTokens(String name, String token, String reason) {
		Optional<String> violation = AdminTokenPolicy.violation(token, true);

		assertThat(violation)
			.hasValueSatisfying((message) -> assertThat(message).startsWith("payonce.security.admin-token")
				.contains(reason)
				.doesNotContain(token));
	}

	@Test
	void refusesTheSha256OfADictionaryWordAsEchoWritesIt() {
		// echo admin | sha256sum: the newline is hashed too.
		String token = "c3f2e2a0b8b84d3b0bd7b2e8c6d5a3d1d2c4f3e0b1a9c8d7e6f5a4b3c2d1e0f9";
		byte[] echoed = sha256("admin\n");

		assertThat(AdminTokenPolicy.violation(HexFormat.of().formatHex(echoed), true))
			.hasValueSatisfying((message) -> assertThat(message).contains("hash of a dictionary word"));
		assertThat(AdminTokenPolicy.isDictionaryDigest(sha256("Password"))).isTrue();
		assertThat(AdminTokenPolicy.isDictionaryDigest(HexFormat.of().parseHex(token))).isFalse();
	}

	@Test
	void refusesThePublishedDevelopmentTokenOutsideTheLocalProfileOnly() {
		String published = "local-admin-token-for-development-only";

		assertThat(AdminTokenPolicy.violation(published, true))
			.hasValueSatisfying((message) -> assertThat(message).startsWith("payonce.security.admin-token")
				.contains("the development token the README publishes")
				.doesNotContain(published));
		assertThat(AdminTokenPolicy.violation(published, false)).isEmpty();
	}

	@Test
	void appliesEveryOtherRuleInTheLocalProfileToo() {
		assertThat(AdminTokenPolicy.violation("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false)).isPresent();
		assertThat(AdminTokenPolicy.violation("3f2b6c1e-8a4d-4f3b-9c2e-7d1a5b6c8e9f", false)).isPresent();
	}

	@ParameterizedTest
	@ValueSource(strings = { "k3J9xQ2mV8pL5nR7tY1wZ4cB6dF0gH2jXk3J9xQ2mV8pLq\n",
			"k3J9xQ2mV8pL5nR7tY1wZ4cB6dF0gH2jXk3J9xQ2mV8pLq\r\n", " k3J9xQ2mV8pL5nR7tY1wZ4cB6dF0gH2jXk3J9xQ2mV8pLq",
			"k3J9xQ2mV8pL5nR7tY1wZ4cB6dF0gH2jXk3J9xQ2mV8pLq\t" })
	void refusesSurroundingWhitespaceWithAClearMessage(String token) {
		Optional<String> violation = AdminTokenPolicy.violation(token, true);

		assertThat(violation).hasValueSatisfying((message) -> assertThat(message).contains("whitespace")
			.contains("newline")
			.doesNotContain(token.strip()));
	}

	@Test
	void requiresATokenOnlyWhenAskedTo() {
		assertThat(AdminTokenPolicy.violation(null, true)).hasValueSatisfying(
				(message) -> assertThat(message).startsWith("payonce.security.admin-token is required"));
		assertThat(AdminTokenPolicy.violation("", true)).isPresent();
		assertThat(AdminTokenPolicy.violation(null, false)).isEmpty();
	}

	private static byte[] sha256(String text) {
		try {
			return java.security.MessageDigest.getInstance("SHA-256")
				.digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
		}
		catch (java.security.NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
