package io.payonce.client;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The library's promise against the real service (the packaged jar, real PostgreSQL, the
 * simulator's ledger) through a {@link FaultProxy}: 1,000 logical payments from 16
 * threads released together, each attempt meeting a fault at random (30 % of answers
 * dropped after the service answered, 10 % of connections reset before the request or in
 * the middle of the answer, 3 % of answers held past the client's attempt timeout), plus
 * 10 payments whose every answer is dropped and 10 whose every connection is reset, so
 * that unknown outcomes of both kinds occur on every run.
 */
class RetryProofIntegrationTests {

	private static final int PAYMENTS = 1_000;

	private static final int THREADS = 16;

	private static final RetryPolicy POLICY = RetryPolicy.defaults()
		.withMaxAttempts(8)
		.withDeadline(Duration.ofSeconds(12))
		.withAttemptTimeout(Duration.ofSeconds(2))
		.withBackoff(Duration.ofMillis(50), Duration.ofMillis(500));

	/** Longer than the attempt timeout: the client has given up when the answer comes. */
	private static final Duration HELD = Duration.ofMillis(2_500);

	@Test
	void everyLogicalPaymentChargesExactlyOnceThroughDroppedResetAndDelayedAnswers() throws Exception {
		PayonceService service = PayonceService.shared();
		String run = "proof-" + UUID.randomUUID().toString().substring(0, 8);
		long seed = Long.getLong("payonce.proof.seed", System.nanoTime());
		System.out.println("Retry proof " + run + ", fault seed " + seed + " (-Dpayonce.proof.seed to repeat)");
		Map<String, Integer> index = new HashMap<>();
		for (int i = 0; i < PAYMENTS; i++) {
			index.put(orderId(run, i), i);
		}
		try (FaultProxy proxy = new FaultProxy(URI.create(service.baseUrl()).getPort(), HELD,
				(request) -> fault(request, index, seed))) {
			AtomicLong finalFourXxRetried = new AtomicLong();
			AtomicLong attempts = new AtomicLong();
			PayonceClient client = PayonceClient.builder(URI.create(proxy.baseUrl()), PayonceService.DEV_KEY)
				.retryPolicy(POLICY)
				.attemptListener((attempt) -> {
					attempts.incrementAndGet();
					int status = attempt.status().orElse(0);
					if (status >= 400 && status < 500 && status != 408 && status != 409 && status != 429
							&& attempt.retried()) {
						finalFourXxRetried.incrementAndGet();
					}
				})
				.build();
			Map<String, IdempotencyKey> orderStore = new ConcurrentHashMap<>();
			Map<String, Call> calls = new ConcurrentHashMap<>();
			AtomicInteger next = new AtomicInteger();
			CountDownLatch start = new CountDownLatch(1);
			List<Thread> threads = new ArrayList<>();
			for (int t = 0; t < THREADS; t++) {
				threads.add(Thread.ofPlatform().start(() -> {
					awaitQuietly(start);
					for (int i = next.getAndIncrement(); i < PAYMENTS; i = next.getAndIncrement()) {
						String orderId = orderId(run, i);
						// Stored with the order before the first attempt, as a merchant
						// would.
						IdempotencyKey key = orderStore.computeIfAbsent(orderId, (order) -> IdempotencyKey.random());
						PaymentRequest request = request(orderId, i);
						long began = System.nanoTime();
						PaymentOutcome outcome = client.payments().create(key, request);
						calls.put(orderId,
								new Call(i, key, request, outcome, Duration.ofNanos(System.nanoTime() - began)));
					}
				}));
			}
			long began = System.nanoTime();

			start.countDown();
			for (Thread thread : threads) {
				thread.join();
			}
			Duration took = Duration.ofNanos(System.nanoTime() - began);

			assertThat(calls).hasSize(PAYMENTS);
			Duration longest = calls.values().stream().map(Call::took).max(Duration::compareTo).orElseThrow();
			assertThat(longest).as("the longest call").isLessThanOrEqualTo(POLICY.deadline().plusSeconds(1));
			Map<String, Long> kinds = calls.values()
				.stream()
				.collect(Collectors.groupingBy((call) -> call.outcome().getClass().getSimpleName(),
						Collectors.counting()));
			for (Call call : calls.values()) {
				switch (call.outcome()) {
					case PaymentOutcome.Approved approved -> {
						assertThat(declines(call.index())).isFalse();
						assertThat(approved.payment().orderId()).isEqualTo(call.request().orderId());
					}
					case PaymentOutcome.Declined declined -> assertThat(declines(call.index())).isTrue();
					case PaymentOutcome.Failed failed -> throw new AssertionError("No payment can fail here");
					case OutcomeUnknown unknown -> assertThat(unknown.key()).isEqualTo(call.key());
				}
			}
			List<Call> unknowns = calls.values()
				.stream()
				.filter((call) -> call.outcome() instanceof OutcomeUnknown)
				.toList();
			assertThat(unknowns).as("the payments whose every attempt failed")
				.extracting(Call::index)
				.containsAll(alwaysFailing());

			// Each unknown outcome, resolved later with the same key on a healthy path.
			PayonceClient healthy = PayonceClient.builder(URI.create(service.baseUrl()), PayonceService.DEV_KEY)
				.build();
			int resolvedAsReplay = 0;
			for (Call call : unknowns) {
				PaymentOutcome resolved = healthy.payments().create(call.key(), call.request());
				OutcomeUnknown unknown = (OutcomeUnknown) call.outcome();
				PaymentId paymentId = switch (resolved) {
					case PaymentOutcome.Approved approved -> approved.payment().id();
					case PaymentOutcome.Declined declined -> declined.paymentId();
					default -> throw new AssertionError("Order " + call.index() + " resolved as " + resolved);
				};
				assertThat(resolved instanceof PaymentOutcome.Declined).isEqualTo(declines(call.index()));
				unknown.paymentId().ifPresent((named) -> assertThat(named).isEqualTo(paymentId));
				resolvedAsReplay += isReplay(resolved) ? 1 : 0;
			}

			String orders = run + "-%";
			long charges = service.count("""
					SELECT count(*) FROM simulated_provider_charges c
					JOIN payments p ON c.provider_idempotency_key = 'payonce-payment-' || p.id
					WHERE p.order_id LIKE ?""", orders);
			long declinedCharges = service.count("""
					SELECT count(*) FROM simulated_provider_charges c
					JOIN payments p ON c.provider_idempotency_key = 'payonce-payment-' || p.id
					WHERE p.order_id LIKE ? AND c.outcome = 'DECLINED'""", orders);
			long payments = service.count("SELECT count(*) FROM payments WHERE order_id LIKE ?", orders);
			long ordersChargedTwice = service.count(
					"""
							SELECT count(*) FROM (SELECT p.order_id FROM payments p
							  JOIN simulated_provider_charges c ON c.provider_idempotency_key LIKE 'payonce-payment-' || p.id || '%'
							  WHERE p.order_id LIKE ? GROUP BY p.order_id HAVING count(*) > 1) twice""",
					orders);
			List<FaultProxy.Exchange> exchanges = proxy.exchanges();
			Map<String, Set<String>> keysPerOrder = new HashMap<>();
			Map<FaultProxy.Fault, Integer> faults = new EnumMap<>(FaultProxy.Fault.class);
			for (FaultProxy.Exchange exchange : exchanges) {
				keysPerOrder.computeIfAbsent(exchange.request().orderId(), (order) -> new HashSet<>())
					.add(exchange.request().key());
				faults.merge(exchange.fault(), 1, Integer::sum);
			}
			long ordersWithAnotherKey = keysPerOrder.values().stream().filter((keys) -> keys.size() != 1).count();
			long finalFourXxRetriedAtProxy = finalClientErrorsRetried(exchanges);
			int mostAttempts = exchanges.stream()
				.collect(Collectors.groupingBy((exchange) -> exchange.request().orderId(), Collectors.counting()))
				.values()
				.stream()
				.mapToInt(Long::intValue)
				.max()
				.orElse(0);

			System.out
				.printf("Retry proof %s: %d payments from %d threads in %.1f s; %d attempts (%d at the proxy: %s); at most %d attempts"
						+ " for one payment; outcomes %s; longest call %d ms (deadline %d ms); %d unknown outcomes resolved"
						+ " with their keys (%d as replays); ledger: %d charges (%d declined) for %d payments; orders"
						+ " charged twice %d; orders sent with more than one key %d; final 4xx retried %d (client) / %d (proxy)%n",
						run, PAYMENTS, THREADS, took.toMillis() / 1000.0, attempts.get(), exchanges.size(), faults,
						mostAttempts, kinds, longest.toMillis(), POLICY.deadline().toMillis(), unknowns.size(),
						resolvedAsReplay, charges, declinedCharges, payments, ordersChargedTwice, ordersWithAnotherKey,
						finalFourXxRetried.get(), finalFourXxRetriedAtProxy);
			assertThat(charges).as("provider charges").isEqualTo(PAYMENTS);
			assertThat(declinedCharges).as("declined charges").isEqualTo(PAYMENTS / 10);
			assertThat(payments).as("payments").isEqualTo(PAYMENTS);
			assertThat(ordersChargedTwice).as("orders charged twice").isZero();
			assertThat(ordersWithAnotherKey).as("orders whose attempts used another key").isZero();
			assertThat(keysPerOrder).as("orders seen at the proxy").hasSize(PAYMENTS);
			assertThat(finalFourXxRetried.get()).as("final 4xx answers retried, counted by the client").isZero();
			assertThat(finalFourXxRetriedAtProxy).as("final 4xx answers retried, counted at the proxy").isZero();
			assertThat(faults).as("every fault met").containsKeys(FaultProxy.Fault.values());
			assertThat(resolvedAsReplay).as("unknown outcomes the service had already settled").isPositive();
		}
	}

	private static FaultProxy.Fault fault(FaultProxy.Request request, Map<String, Integer> index, long seed) {
		Integer i = index.get(request.orderId());
		if (i != null && i % 100 == 0) {
			return FaultProxy.Fault.DROP_RESPONSE;
		}
		if (i != null && i % 100 == 50) {
			return FaultProxy.Fault.RESET_BEFORE;
		}
		double draw = new SplittableRandom(seed ^ (request.sequence() * 0x9E3779B97F4A7C15L)).nextDouble();
		if (draw < 0.30) {
			return FaultProxy.Fault.DROP_RESPONSE;
		}
		if (draw < 0.35) {
			return FaultProxy.Fault.RESET_BEFORE;
		}
		if (draw < 0.40) {
			return FaultProxy.Fault.RESET_AFTER;
		}
		return (draw < 0.43) ? FaultProxy.Fault.DELAY : FaultProxy.Fault.NONE;
	}

	/**
	 * Requests sent again with a key after the client got a final 4xx for it (not 408,
	 * 409 or 429) in full and in time.
	 */
	private static long finalClientErrorsRetried(List<FaultProxy.Exchange> exchanges) {
		Set<String> finished = new HashSet<>();
		long retried = 0;
		for (FaultProxy.Exchange exchange : exchanges) {
			String key = exchange.request().key();
			if (finished.contains(key)) {
				retried++;
			}
			int status = exchange.status();
			if (exchange.delivered() && status >= 400 && status < 500 && status != 408 && status != 409
					&& status != 429) {
				finished.add(key);
			}
		}
		return retried;
	}

	private static Set<Integer> alwaysFailing() {
		Set<Integer> always = new HashSet<>();
		for (int i = 0; i < PAYMENTS; i += 50) {
			always.add(i);
		}
		return always;
	}

	private static boolean isReplay(PaymentOutcome outcome) {
		return switch (outcome) {
			case PaymentOutcome.Approved approved -> approved.replayed();
			case PaymentOutcome.Declined declined -> declined.replayed();
			default -> false;
		};
	}

	private static boolean declines(int i) {
		return i % 10 == 3;
	}

	private static PaymentRequest request(String orderId, int i) {
		PaymentRequest request = PaymentRequest.of(orderId, 1_000 + i, "ILS");
		return declines(i) ? request.withPaymentMethod("pm_card_chargeDeclined") : request;
	}

	private static String orderId(String run, int i) {
		return run + "-" + i;
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private record Call(int index, IdempotencyKey key, PaymentRequest request, PaymentOutcome outcome, Duration took) {

	}

}
