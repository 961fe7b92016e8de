package dev.payonce.gateway.stripe;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Currency;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import com.stripe.StripeClient;
import com.stripe.exception.StripeException;
import com.stripe.model.HasId;
import com.stripe.model.PaymentIntent;
import com.stripe.model.Refund;
import com.stripe.model.StripeCollection;
import com.stripe.net.RequestOptions;
import com.stripe.param.PaymentIntentCancelParams;
import com.stripe.param.PaymentIntentCreateParams;
import com.stripe.param.PaymentIntentCreateParams.AutomaticPaymentMethods;
import com.stripe.param.PaymentIntentListParams;
import com.stripe.param.PaymentIntentSearchParams;
import com.stripe.param.RefundCreateParams;
import com.stripe.param.RefundListParams;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

import dev.payonce.provider.AmountLimits;
import dev.payonce.provider.ChargeRequest;
import dev.payonce.provider.ExtraCharge;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.Money;
import dev.payonce.provider.PaymentGateway;
import dev.payonce.provider.RefundReason;
import dev.payonce.provider.RefundRequest;

/**
 * Charges through Stripe's PaymentIntents API, active with
 * {@code payonce.gateway.provider=stripe}.
 *
 * <p>
 * A charge is one {@code POST /v1/payment_intents} with {@code confirm=true}, the payment
 * method, the amount in Stripe's units ({@link StripeAmounts}: ISK and UGX in hundredths,
 * three-decimal currencies ending in 0) and the currency,
 * {@code error_on_requires_action} (a server cannot authenticate for the customer) and no
 * redirects; the payment's provider idempotency key goes in the request options and its
 * payment id in {@code metadata[payonce_payment_id]}. Stripe saves the first answer to a
 * key once the endpoint began executing, including a 500, and replays it for 24 hours; so
 * stripe-java's own network retries are off ({@code maxNetworkRetries=0}): every retry is
 * the engine's, under a lease, and the worst-case call is one request. Answers map as
 * {@link StripeOutcomes} states.
 *
 * <p>
 * A lookup of a payment whose PaymentIntent Stripe already named (its provider reference,
 * kept while the payment is pending) retrieves it by id, which is consistent. Otherwise
 * it first searches PaymentIntents by {@code metadata['payonce_payment_id']}, which finds
 * the charge whatever provider key generation made it, cheaply, once Search has caught
 * up. Search is eventually consistent ("Don't use search for read-after-write flows [...]
 * Propagation of new or updated data could be delayed during an outage",
 * https://docs.stripe.com/search#data-freshness), so an empty search result proves
 * nothing: absence is proven only by listing PaymentIntents ({@code GET
 * /v1/payment_intents}, which Stripe names as the read-after-write source on that page)
 * created since the payment was created less {@link #CLOCK_SKEW}, every page to the end,
 * and finding none whose metadata carries the payment id (docs/design.md section 5). Any
 * failure of a lookup, or a list longer than {@link #MAX_LIST_PAGES} pages, is
 * {@link GatewayResult.Unknown}, never "not found".
 *
 * <p>
 * A refund is one {@code POST /v1/refunds} of the payment's PaymentIntent, with the
 * amount in Stripe's units and the client's reason, under the refund's own provider
 * idempotency key (derived from the refund id) and with its refund id in
 * {@code metadata[payonce_refund_id]}; Stripe's errors map as for charges. A refund
 * lookup lists the PaymentIntent's refunds (a list, not a search: it reads Stripe's own
 * writes, so no settle time) and finds the one carrying the refund id.
 *
 * <p>
 * The safety net against a second charge (docs/design.md section 5, "Extra charges")
 * finds a payment's PaymentIntents by Search and cancels or refunds in full every one but
 * the payment's own ({@link #reverseExtraCharges}); {@link #providerRefunds} lists every
 * Stripe refund carrying a refund id. Thread-safe.
 */
@Component
@ConditionalOnProperty(name = "payonce.gateway.provider", havingValue = "stripe")
class StripePaymentGateway implements PaymentGateway {

	/** Stripe prunes idempotency keys once they are at least 24 hours old. */
	static final Duration KEY_RETENTION = Duration.ofHours(24);

	/** The metadata key that carries Payonce's payment id on every PaymentIntent. */
	static final String PAYMENT_ID_METADATA = "payonce_payment_id";

	/** The metadata key that carries Payonce's refund id on every Refund. */
	static final String REFUND_ID_METADATA = "payonce_refund_id";

	/** The decline code of an amount Stripe cannot take, never sent to it. */
	static final String AMOUNT_NOT_SUPPORTED = "amount_not_supported";

	/** The provider reference of a charge or refund that was never sent. */
	private static final String NOT_SENT = "none";

	/** The most refunds one lookup reads of a PaymentIntent (Stripe's page limit). */
	private static final long REFUND_PAGE = 100;

	/** The most objects one list page holds (Stripe's limit, 1 to 100). */
	static final long LIST_PAGE = 100;

	/**
	 * The most pages a proof of absence reads: 10,000 PaymentIntents created since the
	 * payment. A busier account gets {@link GatewayResult.Unknown} instead of a proof,
	 * and the payment waits for Search or the give-up window rather than a new key.
	 */
	static final int MAX_LIST_PAGES = 100;

	/**
	 * How far Stripe's clock may run behind Payonce's: the list of a proof of absence
	 * starts this long before the payment was created.
	 */
	static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

	private static final Logger log = LoggerFactory.getLogger(StripePaymentGateway.class);

	private final StripeClient stripe;

	private final StripeProperties properties;

	private final StripeMode mode;

	StripePaymentGateway(StripeProperties properties) {
		this.properties = properties;
		// Known at start-up, from the key's prefix: a key of neither mode refuses to
		// start.
		this.mode = properties.mode();
		this.stripe = new StripeClient.StripeClientBuilder().setApiKey(properties.requiredSecretKey())
			.setApiBase(properties.apiBase().toString().replaceAll("/+$", ""))
			.setConnectTimeout(Math.toIntExact(properties.connectTimeout().toMillis()))
			.setReadTimeout(Math.toIntExact(properties.readTimeout().toMillis()))
			.setMaxNetworkRetries(0)
			.build();
		// The webhook endpoint needs it too; refuse to start without it, not on the
		// first event.
		properties.requiredWebhookSigningSecret();
		// The mode, never the key: which world every charge of this instance moves money
		// in.
		log.info("Stripe adapter in {} mode (livemode={}): clients' {} API keys only", this.mode, this.mode.livemode(),
				this.mode.livemode() ? "sk_live_" : "sk_test_");
	}

	@Override
	public GatewayResult charge(ChargeRequest request) {
		if (!StripeAmounts.limits(request.amount().currency()).allows(request.amount().minorUnits())) {
			return notSent(request.amount());
		}
		PaymentIntentCreateParams params = PaymentIntentCreateParams.builder()
			.setAmount(StripeAmounts.toStripe(request.amount()))
			.setCurrency(request.amount().currency().getCurrencyCode().toLowerCase(Locale.ROOT))
			.setPaymentMethod(request.paymentMethod())
			.setConfirm(true)
			.setErrorOnRequiresAction(true)
			.setAutomaticPaymentMethods(AutomaticPaymentMethods.builder()
				.setEnabled(true)
				.setAllowRedirects(AutomaticPaymentMethods.AllowRedirects.NEVER)
				.build())
			.setDescription(request.orderId())
			.putMetadata(PAYMENT_ID_METADATA, request.paymentId().toString())
			.putMetadata("payonce_order_id", request.orderId())
			.build();
		RequestOptions options = RequestOptions.builder().setIdempotencyKey(request.providerIdempotencyKey()).build();
		try {
			return StripeOutcomes.of(this.stripe.v1().paymentIntents().create(params, options));
		}
		catch (StripeException ex) {
			return StripeOutcomes.ofCharge(ex);
		}
	}

	@Override
	public GatewayResult lookup(ChargeRequest request) {
		String known = request.providerReference();
		return (known != null) ? retrieve(known) : search(request);
	}

	/**
	 * Reads a PaymentIntent Stripe already named by id ({@code GET
	 * /v1/payment_intents/{id}}), which is consistent: no settle time. Not found is never
	 * "no charge" here: the id came from Stripe, so it is {@link GatewayResult.Unknown}.
	 */
	private GatewayResult retrieve(String intentId) {
		try {
			return StripeOutcomes.of(this.stripe.v1().paymentIntents().retrieve(intentId));
		}
		catch (StripeException ex) {
			return new GatewayResult.Unknown("stripe retrieve failed: " + ex.getStatusCode() + " " + ex.getCode(),
					intentId, false);
		}
	}

	private GatewayResult search(ChargeRequest request) {
		PaymentIntentSearchParams params = PaymentIntentSearchParams.builder()
			.setQuery("metadata['" + PAYMENT_ID_METADATA + "']:'" + request.paymentId() + "'")
			.setLimit(10L)
			.build();
		List<PaymentIntent> found;
		try {
			found = this.stripe.v1().paymentIntents().search(params).getData();
		}
		catch (StripeException ex) {
			return new GatewayResult.Unknown("stripe search failed: " + ex.getStatusCode() + " " + ex.getCode());
		}
		// Search lags behind Stripe's writes: an empty answer is no proof; a list is.
		return found.isEmpty() ? list(request) : best(request, found);
	}

	/**
	 * The consistent proof of absence: every PaymentIntent created since the payment was
	 * created (less {@link #CLOCK_SKEW}), newest first, page after page with
	 * {@code starting_after} until {@code has_more} is false
	 * (https://docs.stripe.com/api/payment_intents/list,
	 * https://docs.stripe.com/api/pagination), filtered by the payment id in the
	 * metadata.
	 */
	private GatewayResult list(ChargeRequest request) {
		long since = Math.max(0, request.createdAt().minus(CLOCK_SKEW).getEpochSecond());
		String paymentId = request.paymentId().toString();
		Optional<List<PaymentIntent>> listed = everyPage("PaymentIntents since payment " + paymentId,
				(after) -> this.stripe.v1()
					.paymentIntents()
					.list(PaymentIntentListParams.builder()
						.setCreated(PaymentIntentListParams.Created.builder().setGte(since).build())
						.setLimit(LIST_PAGE)
						.setStartingAfter(after)
						.build()));
		if (listed.isEmpty()) {
			return new GatewayResult.Unknown("stripe list failed or too long: no proof of absence");
		}
		List<PaymentIntent> found = listed.get()
			.stream()
			.filter((intent) -> intent.getMetadata() != null
					&& paymentId.equals(intent.getMetadata().get(PAYMENT_ID_METADATA)))
			.toList();
		return found.isEmpty()
				? new GatewayResult.NotAttempted(
						"no PaymentIntent created since the payment carries its id (listed to the end)")
				: best(request, found);
	}

	/**
	 * One page of a Stripe list, after the object with the given id (none: the first).
	 */
	@FunctionalInterface
	private interface Page<T extends HasId> {

		StripeCollection<T> after(@Nullable String id) throws StripeException;

	}

	/**
	 * Every object of a Stripe list, newest first, page after page with
	 * {@code starting_after} until {@code has_more} is false
	 * (https://docs.stripe.com/api/pagination): a list reads Stripe's own writes
	 * (https://docs.stripe.com/search#data-freshness), so what it lacks, Stripe lacks.
	 * @param what the list, for the log (no identifier of a customer)
	 * @param page reads one page
	 * @return the objects; empty if a page failed, a page was empty but said more
	 * followed, or the list ran past {@link #MAX_LIST_PAGES} pages: never a partial list
	 */
	private static <T extends HasId> Optional<List<T>> everyPage(String what, Page<T> page) {
		List<T> all = new ArrayList<>();
		String after = null;
		for (int n = 0; n < MAX_LIST_PAGES; n++) {
			StripeCollection<T> one;
			try {
				one = page.after(after);
			}
			catch (StripeException ex) {
				log.warn("Stripe list of {} failed: {} {}", what, ex.getStatusCode(), ex.getCode());
				return Optional.empty();
			}
			List<T> data = (one.getData() != null) ? one.getData() : List.of();
			all.addAll(data);
			if (!Boolean.TRUE.equals(one.getHasMore())) {
				return Optional.of(all);
			}
			if (data.isEmpty()) {
				log.warn("Stripe list of {}: an empty page said more followed", what);
				return Optional.empty();
			}
			after = data.get(data.size() - 1).getId();
		}
		log.warn("Stripe list of {}: more than {} pages, not read to the end", what, MAX_LIST_PAGES);
		return Optional.empty();
	}

	/**
	 * Every refund of a PaymentIntent, whoever made it
	 * (https://docs.stripe.com/api/refunds/list), read to the end ({@link #everyPage}).
	 */
	private Optional<List<Refund>> everyRefundOf(String paymentIntent) {
		return everyPage("refunds of " + paymentIntent,
				(after) -> this.stripe.v1()
					.refunds()
					.list(RefundListParams.builder()
						.setPaymentIntent(paymentIntent)
						.setLimit(REFUND_PAGE)
						.setStartingAfter(after)
						.build()));
	}

	/** The refunds of a PaymentIntent that carry the given Payonce refund id. */
	private static List<Refund> carrying(String refundId, List<Refund> refunds) {
		return refunds.stream()
			.filter((refund) -> refund.getMetadata() != null
					&& refundId.equals(refund.getMetadata().get(REFUND_ID_METADATA)))
			.toList();
	}

	/** The outcome of the PaymentIntents that carry the payment id: the money wins. */
	private static GatewayResult best(ChargeRequest request, List<PaymentIntent> found) {
		if (found.size() > 1) {
			log.error("Stripe has {} PaymentIntents for payment {}: more than one provider key generation charged",
					found.size(), request.paymentId());
		}
		// A charge that succeeded wins over a failed one: the money moved.
		return found.stream()
			.map(StripeOutcomes::of)
			.min(Comparator.comparingInt(StripePaymentGateway::rank))
			.orElseThrow();
	}

	@Override
	public GatewayResult refund(RefundRequest request) {
		if (!StripeAmounts.limits(request.amount().currency()).allows(request.amount().minorUnits())) {
			return notSent(request.amount());
		}
		RefundCreateParams.Builder params = RefundCreateParams.builder()
			.setPaymentIntent(request.chargeReference())
			.setAmount(StripeAmounts.toStripe(request.amount()))
			.putMetadata(REFUND_ID_METADATA, request.refundId().toString());
		RefundReason reason = request.reason();
		if (reason != null) {
			params.setReason(switch (reason) {
				case DUPLICATE -> RefundCreateParams.Reason.DUPLICATE;
				case FRAUDULENT -> RefundCreateParams.Reason.FRAUDULENT;
				case REQUESTED_BY_CUSTOMER -> RefundCreateParams.Reason.REQUESTED_BY_CUSTOMER;
			});
		}
		RequestOptions options = RequestOptions.builder().setIdempotencyKey(request.providerIdempotencyKey()).build();
		try {
			return StripeOutcomes.of(this.stripe.v1().refunds().create(params.build(), options));
		}
		catch (StripeException ex) {
			// Stripe's errors mean the same for a refund as for a charge.
			return StripeOutcomes.ofCharge(ex);
		}
	}

	@Override
	public GatewayResult lookupRefund(RefundRequest request) {
		Optional<List<Refund>> refunds = everyRefundOf(request.chargeReference());
		if (refunds.isEmpty()) {
			return new GatewayResult.Unknown("stripe refund list failed or too long");
		}
		String refundId = request.refundId().toString();
		List<Refund> found = carrying(refundId, refunds.get());
		if (found.isEmpty()) {
			return new GatewayResult.NotAttempted("no refund of the PaymentIntent carries this refund id");
		}
		if (found.size() > 1) {
			log.error("Stripe has {} refunds for refund {}: refunded more than once", found.size(), refundId);
		}
		return StripeOutcomes.of(found.get(0));
	}

	/**
	 * Finds the payment's PaymentIntents by Search (eventually consistent, which a safety
	 * net that repeats for as long as Stripe keeps keys tolerates: a PaymentIntent missed
	 * now is found by a later sweep) and reverses every one but {@code kept} that moved
	 * or may move money: {@code succeeded} is refunded in full (reason
	 * {@code duplicate}), one not yet final is canceled
	 * (https://docs.stripe.com/api/payment_intents/cancel), each under the key
	 * {@code payonce-reversal-<PaymentIntent id>}; a replayed answer or
	 * {@code charge_already_refunded} means an earlier sweep reversed it. A declined or
	 * canceled PaymentIntent moved no money and is left alone.
	 */
	@Override
	public Optional<List<ExtraCharge>> reverseExtraCharges(ChargeRequest request, @Nullable String kept) {
		PaymentIntentSearchParams params = PaymentIntentSearchParams.builder()
			.setQuery("metadata['" + PAYMENT_ID_METADATA + "']:'" + request.paymentId() + "'")
			.setLimit(LIST_PAGE)
			.build();
		List<PaymentIntent> found;
		try {
			found = this.stripe.v1().paymentIntents().search(params).getData();
		}
		catch (StripeException ex) {
			log.warn("Payment {}: the sweep for extra charges could not search Stripe ({} {})", request.paymentId(),
					ex.getStatusCode(), ex.getCode());
			return Optional.empty();
		}
		List<ExtraCharge> extras = new ArrayList<>();
		for (PaymentIntent intent : found) {
			String status = (intent.getStatus() != null) ? intent.getStatus() : "";
			if (intent.getId().equals(kept) || status.equals("requires_payment_method") || status.equals("canceled")) {
				continue;
			}
			extras.add(new ExtraCharge(intent.getId(),
					status.equals("succeeded") ? refundInFull(intent, request) : cancel(intent)));
		}
		return Optional.of(extras);
	}

	private ExtraCharge.Reversal refundInFull(PaymentIntent intent, ChargeRequest request) {
		RefundCreateParams params = RefundCreateParams.builder()
			.setPaymentIntent(intent.getId())
			.setReason(RefundCreateParams.Reason.DUPLICATE)
			.putMetadata("payonce_reversal_of", request.paymentId().toString())
			.build();
		try {
			Refund refund = this.stripe.v1().refunds().create(params, reversalKey(intent));
			return replayed(refund) ? ExtraCharge.Reversal.ALREADY_REVERSED : ExtraCharge.Reversal.REFUNDED;
		}
		catch (StripeException ex) {
			return "charge_already_refunded".equals(ex.getCode()) ? ExtraCharge.Reversal.ALREADY_REVERSED
					: ExtraCharge.Reversal.NOT_REVERSED;
		}
	}

	private ExtraCharge.Reversal cancel(PaymentIntent intent) {
		PaymentIntentCancelParams params = PaymentIntentCancelParams.builder()
			.setCancellationReason(PaymentIntentCancelParams.CancellationReason.DUPLICATE)
			.build();
		try {
			PaymentIntent canceled = this.stripe.v1()
				.paymentIntents()
				.cancel(intent.getId(), params, reversalKey(intent));
			return replayed(canceled) ? ExtraCharge.Reversal.ALREADY_REVERSED : ExtraCharge.Reversal.CANCELED;
		}
		catch (StripeException ex) {
			// processing cannot always be canceled; once it succeeds a later sweep
			// refunds it.
			return ExtraCharge.Reversal.NOT_REVERSED;
		}
	}

	private static RequestOptions reversalKey(PaymentIntent intent) {
		return RequestOptions.builder().setIdempotencyKey("payonce-reversal-" + intent.getId()).build();
	}

	private static boolean replayed(com.stripe.model.StripeObject answer) {
		return answer.getLastResponse() != null && answer.getLastResponse()
			.headers()
			.firstValue("Idempotent-Replayed")
			.map("true"::equalsIgnoreCase)
			.orElse(false);
	}

	/**
	 * Lists the PaymentIntent's refunds (consistent, every page) and keeps the ids of
	 * those carrying the refund id.
	 */
	@Override
	public Optional<List<String>> providerRefunds(RefundRequest request) {
		String refundId = request.refundId().toString();
		return everyRefundOf(request.chargeReference())
			.map((refunds) -> carrying(refundId, refunds).stream().map(Refund::getId).toList());
	}

	/**
	 * The answer to an amount Stripe cannot take, sent nowhere: final, and nothing moved.
	 * Payonce refuses such amounts before it stores anything ({@link #amountLimits});
	 * this meets only a payment or refund stored before that check existed, which no
	 * retry can change.
	 */
	private static GatewayResult notSent(Money amount) {
		log.warn("Not sent to Stripe: {} {} minor units is not an amount Stripe takes ({})", amount.currency(),
				amount.minorUnits(), StripeAmounts.CURRENCIES_PAGE);
		return new GatewayResult.Declined(NOT_SENT, AMOUNT_NOT_SUPPORTED);
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

	/**
	 * A PaymentIntent's refunds, all of them whoever made them, for the webhook
	 * controller's {@code charge.refunded} (docs/design.md section 10): a list, not a
	 * search, so it reads Stripe's own writes.
	 * @param paymentIntent the PaymentIntent's id
	 * @return its refunds, every page; empty if Stripe could not be read to the end
	 */
	Optional<List<Refund>> refundsOf(String paymentIntent) {
		return everyRefundOf(paymentIntent);
	}

	private static int rank(GatewayResult result) {
		return switch (result) {
			case GatewayResult.Approved approved -> 0;
			case GatewayResult.Unknown unknown -> 1;
			case GatewayResult.Declined declined -> 2;
			case GatewayResult.NotAttempted notAttempted -> 3;
		};
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
