package dev.payonce.gateway.stripe;

import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.Currency;

import com.stripe.exception.ApiConnectionException;
import com.stripe.exception.ApiException;
import com.stripe.model.StripeError;
import com.stripe.net.ApiResource;
import com.stripe.exception.CardException;
import com.stripe.exception.IdempotencyException;
import com.stripe.exception.InvalidRequestException;
import com.stripe.exception.RateLimitException;
import com.stripe.model.PaymentIntent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.payonce.payment.PaymentId;
import dev.payonce.provider.ChargeRequest;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.Money;
import dev.payonce.provider.ProviderAttempt;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Stripe answer to {@link GatewayResult} table, one row a test, and the adapter
 * against an address where nothing listens.
 */
@ExtendWith(OutputCaptureExtension.class)
class StripeOutcomesTests {

	@Test
	void succeededPaymentIntentIsApproved() {
		assertThat(StripeOutcomes.of(intent("pi_1", "succeeded"))).isEqualTo(new GatewayResult.Approved("pi_1"));
	}

	@Test
	void processingPaymentIntentIsUnknown() {
		assertThat(StripeOutcomes.of(intent("pi_2", "processing"))).isInstanceOf(GatewayResult.Unknown.class);
	}

	@Test
	void cardErrorIsDeclinedWithItsDeclineCode() {
		CardException declined = new CardException("declined", "req_1", "card_declined", null, "insufficient_funds",
				"ch_1", 402, null);

		assertThat(StripeOutcomes.ofCharge(declined))
			.isEqualTo(new GatewayResult.Declined("ch_1", "insufficient_funds"));
	}

	@Test
	void rateLimitIsNotAttempted() {
		assertThat(StripeOutcomes.ofCharge(new RateLimitException("slow down", "req_2", "rate_limit", null, 429, null)))
			.isInstanceOf(GatewayResult.NotAttempted.class);
	}

	@Test
	void keyInUseIsAnUnknownOutcomeBecauseTheRequestExecutingUnderTheKeyMayCharge() {
		GatewayResult result = StripeOutcomes
			.ofCharge(new ApiException("in use", "req_3", "idempotency_key_in_use", 409, null));

		assertThat(result).isEqualTo(new GatewayResult.Unknown("stripe 409 idempotency_key_in_use", null, false));
	}

	@Test
	void serverErrorIsUnknown() {
		assertThat(StripeOutcomes.ofCharge(new ApiException("oops", "req_4", null, 500, null)))
			.isInstanceOf(GatewayResult.Unknown.class);
	}

	@Test
	void aRefundsServerErrorNamingThePaymentIntentIsUnknownWithoutAReference() {
		ApiException failure = new ApiException("oops", "req_9", null, 500, null);
		failure
			.setStripeError(ApiResource.GSON.fromJson("{\"payment_intent\": {\"id\": \"pi_9\"}}", StripeError.class));

		GatewayResult charge = StripeOutcomes.ofCharge(failure);
		GatewayResult refund = StripeOutcomes.ofRefund(failure);

		assertThat(charge).isInstanceOf(GatewayResult.Unknown.class);
		assertThat(((GatewayResult.Unknown) charge).providerReference()).isEqualTo("pi_9");
		assertThat(refund).isInstanceOf(GatewayResult.Unknown.class);
		assertThat(((GatewayResult.Unknown) refund).providerReference()).isNull();
	}

	@Test
	void parameterMismatchIsUnknown() {
		assertThat(StripeOutcomes.ofCharge(new IdempotencyException("mismatch", "req_5", null, 400)))
			.isInstanceOf(GatewayResult.Unknown.class);
	}

	@ParameterizedTest
	@FieldSource("dev.payonce.gateway.stripe.StripeOutcomes#PERMANENT_REFUSALS")
	void permanentRefusalIsDeclinedWithStripesCodeSoNoRetryOrNewKeyFollows(String code) {
		GatewayResult result = StripeOutcomes
			.ofCharge(new InvalidRequestException("refused", "amount", "req_6", code, 400, null));

		assertThat(result).isEqualTo(new GatewayResult.Declined("none", code));
	}

	@Test
	void paymentMethodThatDoesNotExistIsDeclined() {
		GatewayResult result = StripeOutcomes
			.ofCharge(new InvalidRequestException("no such", "payment_method", "req_7", "resource_missing", 400, null));

		assertThat(result).isEqualTo(new GatewayResult.Declined("none", "resource_missing"));
	}

	@Test
	void otherValidationFailureIsNotAttempted() {
		GatewayResult missingIntent = StripeOutcomes
			.ofCharge(new InvalidRequestException("no such", "payment_intent", "req_8", "resource_missing", 400, null));
		GatewayResult modes = StripeOutcomes
			.ofCharge(new InvalidRequestException("test only", null, "req_9", "testmode_charges_only", 400, null));

		assertThat(missingIntent).isInstanceOf(GatewayResult.NotAttempted.class);
		assertThat(modes).isInstanceOf(GatewayResult.NotAttempted.class);
	}

	@Test
	void requestStripeDoesNotAcceptIsNotAttemptedAndLoggedAsABug(CapturedOutput output) {
		GatewayResult result = StripeOutcomes
			.ofCharge(new InvalidRequestException("unknown", "foo", "req_10", "parameter_unknown", 400, null));

		assertThat(result).isInstanceOf(GatewayResult.NotAttempted.class);
		assertThat(output.getAll()).contains("ERROR").contains("parameter_unknown").contains("a bug in Payonce");
	}

	@Test
	void timeoutIsUnknownAndRefusedConnectionIsNotAttempted() {
		ApiConnectionException timeout = new ApiConnectionException("io", new SocketTimeoutException("read"));
		ApiConnectionException refused = new ApiConnectionException("io", new ConnectException("refused"));

		assertThat(StripeOutcomes.ofCharge(timeout)).isInstanceOf(GatewayResult.Unknown.class);
		assertThat(StripeOutcomes.ofCharge(refused)).isInstanceOf(GatewayResult.NotAttempted.class);
	}

	@Test
	void unreachableStripeIsNotAttemptedForAChargeAndUnknownForALookup() throws IOException {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		StripePaymentGateway gateway = new StripePaymentGateway(new StripeProperties("sk_test_unreachable",
				"whsec_unreachable", URI.create("http://127.0.0.1:" + closedPort), Duration.ofSeconds(1),
				Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofMinutes(5), false));
		PaymentId paymentId = PaymentId.random();
		ChargeRequest charge = new ChargeRequest(paymentId.value(),
				ProviderAttempt.providerIdempotencyKey("payment", paymentId.value(), 1),
				new Money(100, Currency.getInstance("EUR")), "pm_card_visa", "order-1");

		assertThat(gateway.charge(charge)).isInstanceOf(GatewayResult.NotAttempted.class);
		assertThat(gateway.lookup(charge)).as("a failed lookup never proves there is no charge")
			.isInstanceOf(GatewayResult.Unknown.class);
	}

	private static PaymentIntent intent(String id, String status) {
		PaymentIntent intent = new PaymentIntent();
		intent.setId(id);
		intent.setStatus(status);
		return intent;
	}

}
