package io.payonce.client.example;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

import io.payonce.client.ServiceForExamples;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CheckoutExampleIntegrationTests {

	@Test
	void examplePaysRefundsAndListsAgainstTheService() {
		ByteArrayOutputStream printed = new ByteArrayOutputStream();
		String orderId = "example-" + UUID.randomUUID();

		CheckoutExample.run(ServiceForExamples.baseUrl(), ServiceForExamples.apiKey(), orderId,
				new PrintStream(printed, true, StandardCharsets.UTF_8));
		CheckoutExample.run(ServiceForExamples.baseUrl(), ServiceForExamples.apiKey(), orderId,
				new PrintStream(printed, true, StandardCharsets.UTF_8));

		assertThat(printed.toString(StandardCharsets.UTF_8).lines()).containsSubsequence("refund: Refunded",
				"refunds listed: 1, refunded now: 300", "refund: Refunded", "refunds listed: 1, refunded now: 300");
		assertThat(printed.toString(StandardCharsets.UTF_8)).contains("1200 ILS, replayed: false")
			.contains("1200 ILS, replayed: true");
	}

}
