package dev.payonce.gateway.stripe;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.http.RequestMethod;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import dev.payonce.history.ProviderLedger;

/**
 * A local model of the parts of Stripe's API that Payonce uses, served over real HTTP by
 * WireMock, with the semantics of Stripe's public documentation:
 * <ul>
 * <li>{@code POST /v1/payment_intents}: the first request with an idempotency key is
 * saved once the endpoint began executing, status and body, <b>including a 500</b>, and
 * every later request with the key gets the saved answer with
 * {@code Idempotent-Replayed: true}. A request with other parameters under a used key is
 * {@code 400 idempotency_error}; a request while the key's first request is still
 * executing is {@code 409 idempotency_key_in_use}. Validation failures, 409 and 429 are
 * not saved (https://docs.stripe.com/api/idempotent_requests). A 409 does not say whether
 * the executing request will charge: that is for a retry or a lookup to learn.</li>
 * <li>Test payment methods: {@code pm_card_chargeDeclined} declines with
 * {@code generic_decline}, {@code pm_card_chargeDeclinedInsufficientFunds} with
 * {@code insufficient_funds} (402 {@code card_error}, a PaymentIntent in
 * {@code requires_payment_method}); any other {@code pm_} token is charged
 * (https://docs.stripe.com/testing#declined-payments).</li>
 * <li>{@code GET /v1/payment_intents/search}: by {@code metadata['key']:'value'}, and
 * eventually consistent: an intent is searchable {@code searchLag} after it was created
 * ("Don't use search for read-after-write flows [...] Propagation of new or updated data
 * could be delayed during an outage", https://docs.stripe.com/search#data-freshness); the
 * lag is a parameter ({@link #searchLag(Duration)}), and may be longer than any window
 * Payonce waits. {@code GET /v1/payment_intents/{id}} reads an intent at once.</li>
 * <li>{@code GET /v1/payment_intents}: consistent (the list APIs "aren't subject to the
 * availability delay", same page), filtered by {@code created[gte|gt|lte|lt]} in Unix
 * seconds, newest first, {@code limit} 1 to 100 (default 10), paginated by
 * {@code starting_after} with {@code has_more}
 * (https://docs.stripe.com/api/payment_intents/list,
 * https://docs.stripe.com/api/pagination). {@code created} is read from the model's own
 * clock ({@link #clock(Clock)}).</li>
 * <li>Amounts Stripe refuses for good, answered {@code 400 invalid_request_error} and not
 * saved: below the minimum charge amount (50 minor units, as for USD and EUR) is
 * {@code amount_too_small}, more than eight digits is {@code amount_too_large}
 * (https://docs.stripe.com/currencies#minimum-and-maximum-charge-amounts); a payment
 * method that is not a {@code pm_} token is {@code resource_missing} of
 * {@code payment_method} (https://docs.stripe.com/error-codes).</li>
 * <li>{@code capture_method=manual} on a create places a hold: the PaymentIntent is
 * {@code requires_capture}, all of its amount capturable
 * (https://docs.stripe.com/payments/place-a-hold-on-a-payment-method). {@code POST
 * /v1/payment_intents/{id}/capture} and {@code .../cancel} are idempotent as a create
 * (same key and parameters: the saved answer; other parameters:
 * {@code 400 idempotency_error}, https://docs.stripe.com/api/idempotent_requests). A
 * capture takes at most {@code amount_capturable} of a {@code requires_capture}
 * PaymentIntent, once, or with multicapture up to 50 times while {@code final_capture} is
 * false (https://docs.stripe.com/api/payment_intents/capture,
 * https://docs.stripe.com/payments/multicapture); a cancel moves
 * {@code requires_payment_method}, {@code requires_capture},
 * {@code requires_confirmation}, {@code requires_action} or {@code processing} to
 * {@code canceled} and refuses any other status with {@code 400
 * payment_intent_unexpected_state} (https://docs.stripe.com/api/payment_intents/cancel).
 * Faults for both are planned per PaymentIntent ({@link #planHold}).</li>
 * <li>{@code POST /v1/refunds} of a PaymentIntent, with the same idempotency semantics as
 * a create (a saved 500 included); a refund over what is left of the intent (refunds made
 * outside Payonce count, {@link #refundOutsidePayonce}; without an amount, all that is
 * left is refunded) is {@code 400 amount_too_large}, of a fully refunded intent
 * {@code 400 charge_already_refunded}, and a refund of a disputed intent
 * ({@link #dispute}) {@code 400 charge_disputed}, none of them saved
 * (https://docs.stripe.com/error-codes). {@code GET /v1/refunds?payment_intent=} lists an
 * intent's refunds at once (a list reads Stripe's own writes).</li>
 * <li>Amounts, for creates and refunds alike, follow Stripe's currency table
 * (https://docs.stripe.com/currencies): {@code amount} is in Stripe's units, not ISO
 * 4217's; an ISK or UGX amount not divisible by 100 is
 * {@code 400 invalid_charge_amount_no_decimal_compatible} (Stripe's support note on
 * fractional ISK), a BHD, JOD, KWD, OMR or TND amount whose last digit is not 0 is
 * {@code 400 invalid_request_error} on {@code amount} (the page documents the rule, not
 * the code), and an amount of more than eight digits (twelve for IDR) is
 * {@code 400 amount_too_large}; none of these is saved under the key.</li>
 * </ul>
 * Faults are planned per order id (the PaymentIntent's description) for charges and per
 * PaymentIntent id for refunds, one per create call, or drawn at random for a soak
 * ({@link #randomFaults}).
 */
public final class StripeApiModel implements ResponseDefinitionTransformerV2 {

	/** What one create call meets. */
	public enum StripeFault {

		/** Served normally. */
		NONE,
		/** 429 before anything is done; not saved. */
		RATE_LIMITED,
		/** 409 idempotency_key_in_use, as if a request with the key were executing. */
		KEY_IN_USE,
		/** The connection is reset before Stripe reads the request: nothing done. */
		RESET_BEFORE,
		/** Execution began and failed: a 500 saved under the key, nothing charged. */
		SERVER_ERROR_SAVED,
		/** Charged, then failed: a 500 saved under the key while the charge exists. */
		SERVER_ERROR_AFTER_CHARGE,
		/**
		 * Charged, then failed: a 500 saved under the key whose error carries the
		 * PaymentIntent (for a refund: as {@link #SERVER_ERROR_AFTER_CHARGE}).
		 */
		SERVER_ERROR_NAMING_INTENT,
		/** Charged and saved, but the answer comes after the client's read timeout. */
		TIMEOUT_AFTER_CHARGE,
		/** Charged and saved, then the connection is reset before the answer. */
		RESET_AFTER_CHARGE,
		/**
		 * Charged and saved, and the answer takes a minute: long enough to kill the
		 * caller while it waits. Never drawn at random.
		 */
		HANG_AFTER_CHARGE,
		/**
		 * The key was already used with other parameters (a bug): 400 idempotency_error
		 * now and for every later request with the key. Never drawn at random.
		 */
		PARAMETER_MISMATCH,
		/**
		 * The PaymentIntent is created {@code processing} and that 200 saved; it stays so
		 * until {@link StripeApiModel#completeIntent}. Never drawn at random (for a
		 * refund: as {@link #NONE}).
		 */
		PROCESSING

	}

	/** The faults a soak draws from: each one a network or Stripe can cause. */
	public static final List<StripeFault> RANDOM_FAULTS = List.of(StripeFault.RATE_LIMITED, StripeFault.KEY_IN_USE,
			StripeFault.RESET_BEFORE, StripeFault.SERVER_ERROR_SAVED, StripeFault.SERVER_ERROR_AFTER_CHARGE,
			StripeFault.SERVER_ERROR_NAMING_INTENT, StripeFault.TIMEOUT_AFTER_CHARGE, StripeFault.RESET_AFTER_CHARGE);

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final Pattern SEARCH = Pattern.compile("metadata\\['([^']+)'\\]:'([^']*)'");

	private static final Pattern RETRIEVE = Pattern.compile("/v1/payment_intents/(pi_[A-Za-z0-9]+)");

	private static final Pattern CANCEL = Pattern.compile("/v1/payment_intents/(pi_[A-Za-z0-9]+)/cancel");

	private static final Pattern CAPTURE = Pattern.compile("/v1/payment_intents/(pi_[A-Za-z0-9]+)/capture");

	/** The statuses a PaymentIntent can be canceled from (Stripe's cancel page). */
	private static final List<String> CANCELABLE = List.of("requires_payment_method", "requires_capture",
			"requires_confirmation", "requires_action", "processing");

	private final WireMockServer server;

	private final Map<String, SavedRequest> keys = new HashMap<>();

	private final List<Intent> intents = new ArrayList<>();

	private final List<RefundEntry> refunds = new ArrayList<>();

	private final Map<String, Deque<StripeFault>> plans = new HashMap<>();

	private final Map<String, Deque<StripeFault>> holdPlans = new HashMap<>();

	/** The amounts each PaymentIntent's captures took, in Stripe's units, in order. */
	private final Map<String, List<Long>> captures = new HashMap<>();

	/** How often each PaymentIntent was canceled (at most once: Stripe refuses more). */
	private final Map<String, Integer> cancels = new HashMap<>();

	private volatile boolean multicapture;

	private volatile Duration holdWindow = Duration.ofDays(7);

	private final List<String> createKeys = new ArrayList<>();

	private final List<String> searchedPaymentIds = new ArrayList<>();

	private final List<String> retrievedIntents = new ArrayList<>();

	/**
	 * Ids unique across every model in the test JVM, as Stripe's are: the test classes
	 * share one database, so two models must never hand out the same {@code pi_} id.
	 */
	private static final AtomicLong IDS = new AtomicLong();

	private volatile Duration searchLag;

	private volatile Clock clock = Clock.systemUTC();

	private volatile boolean listFails;

	private final List<String> listCursors = new ArrayList<>();

	private final List<String> disputed = new ArrayList<>();

	private final int timeoutDelayMillis;

	private double randomFaultRate;

	private final Map<StripeFault, AtomicLong> faultsMet = new ConcurrentHashMap<>();

	private final AtomicReference<@Nullable CountDownLatch> executionGate = new AtomicReference<>();

	private final CountDownLatch executing = new CountDownLatch(1);

	public StripeApiModel(Duration searchLag, Duration timeoutDelay) {
		this.searchLag = searchLag;
		this.timeoutDelayMillis = Math.toIntExact(timeoutDelay.toMillis());
		this.server = new WireMockServer(
				WireMockConfiguration.options().dynamicPort().containerThreads(64).extensions(this));
		this.server.start();
		this.server.stubFor(WireMock.any(WireMock.anyUrl()).willReturn(WireMock.aResponse().withStatus(500)));
	}

	/** Where the model listens, for {@code payonce.gateway.stripe.api-base}. */
	public String baseUrl() {
		return this.server.baseUrl();
	}

	public void shutdown() {
		this.server.stop();
	}

	@Override
	public String getName() {
		return "stripe-api-model";
	}

	/** The next create calls for this order id meet these faults, in order. */
	public synchronized void plan(String orderId, StripeFault... faults) {
		this.plans.computeIfAbsent(orderId, (id) -> new ArrayDeque<>()).addAll(List.of(faults));
	}

	/** Every create call without a planned fault meets a random fault with this rate. */
	public synchronized void randomFaults(double rate) {
		this.randomFaultRate = rate;
	}

	/** PaymentIntents whose metadata names this payment id, whatever their status. */
	public synchronized List<Intent> intentsOf(String paymentId) {
		return this.intents.stream().filter((intent) -> paymentId.equals(intent.paymentId())).toList();
	}

	/**
	 * This model's objects as a history's end state: a payment's charged PaymentIntents,
	 * a refund's Stripe refunds (by the Payonce refund id in their metadata), and what
	 * was refunded of a payment's PaymentIntents.
	 */
	public ProviderLedger ledger() {
		return new ProviderLedger() {

			@Override
			public long charges(String paymentId) {
				return chargesOf(paymentId);
			}

			@Override
			public long refunds(String refundId) {
				return allRefunds().stream().filter((refund) -> refundId.equals(refund.refundId())).count();
			}

			@Override
			public long refunded(String paymentId) {
				return intentsOf(paymentId).stream()
					.flatMap((intent) -> refundsOf(intent.id()).stream())
					.mapToLong(RefundEntry::amount)
					.sum();
			}

		};
	}

	/** Charged (succeeded) PaymentIntents of this payment id. */
	public synchronized long chargesOf(String paymentId) {
		return intentsOf(paymentId).stream().filter((intent) -> "succeeded".equals(intent.status())).count();
	}

	/**
	 * From now on, a create call that begins executing waits until the returned latch is
	 * counted down, its key marked as executing meanwhile: a second request with the key
	 * then meets Stripe's {@code 409 idempotency_key_in_use}.
	 */
	CountDownLatch holdExecution() {
		CountDownLatch gate = new CountDownLatch(1);
		this.executionGate.set(gate);
		return gate;
	}

	/** Waits until a create call is executing under {@link #holdExecution()}. */
	boolean awaitExecuting(Duration timeout) throws InterruptedException {
		return this.executing.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
	}

	/** How many create calls met each fault. */
	public Map<StripeFault, Long> faultsMet() {
		Map<StripeFault, Long> met = new TreeMap<>();
		this.faultsMet.forEach((fault, count) -> met.put(fault, count.get()));
		return met;
	}

	/**
	 * A refund made outside Payonce, as in Stripe's Dashboard: no
	 * {@code payonce_refund_id} metadata, and only within what is left of the intent
	 * (Stripe refuses more).
	 * @return the refund, {@code succeeded}
	 * @throws IllegalStateException if more than what is left
	 */
	synchronized RefundEntry refundOutsidePayonce(String intentId, long amount) {
		Intent intent = this.intents.stream()
			.filter((candidate) -> candidate.id().equals(intentId))
			.findFirst()
			.orElseThrow();
		long refunded = refundsOf(intentId).stream().mapToLong(RefundEntry::amount).sum();
		if (amount > intent.amount() - refunded) {
			throw new IllegalStateException("Stripe refuses a refund of " + amount + ": only "
					+ (intent.amount() - refunded) + " is left of " + intentId);
		}
		RefundEntry refund = new RefundEntry("re_" + Long.toString(1_000_000 + IDS.incrementAndGet(), 36), intentId,
				null, amount, intent.currency(), "requested_by_customer", this.clock.instant());
		this.refunds.add(refund);
		return refund;
	}

	/**
	 * The Charge of a PaymentIntent as a {@code charge.refunded} event carries it with
	 * API versions since 2022-11-15 (https://docs.stripe.com/upgrades#2022-11-15): the
	 * cumulative {@code amount_refunded}, and no {@code refunds} list, which is no longer
	 * included unless expanded (https://docs.stripe.com/api/charges/object).
	 */
	synchronized Map<String, Object> chargeOf(String intentId) {
		Intent intent = this.intents.stream()
			.filter((candidate) -> candidate.id().equals(intentId))
			.findFirst()
			.orElseThrow();
		long refunded = refundsOf(intentId).stream().mapToLong(RefundEntry::amount).sum();
		Map<String, Object> json = new LinkedHashMap<>();
		json.put("id", "ch_" + intentId.substring(3));
		json.put("object", "charge");
		json.put("amount", intent.amount());
		json.put("amount_captured", intent.amountReceived());
		json.put("captured", intent.amountReceived() > 0);
		json.put("amount_refunded", refunded);
		json.put("currency", intent.currency());
		json.put("livemode", false);
		json.put("paid", true);
		json.put("payment_intent", intentId);
		json.put("refunded", refunded == intent.amount());
		json.put("status", "succeeded");
		json.put("metadata", Map.of());
		return json;
	}

	/**
	 * A refund that failed at Stripe after it succeeded
	 * (https://docs.stripe.com/refunds#failed-refunds): its amount is back on the charge,
	 * so it no longer counts against what is left.
	 */
	synchronized void forgetRefund(String refundId) {
		this.refunds.removeIf((refund) -> refund.id().equals(refundId));
	}

	/** Refunds (succeeded) of this PaymentIntent. */
	public synchronized List<RefundEntry> refundsOf(String intentId) {
		return this.refunds.stream().filter((refund) -> refund.intentId().equals(intentId)).toList();
	}

	/** Every refund the model holds. */
	public synchronized List<RefundEntry> allRefunds() {
		return List.copyOf(this.refunds);
	}

	/** Every PaymentIntent the model holds. */
	public synchronized List<Intent> allIntents() {
		return List.copyOf(this.intents);
	}

	/** The payment ids of every PaymentIntent search received, in order. */
	synchronized List<String> searchedPaymentIds() {
		return List.copyOf(this.searchedPaymentIds);
	}

	/** The ids of every PaymentIntent retrieved by id, in order. */
	synchronized List<String> retrievedIntents() {
		return List.copyOf(this.retrievedIntents);
	}

	/**
	 * Moves a PaymentIntent to a new status, as Stripe does when a {@code processing}
	 * payment completes. What was saved under its key stays as it was.
	 */
	synchronized void completeIntent(String intentId, String status) {
		for (int i = 0; i < this.intents.size(); i++) {
			Intent intent = this.intents.get(i);
			if (intent.id().equals(intentId)) {
				this.intents.set(i, intent.withStatus(status));
			}
		}
	}

	/** The idempotency keys of every create call received, in order. */
	public synchronized List<String> createKeys() {
		return List.copyOf(this.createKeys);
	}

	/** From now on, a PaymentIntent is searchable this long after it was created. */
	void searchLag(Duration lag) {
		this.searchLag = lag;
	}

	/** The clock Stripe stamps {@code created} with, and search lag is measured by. */
	void clock(Clock clock) {
		this.clock = clock;
	}

	/** From now on, every list of PaymentIntents fails with a 500 (or works again). */
	void failLists(boolean fails) {
		this.listFails = fails;
	}

	/**
	 * The {@code starting_after} cursor of every list of PaymentIntents received, in
	 * order ({@code ""} for a first page).
	 */
	synchronized List<String> listCursors() {
		return List.copyOf(this.listCursors);
	}

	/**
	 * Creates PaymentIntents of other payments (another client's, a Dashboard charge)
	 * directly, as if made now: succeeded, without Payonce's metadata.
	 */
	synchronized void createForeignIntents(int count) {
		for (int i = 0; i < count; i++) {
			this.intents.add(new Intent(nextIntentId(), null, 100, "usd", "succeeded", null, this.clock.instant()));
		}
	}

	/**
	 * Creates a PaymentIntent for a payment directly, as a create under another key (a
	 * bug, or a request Stripe executed late) would have; its id.
	 */
	synchronized String createIntentFor(String paymentId, long amount, String status) {
		Intent intent = new Intent(nextIntentId(), paymentId, amount, "eur", status, null, this.clock.instant());
		this.intents.add(intent);
		return intent.id();
	}

	/**
	 * Creates a refund carrying a Payonce refund id directly, as a refund under another
	 * key would have.
	 */
	synchronized void createRefundFor(String intentId, String refundId, long amount) {
		this.refunds.add(new RefundEntry("re_" + Long.toString(1_000_000 + IDS.incrementAndGet(), 36), intentId,
				refundId, amount, "eur", null, this.clock.instant()));
	}

	/**
	 * The customer disputed this PaymentIntent's charge: Stripe refuses refunds of it.
	 */
	synchronized void dispute(String intentId) {
		this.disputed.add(intentId);
	}

	private String nextIntentId() {
		return "pi_" + Long.toString(1_000_000 + IDS.incrementAndGet(), 36);
	}

	@Override
	public ResponseDefinition transform(ServeEvent event) {
		Request request = event.getRequest();
		String path = request.getUrl().split("\\?", 2)[0];
		if (request.getMethod().equals(RequestMethod.POST) && path.equals("/v1/payment_intents")) {
			return create(request);
		}
		if (request.getMethod().equals(RequestMethod.POST) && path.equals("/v1/refunds")) {
			return createRefund(request);
		}
		if (request.getMethod().equals(RequestMethod.GET) && path.equals("/v1/refunds")) {
			return listRefunds(request.queryParameter("payment_intent").firstValue());
		}
		if (request.getMethod().equals(RequestMethod.GET) && path.equals("/v1/payment_intents")) {
			String url = request.getUrl();
			return listIntents(form(url.contains("?") ? url.substring(url.indexOf('?') + 1) : ""));
		}
		if (request.getMethod().equals(RequestMethod.GET) && path.equals("/v1/payment_intents/search")) {
			return search(request.queryParameter("query").firstValue());
		}
		Matcher cancel = CANCEL.matcher(path);
		if (request.getMethod().equals(RequestMethod.POST) && cancel.matches()) {
			Map<String, String> params = form(request.getBodyAsString());
			params.put("intent", cancel.group(1));
			params.put("endpoint", "cancel");
			return idempotent(request, params, nextHoldFault(cancel.group(1)), this::executeCancel);
		}
		Matcher capture = CAPTURE.matcher(path);
		if (request.getMethod().equals(RequestMethod.POST) && capture.matches()) {
			Map<String, String> params = form(request.getBodyAsString());
			params.put("intent", capture.group(1));
			params.put("endpoint", "capture");
			return idempotent(request, params, nextHoldFault(capture.group(1)), this::executeCapture);
		}
		Matcher retrieve = RETRIEVE.matcher(path);
		if (request.getMethod().equals(RequestMethod.GET) && retrieve.matches()) {
			return retrieve(retrieve.group(1));
		}
		return error(404, "invalid_request_error", "resource_missing", null).build();
	}

	private ResponseDefinition create(Request request) {
		Map<String, String> params = form(request.getBodyAsString());
		return idempotent(request, params, nextFault(params.getOrDefault("description", "")), this::execute);
	}

	private ResponseDefinition createRefund(Request request) {
		Map<String, String> params = form(request.getBodyAsString());
		return idempotent(request, params, nextFault(params.getOrDefault("payment_intent", "")), this::executeRefund);
	}

	/**
	 * Stripe's idempotency layer around one executing endpoint: the first request with a
	 * key executes and its answer is saved; later ones get the saved answer.
	 */
	private ResponseDefinition idempotent(Request request, Map<String, String> params, StripeFault fault,
			java.util.function.BiFunction<Map<String, String>, StripeFault, SavedRequest> executor) {
		String key = request.getHeader("Idempotency-Key");
		synchronized (this) {
			this.createKeys.add(key);
		}
		if (fault == StripeFault.RATE_LIMITED) {
			return error(429, "invalid_request_error", "rate_limit", null).build();
		}
		if (fault == StripeFault.KEY_IN_USE) {
			return error(409, "idempotency_error", "idempotency_key_in_use", null).build();
		}
		if (fault == StripeFault.RESET_BEFORE) {
			return new ResponseDefinitionBuilder().withFault(Fault.CONNECTION_RESET_BY_PEER).build();
		}
		SavedRequest saved;
		synchronized (this) {
			SavedRequest existing = this.keys.get(key);
			if (existing == null && fault == StripeFault.PARAMETER_MISMATCH) {
				Map<String, String> other = new TreeMap<>(params);
				other.put("amount", "1");
				existing = new SavedRequest(other, 500, apiError(), false);
				this.keys.put(key, existing);
			}
			if (existing != null) {
				if (!existing.params().equals(params)) {
					return error(400, "idempotency_error", null, null).build();
				}
				if (existing.executing()) {
					return error(409, "idempotency_error", "idempotency_key_in_use", null).build();
				}
				return replay(existing, fault);
			}
			this.keys.put(key, new SavedRequest(params, 0, "", true));
		}
		// The endpoint executes: from here on, its answer is saved under the key.
		CountDownLatch gate = this.executionGate.getAndSet(null);
		if (gate != null) {
			this.executing.countDown();
			try {
				gate.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		SavedRequest answer = executor.apply(params, fault);
		synchronized (this) {
			if (answer.status() == 400) {
				// A validation failure is not saved: the key is free again.
				this.keys.remove(key);
			}
			else {
				this.keys.put(key, answer);
			}
		}
		return deliver(new ResponseDefinitionBuilder().withStatus(answer.status())
			.withHeader("Content-Type", "application/json")
			.withHeader("Idempotency-Key", key)
			.withBody(answer.body()), fault);
	}

	private SavedRequest execute(Map<String, String> params, StripeFault fault) {
		SavedRequest refused = amountRefusal(params, Long.parseLong(params.getOrDefault("amount", "0")),
				params.getOrDefault("currency", ""));
		if (refused != null) {
			return refused;
		}
		if (fault == StripeFault.SERVER_ERROR_SAVED) {
			return new SavedRequest(params, 500, apiError(), false);
		}
		String method = params.getOrDefault("payment_method", "");
		long amount = Long.parseLong(params.getOrDefault("amount", "0"));
		if (amount < 50 || amount > 99_999_999) {
			return new SavedRequest(params, 400,
					errorBody("invalid_request_error", (amount < 50) ? "amount_too_small" : "amount_too_large"), false);
		}
		if (!method.startsWith("pm_")) {
			return new SavedRequest(params, 400,
					JSON.writeValueAsString(Map.of("error", Map.of("type", "invalid_request_error", "code",
							"resource_missing", "param", "payment_method", "message", "Modelled"))),
					false);
		}
		String declineCode = switch (method) {
			case "pm_card_chargeDeclined" -> "generic_decline";
			case "pm_card_chargeDeclinedInsufficientFunds" -> "insufficient_funds";
			default -> null;
		};
		boolean manual = "manual".equals(params.get("capture_method"));
		String status = (declineCode != null) ? "requires_payment_method"
				: (fault == StripeFault.PROCESSING) ? "processing" : manual ? "requires_capture" : "succeeded";
		Intent intent = new Intent(nextIntentId(), params.get("metadata[payonce_payment_id]"), amount,
				params.get("currency"), status, declineCode, this.clock.instant(), manual ? "manual" : "automatic",
				"requires_capture".equals(status) ? amount : 0, "succeeded".equals(status) ? amount : 0);
		synchronized (this) {
			this.intents.add(intent);
		}
		if (fault == StripeFault.SERVER_ERROR_AFTER_CHARGE) {
			return new SavedRequest(params, 500, apiError(), false);
		}
		if (fault == StripeFault.SERVER_ERROR_NAMING_INTENT) {
			return new SavedRequest(params, 500, JSON.writeValueAsString(Map.of("error", Map.of("type", "api_error",
					"message", "An unknown error occurred on Stripe's side.", "payment_intent", intent.json()))),
					false);
		}
		if (declineCode != null) {
			Map<String, Object> error = new LinkedHashMap<>();
			error.put("type", "card_error");
			error.put("code", "card_declined");
			error.put("decline_code", declineCode);
			error.put("message", "Your card was declined.");
			error.put("payment_intent", intent.json());
			return new SavedRequest(params, 402, JSON.writeValueAsString(Map.of("error", error)), false);
		}
		Map<String, Object> body = intent.json();
		if ("latest_charge".equals(params.get("expand[0]")) && intent.latestCharge() != null) {
			// An expanded Charge of a hold says when it lapses
			// (https://docs.stripe.com/api/charges/object#charge_object-payment_method_details-card-capture_before).
			body.put("latest_charge", Map.of("id", intent.latestCharge(), "object", "charge", "payment_intent",
					intent.id(), "payment_method_details", Map.of("type", "card", "card",
							Map.of("capture_before", intent.createdAt().plus(this.holdWindow).getEpochSecond()))));
		}
		return new SavedRequest(params, 200, JSON.writeValueAsString(body), false);
	}

	private SavedRequest executeRefund(Map<String, String> params, StripeFault fault) {
		String intentId = params.getOrDefault("payment_intent", "");
		RefundEntry refund;
		synchronized (this) {
			Optional<Intent> intent = this.intents.stream()
				.filter((candidate) -> candidate.id().equals(intentId))
				.findFirst();
			if (intent.isEmpty() || !"succeeded".equals(intent.get().status())) {
				return new SavedRequest(params, 400, errorBody("invalid_request_error", "resource_missing"), false);
			}
			long refunded = this.refunds.stream()
				.filter((entry) -> entry.intentId().equals(intentId))
				.mapToLong(RefundEntry::amount)
				.sum();
			if (this.disputed.contains(intentId)) {
				return new SavedRequest(params, 400, errorBody("invalid_request_error", "charge_disputed"), false);
			}
			long left = intent.get().amount() - refunded;
			if (left == 0) {
				return new SavedRequest(params, 400, errorBody("invalid_request_error", "charge_already_refunded"),
						false);
			}
			long amount = params.containsKey("amount") ? Long.parseLong(params.get("amount")) : left;
			SavedRequest refused = amountRefusal(params, amount, intent.get().currency());
			if (refused != null) {
				return refused;
			}
			if (amount <= 0 || amount > left) {
				return new SavedRequest(params, 400, errorBody("invalid_request_error", "amount_too_large"), false);
			}
			if (fault == StripeFault.SERVER_ERROR_SAVED) {
				return new SavedRequest(params, 500, apiError(), false);
			}
			refund = new RefundEntry("re_" + Long.toString(1_000_000 + IDS.incrementAndGet(), 36), intentId,
					params.get("metadata[payonce_refund_id]"), amount, intent.get().currency(), params.get("reason"),
					this.clock.instant());
			this.refunds.add(refund);
		}
		if (fault == StripeFault.SERVER_ERROR_AFTER_CHARGE || fault == StripeFault.SERVER_ERROR_NAMING_INTENT) {
			return new SavedRequest(params, 500, apiError(), false);
		}
		return new SavedRequest(params, 200, JSON.writeValueAsString(refund.json()), false);
	}

	/**
	 * Cancels a PaymentIntent: only from {@code requires_payment_method},
	 * {@code requires_capture}, {@code requires_confirmation}, {@code requires_action} or
	 * {@code processing}; a hold's {@code amount_capturable} is released; from
	 * {@code succeeded} or {@code canceled} it is {@code 400
	 * payment_intent_unexpected_state}
	 * (https://docs.stripe.com/api/payment_intents/cancel,
	 * https://docs.stripe.com/error-codes).
	 */
	private SavedRequest executeCancel(Map<String, String> params, StripeFault fault) {
		if (fault == StripeFault.SERVER_ERROR_SAVED) {
			return new SavedRequest(params, 500, apiError(), false);
		}
		synchronized (this) {
			for (int i = 0; i < this.intents.size(); i++) {
				Intent intent = this.intents.get(i);
				if (intent.id().equals(params.get("intent"))) {
					if (!CANCELABLE.contains(intent.status())) {
						return new SavedRequest(params, 400,
								errorBody("invalid_request_error", "payment_intent_unexpected_state"), false);
					}
					Intent canceled = intent.withHold("canceled", 0, intent.amountReceived());
					this.intents.set(i, canceled);
					this.cancels.merge(intent.id(), 1, Integer::sum);
					if (fault == StripeFault.SERVER_ERROR_AFTER_CHARGE) {
						return new SavedRequest(params, 500, apiError(), false);
					}
					return new SavedRequest(params, 200, JSON.writeValueAsString(canceled.json()), false);
				}
			}
		}
		return new SavedRequest(params, 404, errorBody("invalid_request_error", "resource_missing"), false);
	}

	/**
	 * Captures a hold (https://docs.stripe.com/api/payment_intents/capture): only a
	 * {@code requires_capture} PaymentIntent ({@code 400 payment_intent_unexpected_state}
	 * otherwise); {@code amount_to_capture} defaults to all of {@code amount_capturable}
	 * and may not exceed it ({@code 400 amount_too_large}). {@code final_capture}
	 * defaults to true: the PaymentIntent is {@code succeeded} and the rest released.
	 * Only with multicapture ({@link #multicapture}) may it be false, which keeps the
	 * rest capturable, up to 50 captures of one PaymentIntent
	 * (https://docs.stripe.com/payments/multicapture); without it, {@code 400}.
	 */
	private SavedRequest executeCapture(Map<String, String> params, StripeFault fault) {
		if (fault == StripeFault.SERVER_ERROR_SAVED) {
			return new SavedRequest(params, 500, apiError(), false);
		}
		Intent captured;
		synchronized (this) {
			int index = -1;
			for (int i = 0; i < this.intents.size(); i++) {
				if (this.intents.get(i).id().equals(params.get("intent"))) {
					index = i;
				}
			}
			if (index < 0) {
				return new SavedRequest(params, 404, errorBody("invalid_request_error", "resource_missing"), false);
			}
			Intent intent = this.intents.get(index);
			boolean keepsTheRest = "false".equals(params.get("final_capture"));
			if (keepsTheRest && !this.multicapture) {
				return new SavedRequest(params, 400, errorBody("invalid_request_error", "parameter_invalid_boolean"),
						false);
			}
			List<Long> earlier = this.captures.getOrDefault(intent.id(), List.of());
			if (!"requires_capture".equals(intent.status()) || earlier.size() >= 50) {
				return new SavedRequest(params, 400,
						errorBody("invalid_request_error", "payment_intent_unexpected_state"), false);
			}
			long amount = params.containsKey("amount_to_capture") ? Long.parseLong(params.get("amount_to_capture"))
					: intent.amountCapturable();
			if (amount < 1 || amount > intent.amountCapturable()) {
				return new SavedRequest(params, 400, errorBody("invalid_request_error", "amount_too_large"), false);
			}
			long capturable = keepsTheRest ? intent.amountCapturable() - amount : 0;
			captured = intent.withHold((capturable == 0) ? "succeeded" : "requires_capture", capturable,
					intent.amountReceived() + amount);
			this.intents.set(index, captured);
			List<Long> amounts = new ArrayList<>(earlier);
			amounts.add(amount);
			this.captures.put(intent.id(), List.copyOf(amounts));
		}
		if (fault == StripeFault.SERVER_ERROR_AFTER_CHARGE || fault == StripeFault.SERVER_ERROR_NAMING_INTENT) {
			return new SavedRequest(params, 500, apiError(), false);
		}
		return new SavedRequest(params, 200, JSON.writeValueAsString(captured.json()), false);
	}

	/**
	 * Stripe's refusal of an amount its currency table does not allow
	 * (https://docs.stripe.com/currencies), written here apart from the adapter's
	 * {@code StripeAmounts} so that a regression there meets Stripe's rules, not its own.
	 * Not saved under the key: a validation failure.
	 */
	private static @Nullable SavedRequest amountRefusal(Map<String, String> params, long amount, String currency) {
		String code = currency.toUpperCase(java.util.Locale.ROOT);
		if ((code.equals("ISK") || code.equals("UGX")) && amount % 100 != 0) {
			return new SavedRequest(params, 400,
					errorBody("invalid_request_error", "invalid_charge_amount_no_decimal_compatible"), false);
		}
		if (List.of("BHD", "JOD", "KWD", "OMR", "TND").contains(code) && amount % 10 != 0) {
			return new SavedRequest(params, 400, JSON.writeValueAsString(Map.of("error", Map.of("type",
					"invalid_request_error", "param", "amount", "message", "Modelled: the last digit must be 0"))),
					false);
		}
		if (amount > (code.equals("IDR") ? 999_999_999_999L : 99_999_999L)) {
			return new SavedRequest(params, 400, errorBody("invalid_request_error", "amount_too_large"), false);
		}
		return null;
	}

	private static String errorBody(String type, String code) {
		return JSON.writeValueAsString(Map.of("error", Map.of("type", type, "code", code, "message", "Modelled")));
	}

	private ResponseDefinition listRefunds(@Nullable String intentId) {
		List<Map<String, Object>> found;
		synchronized (this) {
			found = this.refunds.stream()
				.filter((refund) -> refund.intentId().equals(intentId))
				.map(RefundEntry::json)
				.toList();
		}
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("object", "list");
		result.put("url", "/v1/refunds");
		result.put("has_more", false);
		result.put("data", found);
		return json(200, result);
	}

	private ResponseDefinition replay(SavedRequest saved, StripeFault fault) {
		return deliver(new ResponseDefinitionBuilder().withStatus(saved.status())
			.withHeader("Content-Type", "application/json")
			.withHeader("Idempotent-Replayed", "true")
			.withBody(saved.body()), fault);
	}

	/** The network between the model and the client: on time, late or cut. */
	private ResponseDefinition deliver(ResponseDefinitionBuilder response, StripeFault fault) {
		if (fault == StripeFault.TIMEOUT_AFTER_CHARGE) {
			return response.withFixedDelay(this.timeoutDelayMillis).build();
		}
		if (fault == StripeFault.RESET_AFTER_CHARGE) {
			return new ResponseDefinitionBuilder().withFault(Fault.CONNECTION_RESET_BY_PEER).build();
		}
		if (fault == StripeFault.HANG_AFTER_CHARGE) {
			return response.withFixedDelay(60_000).build();
		}
		return response.build();
	}

	private ResponseDefinition search(@Nullable String query) {
		Matcher matcher = SEARCH.matcher((query != null) ? query : "");
		if (!matcher.matches()) {
			return error(400, "invalid_request_error", "parameter_invalid", "query").build();
		}
		Instant searchable = this.clock.instant().minus(this.searchLag);
		List<Map<String, Object>> found;
		synchronized (this) {
			this.searchedPaymentIds.add(matcher.group(2));
			found = this.intents.stream()
				.filter((intent) -> !intent.createdAt().isAfter(searchable))
				.filter((intent) -> "payonce_payment_id".equals(matcher.group(1))
						&& matcher.group(2).equals(intent.paymentId()))
				.map(Intent::json)
				.toList();
		}
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("object", "search_result");
		result.put("url", "/v1/payment_intents/search");
		result.put("has_more", false);
		result.put("next_page", null);
		result.put("data", found);
		return json(200, result);
	}

	private ResponseDefinition listIntents(Map<String, String> query) {
		synchronized (this) {
			this.listCursors.add(query.getOrDefault("starting_after", ""));
		}
		if (this.listFails) {
			return error(500, "api_error", null, null).build();
		}
		int limit = Integer.parseInt(query.getOrDefault("limit", "10"));
		if (limit < 1 || limit > 100) {
			return error(400, "invalid_request_error", "parameter_invalid_integer", "limit").build();
		}
		List<Intent> window;
		synchronized (this) {
			// Newest first; ids grow with creation, so they order intents created in the
			// same second.
			window = this.intents.stream()
				.filter((intent) -> inCreatedRange(intent.createdAt().getEpochSecond(), query))
				.sorted(Comparator.comparing((Intent intent) -> intent.createdAt().getEpochSecond())
					.thenComparing((Intent intent) -> Long.parseLong(intent.id().substring(3), 36))
					.reversed())
				.toList();
		}
		String after = query.get("starting_after");
		int from = 0;
		if (after != null) {
			from = -1;
			for (int i = 0; i < window.size(); i++) {
				if (window.get(i).id().equals(after)) {
					from = i + 1;
				}
			}
			if (from < 0) {
				return error(400, "invalid_request_error", "resource_missing", "starting_after").build();
			}
		}
		List<Intent> page = window.subList(from, Math.min(window.size(), from + limit));
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("object", "list");
		result.put("url", "/v1/payment_intents");
		result.put("has_more", from + page.size() < window.size());
		result.put("data", page.stream().map(Intent::json).toList());
		return json(200, result);
	}

	private static boolean inCreatedRange(long created, Map<String, String> query) {
		return bound(query, "created[gte]").map((gte) -> created >= gte).orElse(true)
				&& bound(query, "created[gt]").map((gt) -> created > gt).orElse(true)
				&& bound(query, "created[lte]").map((lte) -> created <= lte).orElse(true)
				&& bound(query, "created[lt]").map((lt) -> created < lt).orElse(true);
	}

	private static Optional<Long> bound(Map<String, String> query, String name) {
		return Optional.ofNullable(query.get(name)).map(Long::parseLong);
	}

	private ResponseDefinition retrieve(String id) {
		Optional<Intent> intent;
		synchronized (this) {
			this.retrievedIntents.add(id);
			intent = this.intents.stream().filter((candidate) -> candidate.id().equals(id)).findFirst();
		}
		return intent.map((found) -> json(200, found.json()))
			.orElseGet(() -> error(404, "invalid_request_error", "resource_missing", "intent").build());
	}

	/** The next capture or cancel of this PaymentIntent meets these faults, in order. */
	public synchronized void planHold(String intentId, StripeFault... faults) {
		this.holdPlans.computeIfAbsent(intentId, (id) -> new ArrayDeque<>()).addAll(List.of(faults));
	}

	/**
	 * Whether the account has multicapture
	 * (https://docs.stripe.com/payments/multicapture): only then does a capture with
	 * {@code final_capture=false} keep the rest capturable.
	 */
	public void multicapture(boolean enabled) {
		this.multicapture = enabled;
	}

	/**
	 * How long a hold placed from now on lasts, as its Charge's {@code capture_before}
	 * states it: 7 days for online card payments unless a card brand's window is shorter
	 * (https://docs.stripe.com/payments/place-a-hold-on-a-payment-method).
	 */
	public void holdWindow(Duration window) {
		this.holdWindow = window;
	}

	/** The amounts of every capture Stripe made of this PaymentIntent, in its units. */
	public synchronized List<Long> capturesOf(String intentId) {
		return this.captures.getOrDefault(intentId, List.of());
	}

	/** How often this PaymentIntent was canceled. */
	public synchronized int cancelsOf(String intentId) {
		return this.cancels.getOrDefault(intentId, 0);
	}

	/** A PaymentIntent by id. */
	public synchronized Intent intent(String intentId) {
		return this.intents.stream().filter((intent) -> intent.id().equals(intentId)).findFirst().orElseThrow();
	}

	/** Captures and cancels draw only from their own plan: never a random fault. */
	private synchronized StripeFault nextHoldFault(String intentId) {
		Deque<StripeFault> plan = this.holdPlans.get(intentId);
		return (plan != null && !plan.isEmpty()) ? plan.poll() : StripeFault.NONE;
	}

	private StripeFault nextFault(String orderId) {
		StripeFault fault = drawFault(orderId);
		this.faultsMet.computeIfAbsent(fault, (met) -> new AtomicLong()).incrementAndGet();
		return fault;
	}

	private synchronized StripeFault drawFault(String orderId) {
		Deque<StripeFault> plan = this.plans.get(orderId);
		if (plan != null && !plan.isEmpty()) {
			return plan.poll();
		}
		if (this.randomFaultRate > 0 && ThreadLocalRandom.current().nextDouble() < this.randomFaultRate) {
			return RANDOM_FAULTS.get(ThreadLocalRandom.current().nextInt(RANDOM_FAULTS.size()));
		}
		return StripeFault.NONE;
	}

	private static Map<String, String> form(String body) {
		Map<String, String> params = new TreeMap<>();
		for (String pair : body.split("&")) {
			if (pair.isEmpty()) {
				continue;
			}
			String[] parts = pair.split("=", 2);
			params.put(URLDecoder.decode(parts[0], StandardCharsets.UTF_8),
					(parts.length > 1) ? URLDecoder.decode(parts[1], StandardCharsets.UTF_8) : "");
		}
		return params;
	}

	private static String apiError() {
		return JSON.writeValueAsString(
				Map.of("error", Map.of("type", "api_error", "message", "An unknown error occurred on Stripe's side.")));
	}

	private static ResponseDefinitionBuilder error(int status, String type, @Nullable String code,
			@Nullable String param) {
		Map<String, Object> error = new LinkedHashMap<>();
		error.put("type", type);
		if (code != null) {
			error.put("code", code);
		}
		if (param != null) {
			error.put("param", param);
		}
		error.put("message", "Modelled Stripe error " + status);
		return new ResponseDefinitionBuilder().withStatus(status)
			.withHeader("Content-Type", "application/json")
			.withBody(JSON.writeValueAsString(Map.of("error", error)));
	}

	private static ResponseDefinition json(int status, Object body) {
		return new ResponseDefinitionBuilder().withStatus(status)
			.withHeader("Content-Type", "application/json")
			.withBody(JSON.writeValueAsString(body))
			.build();
	}

	/** A saved answer under an idempotency key, or a request with the key executing. */
	private record SavedRequest(Map<String, String> params, int status, String body, boolean executing) {
	}

	/** A refund the model holds; always {@code succeeded}. */
	public record RefundEntry(String id, String intentId, @Nullable String refundId, long amount, String currency,
			@Nullable String reason, Instant createdAt) {

		Map<String, Object> json() {
			Map<String, Object> json = new LinkedHashMap<>();
			json.put("id", this.id);
			json.put("object", "refund");
			json.put("amount", this.amount);
			json.put("currency", this.currency);
			json.put("status", "succeeded");
			json.put("payment_intent", this.intentId);
			json.put("charge", "ch_" + this.intentId.substring(3));
			json.put("reason", this.reason);
			json.put("created", this.createdAt.getEpochSecond());
			json.put("metadata", (this.refundId != null) ? Map.of("payonce_refund_id", this.refundId) : Map.of());
			return json;
		}

	}

	/**
	 * A PaymentIntent the model holds. A manual one ({@code capture_method=manual}) is
	 * {@code requires_capture} with all of its amount capturable until a capture or a
	 * cancel; {@code amount_received} is what its captures took
	 * (https://docs.stripe.com/api/payment_intents/object).
	 */
	public record Intent(String id, @Nullable String paymentId, long amount, String currency, String status,
			@Nullable String declineCode, Instant createdAt, String captureMethod, long amountCapturable,
			long amountReceived) {

		/** A PaymentIntent captured at once: what it charged is received. */
		public Intent(String id, @Nullable String paymentId, long amount, String currency, String status,
				@Nullable String declineCode, Instant createdAt) {
			this(id, paymentId, amount, currency, status, declineCode, createdAt, "automatic", 0,
					"succeeded".equals(status) ? amount : 0);
		}

		/** The same PaymentIntent in another status, its amounts as they were. */
		Intent withStatus(String newStatus) {
			return new Intent(this.id, this.paymentId, this.amount, this.currency, newStatus, this.declineCode,
					this.createdAt, this.captureMethod, this.amountCapturable,
					("automatic".equals(this.captureMethod) && "succeeded".equals(newStatus)) ? this.amount
							: this.amountReceived);
		}

		/** The same PaymentIntent after a capture or a cancel. */
		Intent withHold(String newStatus, long capturable, long received) {
			return new Intent(this.id, this.paymentId, this.amount, this.currency, newStatus, this.declineCode,
					this.createdAt, this.captureMethod, capturable, received);
		}

		/** The id of its Charge, once a payment method was charged or authorized. */
		@Nullable String latestCharge() {
			boolean charged = "succeeded".equals(this.status) || "requires_capture".equals(this.status)
					|| ("manual".equals(this.captureMethod) && "canceled".equals(this.status));
			return charged ? "ch_" + this.id.substring(3) : null;
		}

		Map<String, Object> json() {
			Map<String, Object> json = new LinkedHashMap<>();
			json.put("id", this.id);
			json.put("object", "payment_intent");
			json.put("amount", this.amount);
			json.put("amount_capturable", this.amountCapturable);
			json.put("amount_received", this.amountReceived);
			json.put("capture_method", this.captureMethod);
			json.put("currency", this.currency);
			json.put("status", this.status);
			json.put("created", this.createdAt.getEpochSecond());
			json.put("latest_charge", latestCharge());
			json.put("livemode", false);
			json.put("metadata", (this.paymentId != null) ? Map.of("payonce_payment_id", this.paymentId) : Map.of());
			if (this.declineCode != null) {
				json.put("last_payment_error",
						Map.of("type", "card_error", "code", "card_declined", "decline_code", this.declineCode));
			}
			return json;
		}

	}

}
