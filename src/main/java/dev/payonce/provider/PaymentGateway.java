package dev.payonce.provider;

import java.time.Duration;
import java.util.List;
import java.util.Currency;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * The port to a payment provider (docs/design.md section 5). Adapters live in
 * {@code dev.payonce.gateway.*}; nothing outside an adapter sees a provider's own types.
 *
 * <p>
 * Implementations must deduplicate by {@link ChargeRequest#providerIdempotencyKey()} and
 * {@link RefundRequest#providerIdempotencyKey()}: a second charge or refund with the same
 * key returns the first one's result and moves no money. They are called outside any
 * Payonce database transaction and must be safe to call concurrently.
 */
public interface PaymentGateway {

	/**
	 * Charges once per provider idempotency key.
	 * @param request what to charge
	 * @return the provider's answer; infrastructure failures are
	 * {@link GatewayResult.Unknown} or {@link GatewayResult.NotAttempted}, never
	 * exceptions
	 */
	GatewayResult charge(ChargeRequest request);

	/**
	 * Asks what happened to a payment's charge, without ever charging (docs/design.md
	 * section 5, reconciliation).
	 * @param request the charge as {@link #charge} is (or would have been) sent; adapters
	 * find it by its provider idempotency key or by its payment id
	 * @return {@link GatewayResult.Approved} or {@link GatewayResult.Declined} when the
	 * provider has the charge; {@link GatewayResult.NotAttempted} when it confirms it has
	 * no charge for the payment (under any key generation, once {@link #lookupSettleTime}
	 * has passed since the last charge call ended); {@link GatewayResult.Unknown} when it
	 * could not be asked or the charge has no final outcome yet
	 */
	GatewayResult lookup(ChargeRequest request);

	/**
	 * How long after a charge call ended a {@link #lookup} that finds nothing proves the
	 * provider has no charge. Zero for a provider that executes nothing after its answer;
	 * for Stripe, which may still execute a request after Payonce stopped waiting for it,
	 * the configured settle time (its lookups prove absence from a consistent list, never
	 * from Search alone, docs/design.md section 5). The payment operation's
	 * reconciliation step asks the reconciler to leave a record alone at least this long
	 * after its lease ended. Refund lookups must read their own writes.
	 * @return the settle time, zero or more
	 */
	default Duration lookupSettleTime() {
		return Duration.ZERO;
	}

	/**
	 * Whether the provider saves a failed answer (a 5xx) under a provider idempotency key
	 * and replays it to every retry with that key, as Stripe does. Only for such a
	 * provider does the reconciler move a payment to a new provider key generation once a
	 * lookup proved the provider has no charge for it; otherwise retries with the same
	 * key reach the provider afresh and the key never changes.
	 * @return {@code true} if failed answers are replayed under the key
	 */
	default boolean replaysFailuresUnderProviderKey() {
		return false;
	}

	/**
	 * How long the provider remembers a provider idempotency key, if it forgets keys: a
	 * charge re-sent after that could charge again. Payonce refuses to start when the
	 * reconciler's give-up window (plus a lease and a worst-case call) reaches it.
	 * @return the key retention (Stripe: 24 hours), or empty if keys are kept for good
	 */
	default Optional<Duration> providerKeyRetention() {
		return Optional.empty();
	}

	/**
	 * How long the provider holds an authorization made with {@link CaptureMethod#MANUAL}
	 * before it lapses and no capture can take it (docs/design.md section 15). Payonce
	 * counts it from the payment's creation, before the provider's own start, so it
	 * refuses a capture no later than the provider would.
	 * @return the hold window; 7 days by default (Stripe's for most card payments,
	 * https://docs.stripe.com/payments/place-a-hold-on-a-payment-method)
	 */
	default Duration authorizationWindow() {
		return Duration.ofDays(7);
	}

	/**
	 * Refunds once per provider idempotency key (docs/design.md section 8).
	 * @param request what to refund, and of which charge
	 * @return {@link GatewayResult.Approved} with the provider's id of the refund,
	 * {@link GatewayResult.Declined} when the provider refuses it for good,
	 * {@link GatewayResult.NotAttempted} when it refused before processing (nothing
	 * refunded), {@link GatewayResult.Unknown} when the outcome is unknown; never
	 * exceptions
	 */
	GatewayResult refund(RefundRequest request);

	/**
	 * Asks what happened to a refund, without ever refunding (reconciliation).
	 * @param request the refund as {@link #refund} is (or would have been) sent; adapters
	 * find it by its provider idempotency key, or by its refund id among the refunds of
	 * its charge
	 * @return the refund's outcome as {@link #refund} would give it;
	 * {@link GatewayResult.NotAttempted} when the provider confirms it has no such
	 * refund; {@link GatewayResult.Unknown} when it could not be asked
	 */
	GatewayResult lookupRefund(RefundRequest request);

	/**
	 * Captures part or all of a manual payment's authorization, once per provider
	 * idempotency key (docs/design.md section 15). Several captures of one authorization
	 * may follow each other until their sum reaches its amount.
	 * @param request what to capture, and of which charge
	 * @return {@link GatewayResult.Approved} with the provider's id of the capture,
	 * {@link GatewayResult.Declined} when the provider refuses it for good (the hold
	 * lapsed or was released, more than is left), {@link GatewayResult.NotAttempted} when
	 * it refused before processing, {@link GatewayResult.Unknown} when the outcome is
	 * unknown; never exceptions. By default declined with {@code capture_not_supported}
	 * for a provider that cannot capture
	 */
	default GatewayResult capture(CaptureRequest request) {
		return new GatewayResult.Declined("none", "capture_not_supported");
	}

	/**
	 * How the provider takes several captures of one authorization; the capture operation
	 * claims captures to match (docs/design.md section 15).
	 * @return {@link CaptureSequence#CONCURRENT} by default
	 */
	default CaptureSequence captureSequence() {
		return CaptureSequence.CONCURRENT;
	}

	/**
	 * Asks what happened to a capture, without ever capturing (reconciliation).
	 * @param request the capture as {@link #capture} is (or would have been) sent
	 * @return its outcome as {@link #capture} would give it;
	 * {@link GatewayResult.NotAttempted} when the provider confirms it has no such
	 * capture; {@link GatewayResult.Unknown} when it could not be asked
	 */
	default GatewayResult lookupCapture(CaptureRequest request) {
		return new GatewayResult.NotAttempted("this provider makes no captures");
	}

	/**
	 * Releases what is left of a manual payment's authorization, once per provider
	 * idempotency key (docs/design.md section 15); no capture of it succeeds after.
	 * @param request the void, and of which charge
	 * @return {@link GatewayResult.Approved} with the provider's id of the void,
	 * {@link GatewayResult.Declined} when the provider refuses it for good (already
	 * captured in full, or released), {@link GatewayResult.NotAttempted} when it refused
	 * before processing, {@link GatewayResult.Unknown} when the outcome is unknown; never
	 * exceptions. By default declined with {@code void_not_supported}
	 */
	default GatewayResult voidAuthorization(VoidRequest request) {
		return new GatewayResult.Declined("none", "void_not_supported");
	}

	/**
	 * Asks what happened to a void, without ever voiding (reconciliation).
	 * @param request the void as {@link #voidAuthorization} is (or would have been) sent
	 * @return its outcome; {@link GatewayResult.NotAttempted} when the provider confirms
	 * it has no such void; {@link GatewayResult.Unknown} when it could not be asked
	 */
	default GatewayResult lookupVoid(VoidRequest request) {
		return new GatewayResult.NotAttempted("this provider makes no voids");
	}

	/**
	 * The safety net against a second charge (docs/design.md section 5, "Extra charges"):
	 * finds every charge the provider holds for the payment, under any provider key
	 * generation, and reverses each one other than {@code kept} that moved or may move
	 * money: cancels it if it can still be canceled, else refunds it in full, each under
	 * a provider idempotency key derived from the extra charge, so that sweeps on several
	 * instances or repeated sweeps reverse it once. Never charges.
	 * @param request the payment's charge request (its payment id finds the charges)
	 * @param kept the provider's id of the charge Payonce recorded for a SUCCEEDED
	 * payment, or {@code null} when Payonce recorded none (FAILED or DECLINED: every
	 * charge that moved money is extra)
	 * @return one entry per extra charge found; empty if the provider could not be asked.
	 * A provider that never holds two charges for one payment (it keeps keys for good and
	 * Payonce never changes them) answers an empty list.
	 */
	default Optional<List<ExtraCharge>> reverseExtraCharges(ChargeRequest request, @Nullable String kept) {
		return Optional.of(List.of());
	}

	/**
	 * The provider's ids of every refund it holds for one Payonce refund, under any
	 * provider key generation (docs/design.md section 5, "Extra charges"). Never refunds.
	 * @param request the refund as {@link #refund} sends it
	 * @return the provider's refund ids; empty if the provider could not be asked
	 */
	default Optional<List<String>> providerRefunds(RefundRequest request) {
		return Optional.of(List.of());
	}

	/**
	 * The one mode this provider moves money in (docs/design.md section 5, "One mode per
	 * adapter"): a payment or refund whose client's API key is of the other mode is
	 * refused before anything is stored.
	 * @return {@link Mode#LIVE} when the provider moves real money, {@link Mode#TEST}
	 * when it is the provider's test mode; empty (the default) for a provider that takes
	 * keys of either mode, as the simulator, which moves no money at all
	 */
	default Optional<Mode> mode() {
		return Optional.empty();
	}

	/** A provider's mode: its test mode or real money. */
	enum Mode {

		/** The provider's test mode: no money moves; clients' test keys only. */
		TEST,

		/** Real money; clients' live keys only. */
		LIVE;

		/**
		 * The mode of a client's API key.
		 * @param live whether the key is live ({@code sk_live_})
		 * @return {@link #LIVE} or {@link #TEST}
		 */
		public static Mode ofKey(boolean live) {
			return live ? LIVE : TEST;
		}

	}

	/**
	 * Which amounts of a currency the provider can charge and refund, in ISO 4217 minor
	 * units (docs/design.md section 5, "Amounts at the provider"). Payonce refuses a
	 * payment or refund outside them before it stores or sends anything; an adapter never
	 * rounds.
	 * @param currency the payment's currency
	 * @return the limits; {@link AmountLimits#ANY} by default
	 */
	default AmountLimits amountLimits(Currency currency) {
		return AmountLimits.ANY;
	}

	/**
	 * Whether {@link #amountLimits} is narrower than {@link AmountLimits#ANY} for some
	 * currency, so that a refund's amount must be checked against the payment's currency
	 * (one more read) before the refund is claimed.
	 * @return {@code false} by default
	 */
	default boolean limitsAmounts() {
		return false;
	}

	/**
	 * The longest one {@link #charge} or {@link #refund} call can take before the adapter
	 * gives up (client timeout times attempts). The idempotency lease must be longer, or
	 * a slow call could outlive its lease (docs/design.md section 4); Payonce refuses to
	 * start otherwise.
	 * @return the worst-case duration of a charge call
	 */
	Duration worstCaseCallDuration();

}
