package dev.payonce.gateway.stripe;

import java.net.URI;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class StripePropertiesTests {

	@Test
	void missingSecretsNameTheirSettings() {
		StripeProperties properties = new StripeProperties(null, " ", URI.create("https://api.stripe.com"),
				Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofMinutes(2), Duration.ofMinutes(5), false);

		assertThatIllegalStateException().isThrownBy(properties::requiredSecretKey)
			.withMessageStartingWith("payonce.gateway.stripe.secret-key");
		assertThatIllegalStateException().isThrownBy(properties::requiredWebhookSigningSecret)
			.withMessageStartingWith("payonce.gateway.stripe.webhook-signing-secret");
	}

	@Test
	void neverPrintsItsSecrets() {
		StripeProperties properties = new StripeProperties("sk_test_secret", "whsec_secret",
				URI.create("https://api.stripe.com"), Duration.ofSeconds(2), Duration.ofSeconds(10),
				Duration.ofMinutes(2), Duration.ofMinutes(5), false);

		assertThat(properties.toString()).doesNotContain("sk_test_secret").doesNotContain("whsec_secret");
	}

	@Test
	void modeComesFromTheSecretKeysPrefix() {
		assertThat(withKey("sk_test_abc").mode()).isEqualTo(StripeMode.TEST);
		assertThat(withKey("rk_test_abc").mode()).isEqualTo(StripeMode.TEST);
		assertThat(withKey("sk_live_abc").mode()).isEqualTo(StripeMode.LIVE);
		assertThat(withKey("rk_live_abc").mode()).isEqualTo(StripeMode.LIVE);
		assertThat(StripeMode.LIVE.livemode()).isTrue();
		assertThat(StripeMode.TEST.livemode()).isFalse();
	}

	@Test
	void keyOfNoModeRefusesToStartWithoutQuotingIt() {
		assertThatIllegalStateException().isThrownBy(() -> withKey("pk_live_publishable").mode())
			.withMessageStartingWith("payonce.gateway.stripe.secret-key must start with")
			.withMessageNotContaining("pk_live_publishable");
		assertThatIllegalStateException().isThrownBy(() -> withKey("sk_prod_abc").mode())
			.withMessageNotContaining("sk_prod_abc");
	}

	private static StripeProperties withKey(String key) {
		return new StripeProperties(key, "whsec_secret", URI.create("https://api.stripe.com"), Duration.ofSeconds(2),
				Duration.ofSeconds(10), Duration.ofMinutes(2), Duration.ofMinutes(5), false);
	}

}
