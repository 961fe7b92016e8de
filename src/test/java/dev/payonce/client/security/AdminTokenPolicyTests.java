package dev.payonce.client.security;

import java.util.Optional;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AdminTokenPolicyTests {

	@ParameterizedTest
	@ValueSource(strings = { "k3J9xQ2mV8pL5nR7tY1wZ4cB6dF0gH2j", "test-admin-token-R7q2Wm9xKp4Vt8Ls3Nd6Hz1F",
			"local-admin-token-for-development-only", "d9be6fadb015d639e47dc51666ddc6fe",
			"Qm9vYXJkSGVyZVRvQmVSYW5kb20xMjM0NTY3ODkwYWI=" })
	void acceptsRandomOrLongTokens(String token) {
		assertThat(AdminTokenPolicy.violation(token, true)).isEmpty();
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|',
			textBlock = """
					32 times a                      | aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa                | too easy to guess
					a digit sequence                | 0123456789012345678901234567890123              | too easy to guess
					the alphabet                    | abcdefghijklmnopqrstuvwxyz012345                | too easy to guess
					a repeated password             | Passw0rd!Passw0rd!Passw0rd!Passw0rd!            | may hold only
					a repeated password, b64token   | Passw0rd.Passw0rd.Passw0rd.Passw0rd.            | too easy to guess
					an API key                      | sk_live_k3J9xQ2mV8pL5nR7tY1wZ4cB6dF0gH2jk3J9xQ2 | like an API key
					an sk_ prefix in upper case     | SK_k3J9xQ2mV8pL5nR7tY1wZ4cB6dF0gH2jX            | like an API key
					short                           | k3J9xQ2mV8pL5nR7                                | at least 32 characters, got 16
					""")
	void refusesWeakOrMisleadingTokens(String name, String token, String reason) {
		Optional<String> violation = AdminTokenPolicy.violation(token, true);

		assertThat(violation)
			.hasValueSatisfying((message) -> assertThat(message).startsWith("payonce.security.admin-token")
				.contains(reason)
				.doesNotContain(token));
	}

	@ParameterizedTest
	@ValueSource(strings = { "k3J9xQ2mV8pL5nR7tY1wZ4cB6dF0gH2j\n", "k3J9xQ2mV8pL5nR7tY1wZ4cB6dF0gH2j\r\n",
			" k3J9xQ2mV8pL5nR7tY1wZ4cB6dF0gH2j", "k3J9xQ2mV8pL5nR7tY1wZ4cB6dF0gH2j\t" })
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

}
