package dev.payonce.benchmark;

import java.net.http.HttpRequest.BodyPublishers;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;

import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code bench} profile alone, in production mode (no {@code local} profile, no
 * opt-in), opens no unauthenticated endpoint (issue 15, item 8).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@ActiveProfiles("bench")
@Import(TestcontainersConfiguration.class)
class BaselineEndpointIntegrationTests {

	@LocalServerPort
	int port;

	@Test
	void benchProfileAloneDoesNotOpenTheBaseline() {
		PaymentsApi anonymous = new PaymentsApi(this.port);

		Reply reply = anonymous.sendWithoutKey(anonymous.request("/bench/baseline")
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString("{\"orderId\":\"o\",\"amount\":1,\"currency\":\"ILS\"}")));

		assertThat(reply.status()).isNotEqualTo(201).isIn(401, 404);
		assertThat(reply.header("Content-Type")).contains("application/problem+json");
	}

}
