package dev.payonce.capture;

import java.net.http.HttpRequest;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Import;

import dev.payonce.TestcontainersConfiguration;
import dev.payonce.gateway.simulator.SimulatorSettings;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;
import dev.payonce.provider.CaptureRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/design.md section 15: every attempt under a capture's provider idempotency key
 * sends the same parameters, however other captures of the payment moved since its claim
 * (a provider refuses a key reused with other parameters, and one that captures once
 * releases the rest of the hold by what remained).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
class CaptureAttemptIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	ApplicationContext context;

	@Autowired
	Captures captures;

	@Autowired
	CaptureCalls calls;

	@AfterEach
	void resetSimulator() {
		SimulatorSettings.of(this.context).reset();
	}

	@Test
	void aCaptureReadBackIsSentWhatRemainedAtItsClaimWhileAnotherCaptureIsInFlight() {
		PaymentsApi api = new PaymentsApi(this.port);
		Reply paid = api.pay("authorize-" + UUID.randomUUID(), "{\"orderId\":\"order-" + UUID.randomUUID()
				+ "\",\"amount\":1000,\"currency\":\"ILS\",\"capture\":\"manual\"}");
		String paymentId = paid.field("id");
		// Every provider call acts and its answer is lost: both captures stay in flight.
		SimulatorSettings.of(this.context).faults(0, 0, 1);

		Reply first = capture(api, paymentId, "{\"amount\":300}");
		Reply second = capture(api, paymentId, "{\"amount\":200}");
		Capture readBack = this.captures.findById(UUID.fromString(second.field("captureId"))).orElseThrow();
		CaptureRequest resent = this.calls.captureRequest(readBack);

		assertThat(paid.field("status")).isEqualTo("AUTHORIZED");
		assertThat(first.status()).isEqualTo(503);
		assertThat(second.status()).isEqualTo(503);
		assertThat(resent.amount().minorUnits()).isEqualTo(200);
		assertThat(resent.remaining()).as("what remained when the second capture was claimed: 1000 - 300 in flight")
			.isEqualTo(700);
	}

	private static Reply capture(PaymentsApi api, String paymentId, String json) {
		return api.send(api.request("/payments/" + paymentId + "/captures")
			.header("Idempotency-Key", "capture-" + UUID.randomUUID())
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json)));
	}

}
