package dev.payonce.gateway.stripe;

import java.time.Duration;
import java.util.Currency;
import java.util.List;
import java.util.Optional;

import com.stripe.StripeClient;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

import dev.payonce.provider.AmountLimits;
import dev.payonce.provider.CaptureRequest;
import dev.payonce.provider.CaptureSequence;
import dev.payonce.provider.ChargeRequest;
import dev.payonce.provider.ExtraCharge;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.PaymentGateway;
import dev.payonce.provider.RefundRequest;
import dev.payonce.provider.VoidRequest;

/**
 * Charges through Stripe's PaymentIntents API, active with
 * {@code payonce.gateway.provider=stripe}: one stripe-java client, shared by the
 * adapter's parts, {@link StripeCharges} (charges and the reversal of extra ones),
 * {@link StripeLookups} (a payment's charge by id, Search, or a list read to the end),
 * {@link StripeRefunds} (refunds and their lookup) and {@link StripeHolds} (captures and
 * voids of a manual payment's hold, and their lookups).
 *
 * <p>
 * Stripe saves the first answer to an idempotency key once the endpoint began executing,
 * including a 500, and replays it for 24 hours; so stripe-java's own network retries are
 * off ({@code maxNetworkRetries=0}): every retry is the engine's, under a lease, and the
 * worst-case call is one request. Amounts Stripe cannot take ({@link StripeAmounts}) are
 * refused before anything is stored, and never sent. Thread-safe.
 */
@Component
@ConditionalOnProperty(name = "payonce.gateway.provider", havingValue = "stripe")
class StripePaymentGateway implements PaymentGateway {

	/** Stripe prunes idempotency keys once they are at least 24 hours old. */
	static final Duration KEY_RETENTION = Duration.ofHours(24);

	private static final Logger log = LoggerFactory.getLogger(StripePaymentGateway.class);

	private final StripeProperties properties;

	private final StripeMode mode;

	private final StripeCharges charges;

	private final StripeLookups lookups;

	private final StripeRefunds refunds;

	private final StripeHolds holds;

	StripePaymentGateway(StripeProperties properties) {
		this.properties = properties;
		// Known at start-up, from the key's prefix: a key of neither mode refuses to
		// start.
		this.mode = properties.mode();
		StripeClient stripe = new StripeClient.StripeClientBuilder().setApiKey(properties.requiredSecretKey())
			.setApiBase(properties.apiBase().toString().replaceAll("/+$", ""))
			.setConnectTimeout(Math.toIntExact(properties.connectTimeout().toMillis()))
			.setReadTimeout(Math.toIntExact(properties.readTimeout().toMillis()))
			.setMaxNetworkRetries(0)
			.build();
		this.charges = new StripeCharges(stripe);
		this.lookups = new StripeLookups(stripe);
		this.refunds = new StripeRefunds(stripe);
		this.holds = new StripeHolds(stripe, captureSequence());
		// The webhook endpoint needs it too; refuse to start without it, not on the
		// first event.
		properties.requiredWebhookSigningSecret();
		// The mode, never the key: which world every charge of this instance moves money
		// in.
		log.info("Stripe adapter in {} mode (livemode={}): clients' {} API keys only", this.mode, this.mode.livemode(),
				this.mode.livemode() ? "sk_live_" : "sk_test_");
	}

	/** Its refunds, which the webhook endpoint lists for {@code charge.refunded}. */
	StripeRefunds refunds() {
		return this.refunds;
	}

	/** A PaymentIntent confirmed at once ({@link StripeCharges}). */
	@Override
	public GatewayResult charge(ChargeRequest request) {
		return this.charges.charge(request);
	}

	/** By id, by Search, or by a list read to the end ({@link StripeLookups}). */
	@Override
	public GatewayResult lookup(ChargeRequest request) {
		return this.lookups.lookup(request);
	}

	/** A Refund of the payment's PaymentIntent ({@link StripeRefunds}). */
	@Override
	public GatewayResult refund(RefundRequest request) {
		return this.refunds.refund(request);
	}

	/** The PaymentIntent's refunds, listed ({@link StripeRefunds}). */
	@Override
	public GatewayResult lookupRefund(RefundRequest request) {
		return this.refunds.lookupRefund(request);
	}

	/**
	 * {@code POST /v1/payment_intents/{id}/capture} under the capture's own key
	 * ({@link StripeHolds}).
	 */
	@Override
	public GatewayResult capture(CaptureRequest request) {
		return this.holds.capture(request);
	}

	/** The PaymentIntent, retrieved by id ({@link StripeHolds}). */
	@Override
	public GatewayResult lookupCapture(CaptureRequest request) {
		return this.holds.lookupCapture(request);
	}

	/**
	 * {@code POST /v1/payment_intents/{id}/cancel} under the void's own key
	 * ({@link StripeHolds}).
	 */
	@Override
	public GatewayResult voidAuthorization(VoidRequest request) {
		return this.holds.voidAuthorization(request);
	}

	/** The PaymentIntent, retrieved by id ({@link StripeHolds}). */
	@Override
	public GatewayResult lookupVoid(VoidRequest request) {
		return this.holds.lookupVoid(request);
	}

	/**
	 * One capture per PaymentIntent unless the account has multicapture
	 * (https://docs.stripe.com/payments/multicapture), then one at a time.
	 */
	@Override
	public CaptureSequence captureSequence() {
		return this.properties.multicapture() ? CaptureSequence.ONE_AT_A_TIME : CaptureSequence.ONCE;
	}

	/**
	 * Every PaymentIntent of the payment but {@code kept}, refunded in full or canceled
	 * ({@link StripeCharges#reverseExtraCharges}).
	 */
	@Override
	public Optional<List<ExtraCharge>> reverseExtraCharges(ChargeRequest request, @Nullable String kept) {
		return this.charges.reverseExtraCharges(request, kept);
	}

	/** Every Stripe refund carrying the refund id ({@link StripeRefunds}). */
	@Override
	public Optional<List<String>> providerRefunds(RefundRequest request) {
		return this.refunds.providerRefunds(request);
	}

	/**
	 * Stripe's currency table, converted to ISO 4217 minor units ({@link StripeAmounts}).
	 */
	@Override
	public AmountLimits amountLimits(Currency currency) {
		return StripeAmounts.limits(currency);
	}

	@Override
	public boolean limitsAmounts() {
		return true;
	}

	/** The secret key's mode ({@link StripeProperties#mode()}). */
	@Override
	public Optional<Mode> mode() {
		return Optional.of(this.mode.livemode() ? Mode.LIVE : Mode.TEST);
	}

	@Override
	public Duration worstCaseCallDuration() {
		// One request and the HTTP client's own re-send of it (see StripeProperties).
		return this.properties.connectTimeout().plus(this.properties.readTimeout()).multipliedBy(2);
	}

	@Override
	public Duration lookupSettleTime() {
		return this.properties.searchSettleTime();
	}

	@Override
	public boolean replaysFailuresUnderProviderKey() {
		return true;
	}

	@Override
	public Optional<Duration> providerKeyRetention() {
		return Optional.of(KEY_RETENTION);
	}

}
