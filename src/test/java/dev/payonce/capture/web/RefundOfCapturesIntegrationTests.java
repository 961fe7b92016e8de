package dev.payonce.capture.web;

import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/design.md section 15: refunds of a manual payment take only what its captures
 * took, before and after a void of the rest.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
class RefundOfCapturesIntegrationTests {

	@LocalServerPort
	int port;

	PaymentsApi payments;

	CapturesApi api;

	@BeforeEach
	void setUp() {
		this.payments = new PaymentsApi(this.port);
		this.api = new CapturesApi(this.payments);
	}

	@Test
	void refundsOnlyCapturedMoney() {
		String paymentId = this.api.authorize(1000);

		Reply beforeCapture = this.payments.refund(paymentId, "refund-" + UUID.randomUUID(), "{\"amount\":1}");
		this.api.capture(paymentId, "capture-" + UUID.randomUUID(), "{\"amount\":400}");
		Reply tooMuch = this.payments.refund(paymentId, "refund-" + UUID.randomUUID(), "{\"amount\":500}");
		Reply captured = this.payments.refund(paymentId, "refund-" + UUID.randomUUID(), "{\"amount\":300}");
		Reply voided = this.api.voidPayment(paymentId, "void-" + UUID.randomUUID());
		Reply rest = this.payments.refund(paymentId, "refund-" + UUID.randomUUID(), "{}");
		Reply nothingLeft = this.payments.refund(paymentId, "refund-" + UUID.randomUUID(), "{}");

		assertThat(beforeCapture.status()).isEqualTo(409);
		assertThat(beforeCapture.problemType()).endsWith("/refund-exceeds-refundable");
		assertThat(beforeCapture.json().path("refundableAmount").asLong()).isZero();
		assertThat(tooMuch.status()).isEqualTo(409);
		assertThat(tooMuch.json().path("refundableAmount").asLong()).isEqualTo(400);
		assertThat(captured.status()).isEqualTo(201);
		assertThat(voided.status()).isEqualTo(200);
		assertThat(rest.status()).isEqualTo(201);
		assertThat(rest.json().path("amount").asLong()).isEqualTo(100);
		assertThat(nothingLeft.status()).isEqualTo(409);
		Reply payment = this.payments.get("/payments/" + paymentId);
		assertThat(payment.field("status")).isEqualTo("VOIDED");
		assertThat(payment.json().path("capturedAmount").asLong()).isEqualTo(400);
		assertThat(payment.json().path("refundedAmount").asLong()).isEqualTo(400);
	}

}
