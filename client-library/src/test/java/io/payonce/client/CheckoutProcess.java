package io.payonce.client;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A merchant's checkout as its own process, for the crash proof: it pays for one order
 * and prints the outcome. With {@code stored-key} it reads the order's key from the order
 * store (a file) or, the first time, makes one and writes it there <em>before</em> the
 * first attempt; with {@code new-key-per-call} it makes a new key on every run, as a
 * client library with a random key per call does. Between attempts it prints
 * {@value #BETWEEN_ATTEMPTS} and waits for its standard input, so the test can kill it
 * exactly there.
 */
public final class CheckoutProcess {

	static final String BETWEEN_ATTEMPTS = "between-attempts";

	private CheckoutProcess() {
	}

	/**
	 * Pays for one order.
	 * @param args base URL, API key, order id, order store file, {@code stored-key} or
	 * {@code new-key-per-call}
	 */
	public static void main(String[] args) throws IOException {
		URI baseUrl = URI.create(args[0]);
		String orderId = args[2];
		Path orderStore = Path.of(args[3]);
		IdempotencyKey key;
		if ("stored-key".equals(args[4]) && Files.exists(orderStore)) {
			key = new IdempotencyKey(Files.readString(orderStore, StandardCharsets.US_ASCII).strip());
		}
		else {
			key = IdempotencyKey.random();
			Files.writeString(orderStore, key.value(), StandardCharsets.US_ASCII, StandardOpenOption.CREATE,
					StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE, StandardOpenOption.SYNC);
		}
		PayonceClient client = PayonceClient.builder(baseUrl, args[1])
			.retryPolicy(RetryPolicy.defaults().withAttemptTimeout(java.time.Duration.ofSeconds(5)))
			.attemptListener((attempt) -> {
				if (attempt.retried()) {
					System.out.println(BETWEEN_ATTEMPTS);
					System.out.flush();
					try {
						System.in.read();
					}
					catch (IOException ex) {
						// The test closed our input: go on.
					}
				}
			})
			.build();
		PaymentOutcome outcome = client.payments().create(key, PaymentRequest.of(orderId, 4_200, "EUR"));
		switch (outcome) {
			case PaymentOutcome.Approved approved ->
				System.out.println("approved " + approved.payment().id() + " replayed=" + approved.replayed());
			default -> System.out.println("outcome " + outcome.getClass().getSimpleName());
		}
	}

}
