package dev.payonce.gateway.stripe;

import java.net.URI;
import java.time.Duration;

import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the Stripe adapter, under {@code payonce.gateway.stripe.*}; read only with
 * {@code payonce.gateway.provider=stripe}, which then requires the two secrets.
 *
 * <p>
 * stripe-java's own network retries are off (the idempotency engine owns retries), but
 * its HTTP client, the JDK's {@code HttpURLConnection}, re-sends a POST once by itself
 * when the connection fails after the request was sent ({@code sun.net.http.retryPost});
 * the re-sent request carries the same {@code Idempotency-Key}, so Stripe answers it from
 * what it saved. The worst-case call the lease is checked against is therefore two
 * requests: twice {@code connect-timeout} plus {@code read-timeout} (24 s with the
 * defaults).
 *
 * @param secretKey the Stripe secret key ({@code sk_test_...} or {@code sk_live_...}, or
 * a restricted key {@code rk_test_...} or {@code rk_live_...}, which needs write access
 * to PaymentIntents and read access to search); its prefix is the adapter's
 * {@link #mode()}; never logged
 * @param webhookSigningSecret the signing secret of the webhook endpoint
 * ({@code whsec_...}, from the Dashboard or from {@code stripe listen}); never logged
 * @param apiBase where Stripe's API is (default {@code https://api.stripe.com}); tests
 * point it at a local model of the API
 * @param connectTimeout how long to wait for a connection (default 2s)
 * @param readTimeout how long to wait for Stripe's answer once the request was sent
 * (default 10s; stripe-java's own default, 80 s, would need a lease over 165 s); a
 * timeout is an unknown outcome
 * @param searchSettleTime how long after a charge call ended a lookup that finds no
 * PaymentIntent counts as proof that there is none (default 2m): Stripe may still execute
 * a create call after Payonce stopped waiting for its answer. The proof itself is a list
 * of PaymentIntents read to its end, never a search alone: Search is eventually
 * consistent and can lag longer than any settle time during an outage
 * (https://docs.stripe.com/search#data-freshness, docs/design.md section 5); the name is
 * kept for existing configurations
 * @param webhookTolerance the oldest {@code Stripe-Signature} timestamp accepted (default
 * 5m, Stripe's own default), against replayed deliveries
 * @param multicapture whether the account may capture a PaymentIntent more than once
 * (default false; an IC+ feature for online card payments that Stripe enables,
 * https://docs.stripe.com/payments/multicapture): with it, captures go one at a time and
 * all but the last are sent with {@code final_capture=false}; without it, the first
 * capture of a payment is its only one and Stripe releases the rest (docs/stripe.md,
 * "Manual capture at Stripe")
 */
@Validated
@ConfigurationProperties("payonce.gateway.stripe")
public record StripeProperties(@Nullable String secretKey, @Nullable String webhookSigningSecret,
		@DefaultValue("https://api.stripe.com") URI apiBase,
		@DefaultValue("2s") @DurationMin(millis = 1) Duration connectTimeout,
		@DefaultValue("10s") @DurationMin(millis = 1) Duration readTimeout,
		@DefaultValue("2m") @DurationMin(seconds = 0) Duration searchSettleTime,
		@DefaultValue("5m") @DurationMin(seconds = 1) Duration webhookTolerance,
		@DefaultValue("false") boolean multicapture) {

	/**
	 * The secret key, required once the adapter is active.
	 * @return the key
	 * @throws IllegalStateException naming the setting if it is missing
	 */
	String requiredSecretKey() {
		return required(this.secretKey, "secret-key", "PAYONCE_GATEWAY_STRIPE_SECRET_KEY");
	}

	/**
	 * The mode the secret key acts in, from its prefix: the one mode of the adapter
	 * (docs/design.md section 5, "One mode per adapter"). Payments of clients whose API
	 * key is of the other mode are refused, and webhook events whose {@code livemode}
	 * differs are not applied.
	 * @return {@link StripeMode#TEST} for {@code sk_test_}/{@code rk_test_},
	 * {@link StripeMode#LIVE} for {@code sk_live_}/{@code rk_live_}
	 * @throws IllegalStateException naming the setting if the key is missing or has none
	 * of these prefixes (the message never quotes the key)
	 */
	public StripeMode mode() {
		return StripeMode.ofKey(requiredSecretKey())
			.orElseThrow(() -> new IllegalStateException(
					"payonce.gateway.stripe.secret-key must start with sk_test_, sk_live_, rk_test_ or rk_live_ "
							+ "(PAYONCE_GATEWAY_STRIPE_SECRET_KEY)"));
	}

	/**
	 * The webhook signing secret, required once the adapter is active.
	 * @return the secret
	 * @throws IllegalStateException naming the setting if it is missing
	 */
	String requiredWebhookSigningSecret() {
		return required(this.webhookSigningSecret, "webhook-signing-secret",
				"PAYONCE_GATEWAY_STRIPE_WEBHOOK_SIGNING_SECRET");
	}

	private static String required(@Nullable String value, String name, String variable) {
		if (value == null || value.isBlank()) {
			throw new IllegalStateException("payonce.gateway.stripe." + name
					+ " is required with payonce.gateway.provider=stripe (" + variable + ")");
		}
		return value;
	}

	@Override
	public String toString() {
		// Never print the secrets, for example in a failure analysis.
		return "StripeProperties[apiBase=" + this.apiBase + ", connectTimeout=" + this.connectTimeout + ", readTimeout="
				+ this.readTimeout + ", searchSettleTime=" + this.searchSettleTime + ", webhookTolerance="
				+ this.webhookTolerance + ", multicapture=" + this.multicapture + "]";
	}

}
