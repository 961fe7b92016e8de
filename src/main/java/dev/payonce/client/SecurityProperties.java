package dev.payonce.client;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Security settings, under {@code payonce.security.*}.
 *
 * @param adminToken the bearer token of the admin API: 32 or more random bytes as
 * base64url, base64 or hex (43 or more characters, 64 in hex); required outside the
 * {@code local} profile, where the published development token is refused (the
 * application refuses to start without an acceptable one: docs/design.md section 13)
 * @param devClient the development client
 */
@Validated
@ConfigurationProperties("payonce.security")
public record SecurityProperties(@Nullable String adminToken, @DefaultValue DevClient devClient) {

	/**
	 * The shortest admin token accepted: 32 bytes in base64url without padding (an
	 * all-hex token needs 64).
	 */
	public static final int MIN_ADMIN_TOKEN_LENGTH = 43;

	/**
	 * A client with a fixed, published test key for local runs. Never enable it where
	 * real money moves: anyone who read the README can use its key.
	 *
	 * @param enabled whether the development client exists (default false; the
	 * {@code local} profile turns it on)
	 */
	public record DevClient(@DefaultValue("false") boolean enabled) {

		/** The development client's id. */
		public static final ClientId ID = new ClientId("cli_development");

		/** The development client's published key. */
		public static final ApiKey KEY = new ApiKey("sk_test_LocalDevelopmentKeyDoNotUseInProduction0000");

	}

}
