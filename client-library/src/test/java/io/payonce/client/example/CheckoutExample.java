package io.payonce.client.example;

import java.io.PrintStream;
import java.net.URI;
import java.util.UUID;

import io.payonce.client.IdempotencyKey;
import io.payonce.client.OutcomeUnknown;
import io.payonce.client.PaymentOutcome;
import io.payonce.client.PaymentRequest;
import io.payonce.client.PayonceClient;
import io.payonce.client.RefundOutcome;
import io.payonce.client.RefundReason;
import io.payonce.client.RefundRequest;

/**
 * A runnable example of the client: pays for an order, refunds part of it, and lists the
 * refunds. With no arguments it talks to a local Payonce
 * ({@code ./mvnw spring-boot:test-run -Dspring-boot.run.profiles=local} at the repository
 * root) as its development client; run it from {@code client-library/} with
 * {@code ../mvnw -q test-compile exec:exec@example}, adding
 * {@code -Dexample.args="<base URL> <API key>"} for another Payonce.
 */
public final class CheckoutExample {

	private CheckoutExample() {
	}

	/**
	 * Runs the example.
	 * @param args the base URL and the API key, or none for the local development ones
	 */
	public static void main(String[] args) {
		String baseUrl = (args.length > 0) ? args[0] : "http://localhost:8080";
		String apiKey = (args.length > 1) ? args[1] : "sk_test_LocalDevelopmentKeyDoNotUseInProduction0000";
		run(baseUrl, apiKey, "order-" + UUID.randomUUID().toString().substring(0, 8), System.out);
	}

	/**
	 * Pays for one order and refunds 300 minor units of it.
	 * @param baseUrl where Payonce answers
	 * @param apiKey the client's API key
	 * @param orderId the order to pay for
	 * @param out where to print what happened
	 */
	public static void run(String baseUrl, String apiKey, String orderId, PrintStream out) {
		PayonceClient payonce = PayonceClient.builder(URI.create(baseUrl), apiKey).build();
		// One key per order, the same in every process: a retry or a restart never pays
		// twice.
		IdempotencyKey key = IdempotencyKey.derived("checkout", orderId);
		PaymentOutcome outcome = payonce.payments().create(key, PaymentRequest.of(orderId, 1200, "ILS"));
		switch (outcome) {
			case PaymentOutcome.Approved approved -> {
				out.println("approved " + approved.payment().id() + " (" + approved.payment().amount() + " "
						+ approved.payment().currency() + ", replayed: " + approved.replayed() + ")");
				RefundOutcome refund = payonce.refunds()
					.create(approved.payment().id(), IdempotencyKey.derived("refund", orderId + "/1"),
							RefundRequest.of(300).withReason(RefundReason.REQUESTED_BY_CUSTOMER));
				out.println("refund: " + refund.getClass().getSimpleName());
				out.println("refunds listed: " + payonce.refunds().listAll(approved.payment().id()).size()
						+ ", refunded now: " + payonce.payments().get(approved.payment().id()).refundedAmount());
			}
			case PaymentOutcome.Declined declined ->
				out.println("declined: " + declined.declineCode().orElse("no code") + "; ask for another card");
			case PaymentOutcome.Failed failed -> out.println("not charged; pay again with a new key");
			case OutcomeUnknown unknown ->
				out.println("outcome unknown (" + unknown.reason() + "): call again later with the same key; payment "
						+ unknown.paymentId().map(Object::toString).orElse("not known yet"));
		}
	}

}
