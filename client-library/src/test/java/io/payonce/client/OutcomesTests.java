package io.payonce.client;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class OutcomesTests {

	private static final String PAYMENT_ID = "6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a";

	private static final String REFUND_ID = "0f4b7d52-7f1e-4d0e-9b1a-2c3d4e5f6a7b";

	private static final IdempotencyKey KEY = new IdempotencyKey("key-1");

	private static final PaymentRequest REQUEST = PaymentRequest.of("order-1", 1200, "ILS");

	private final RetryPolicy policy = RetryPolicy.defaults()
		.withMaxAttempts(3)
		.withBackoff(Duration.ofMillis(10), Duration.ofMillis(100));

	@Test
	void declineIsAValueWithItsCode() {
		ScriptedTransport transport = new ScriptedTransport().problem(402, "payment-declined", null, "paymentId",
				PAYMENT_ID, "declineCode", "card_declined");

		PaymentOutcome outcome = payments(transport).create(KEY, REQUEST);

		assertThat(outcome).isInstanceOfSatisfying(PaymentOutcome.Declined.class, (declined) -> {
			assertThat(declined.paymentId()).isEqualTo(PaymentId.of(PAYMENT_ID));
			assertThat(declined.declineCode()).contains("card_declined");
		});
	}

	@Test
	void paymentFailedIsAValue() {
		ScriptedTransport transport = new ScriptedTransport().problem(402, "payment-failed", null, "paymentId",
				PAYMENT_ID);

		assertThat(payments(transport).create(KEY, REQUEST)).isInstanceOf(PaymentOutcome.Failed.class);
	}

	@Test
	void unknownOutcomeCarriesTheKeyAndThePaymentNamedOnTheWay() {
		ScriptedTransport transport = new ScriptedTransport()
			.problem(503, "payment-outcome-unknown", "0", "paymentId", PAYMENT_ID)
			.problem(409, "idempotency-request-in-progress", "0")
			.problem(409, "idempotency-request-in-progress", "0");

		PaymentOutcome outcome = payments(transport).create(KEY, REQUEST);

		assertThat(outcome).isInstanceOfSatisfying(OutcomeUnknown.class, (unknown) -> {
			assertThat(unknown.key()).isEqualTo(KEY);
			assertThat(unknown.paymentId()).contains(PaymentId.of(PAYMENT_ID));
			assertThat(unknown.reason()).isEqualTo(OutcomeUnknown.Reason.IN_PROGRESS);
			assertThat(unknown.attempts()).isEqualTo(3);
		});
	}

	@Test
	void internalErrorOfAPaymentIsAnUnknownOutcomeNotRetried() {
		ScriptedTransport transport = new ScriptedTransport().problem(500, "internal-error", null);

		PaymentOutcome outcome = payments(transport).create(KEY, REQUEST);

		assertThat(outcome).isInstanceOfSatisfying(OutcomeUnknown.class,
				(unknown) -> assertThat(unknown.reason()).isEqualTo(OutcomeUnknown.Reason.SERVER_ERROR));
		assertThat(transport.requests).hasSize(1);
	}

	@Test
	void finalProblemsAreTypedExceptions() {
		assertThatExceptionOfType(IdempotencyKeyReusedException.class)
			.isThrownBy(() -> payments(new ScriptedTransport().problem(422, "idempotency-key-reused", null)).create(KEY,
					REQUEST))
			.satisfies((ex) -> assertThat(ex.problem().slug()).isEqualTo("idempotency-key-reused"));
		assertThatExceptionOfType(InvalidRequestException.class).isThrownBy(
				() -> payments(new ScriptedTransport().problem(400, "invalid-request", null)).create(KEY, REQUEST));
		assertThatExceptionOfType(AuthenticationException.class).isThrownBy(
				() -> payments(new ScriptedTransport().problem(401, "unauthorized", null)).create(KEY, REQUEST));
		assertThatExceptionOfType(PermissionException.class)
			.isThrownBy(() -> payments(new ScriptedTransport().problem(403, "api-key-mode-mismatch", null)).create(KEY,
					REQUEST));
		assertThatExceptionOfType(NotFoundException.class)
			.isThrownBy(() -> payments(new ScriptedTransport().problem(404, "payment-not-found", null))
				.get(PaymentId.of(PAYMENT_ID)));
	}

	@Test
	void readThatGetsNoAnswerThrowsUnavailable() {
		ScriptedTransport transport = new ScriptedTransport().timeOut().timeOut().timeOut();

		assertThatExceptionOfType(UnavailableException.class)
			.isThrownBy(() -> payments(transport).get(PaymentId.of(PAYMENT_ID)))
			.satisfies((ex) -> assertThat(ex.attempts()).isEqualTo(3));
	}

	@Test
	void refundRefusalsAreValues() {
		ScriptedTransport transport = new ScriptedTransport()
			.problem(409, "refund-exceeds-refundable", null, "refundableAmount", "900")
			.problem(409, "payment-not-refundable", null, "paymentStatus", "DECLINED")
			.problem(402, "refund-declined", null, "refundId", REFUND_ID, "declineCode", "charge_disputed")
			.problem(503, "refund-outcome-unknown", "0", "refundId", REFUND_ID)
			.problem(503, "refund-outcome-unknown", "0", "refundId", REFUND_ID)
			.problem(503, "refund-outcome-unknown", "0", "refundId", REFUND_ID);
		Refunds refunds = new Refunds(new Calls(transport.loop(this.policy)));
		PaymentId payment = PaymentId.of(PAYMENT_ID);

		assertThat(refunds.create(payment, KEY, RefundRequest.of(1000)))
			.isEqualTo(new RefundOutcome.ExceedsRefundable(900, problemOf(transport, 0)));
		assertThat(refunds.create(payment, KEY, RefundRequest.all())).isInstanceOfSatisfying(
				RefundOutcome.NotRefundable.class,
				(refusal) -> assertThat(refusal.paymentStatus()).isEqualTo(Status.DECLINED));
		assertThat(refunds.create(payment, KEY, RefundRequest.all())).isInstanceOfSatisfying(
				RefundOutcome.Declined.class,
				(declined) -> assertThat(declined.declineCode()).contains("charge_disputed"));
		assertThat(refunds.create(payment, KEY, RefundRequest.all())).isInstanceOfSatisfying(OutcomeUnknown.class,
				(unknown) -> {
					assertThat(unknown.refundId()).contains(RefundId.of(REFUND_ID));
					assertThat(unknown.paymentId()).contains(payment);
				});
		assertThat(transport.requests).extracting(ApiRequest::body).first().isEqualTo("{\"amount\":1000}".getBytes());
		assertThat(transport.requests.get(1).body()).as("all that remains: no body").isNull();
	}

	private Problem problemOf(ScriptedTransport transport, int index) {
		return new Problem("https://payonce.dev/problems/refund-exceeds-refundable", "refund-exceeds-refundable", "t",
				409, java.util.Optional.empty(), java.util.Optional.empty(), java.util.List.of(),
				java.util.Map.of("type", "https://payonce.dev/problems/refund-exceeds-refundable", "title", "t",
						"status", "409", "refundableAmount", "900"));
	}

	private Payments payments(ScriptedTransport transport) {
		return new Payments(new Calls(transport.loop(this.policy)));
	}

}
