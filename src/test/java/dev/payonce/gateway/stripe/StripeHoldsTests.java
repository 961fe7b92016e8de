package dev.payonce.gateway.stripe;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Currency;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.payonce.gateway.stripe.StripeApiModel.Intent;
import dev.payonce.payment.PaymentId;
import dev.payonce.provider.CaptureMethod;
import dev.payonce.provider.CaptureRequest;
import dev.payonce.provider.CaptureSequence;
import dev.payonce.provider.ChargeRequest;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.Money;
import dev.payonce.provider.ProviderAttempt;
import dev.payonce.provider.VoidRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The adapter's captures and voids alone against {@link StripeApiModel} over real HTTP
 * (no database): a manual payment is a hold ({@code capture_method=manual}, answered
 * {@code requires_capture}); without multicapture a partial capture is final and Stripe
 * releases the rest; with it, every capture but the last keeps the rest; a lookup reads
 * from the retrieved PaymentIntent whether a capture or a cancel happened.
 */
class StripeHoldsTests {

	private final StripeApiModel stripe = new StripeApiModel(Duration.ofMillis(300), Duration.ofSeconds(2));

	private final StripePaymentGateway gateway = gateway(false);

	@AfterEach
	void stopStripe() {
		this.stripe.shutdown();
	}

	@Test
	void manualPaymentPlacesAHoldThatIsTheApprovalAndSendsNoCapture() {
		GatewayResult authorized = this.gateway.charge(manualCharge(990, "USD"));

		String intentId = ((GatewayResult.Approved) authorized).providerReference();
		Intent intent = this.stripe.intent(intentId);
		assertThat(intent.captureMethod()).isEqualTo("manual");
		assertThat(intent.status()).isEqualTo("requires_capture");
		assertThat(intent.amountCapturable()).isEqualTo(990);
		assertThat(this.stripe.capturesOf(intentId)).isEmpty();
	}

	@Test
	void holdEndsWhenItsChargeSaysItMustBeCapturedBy() {
		this.stripe.holdWindow(Duration.ofHours(114));

		GatewayResult authorized = this.gateway.charge(manualCharge(990, "USD"));

		Intent intent = this.stripe.intent(((GatewayResult.Approved) authorized).providerReference());
		assertThat(authorized).isEqualTo(new GatewayResult.Approved(intent.id(),
				Instant.ofEpochSecond(intent.createdAt().plus(Duration.ofHours(114)).getEpochSecond())));
	}

	@Test
	void withoutMulticaptureAPartialCaptureIsFinalAndStripeReleasesTheRest() {
		String intentId = authorize(this.gateway, 990, "USD");
		CaptureRequest partial = capture(intentId, 400, "USD", 990);

		GatewayResult captured = this.gateway.capture(partial);
		GatewayResult lookedUp = this.gateway.lookupCapture(partial);

		assertThat(this.gateway.captureSequence()).isEqualTo(CaptureSequence.ONCE);
		assertThat(captured).isEqualTo(new GatewayResult.Approved("ch_" + intentId.substring(3)));
		assertThat(lookedUp).isEqualTo(captured);
		assertThat(this.stripe.intent(intentId).status()).isEqualTo("succeeded");
		assertThat(this.stripe.intent(intentId).amountCapturable()).as("released by Stripe").isZero();
		assertThat(this.stripe.capturesOf(intentId)).containsExactly(400L);
	}

	@Test
	void withMulticaptureEveryCaptureButTheLastKeepsTheRest() {
		this.stripe.multicapture(true);
		StripePaymentGateway multicapture = gateway(true);
		String intentId = authorize(multicapture, 990, "USD");
		CaptureRequest first = capture(intentId, 300, "USD", 990);
		CaptureRequest last = capture(intentId, 690, "USD", 690);

		GatewayResult firstCaptured = multicapture.capture(first);
		Intent between = this.stripe.intent(intentId);
		GatewayResult notYet = multicapture.lookupCapture(last);
		GatewayResult lastCaptured = multicapture.capture(last);

		assertThat(multicapture.captureSequence()).isEqualTo(CaptureSequence.ONE_AT_A_TIME);
		assertThat(firstCaptured).isInstanceOf(GatewayResult.Approved.class);
		assertThat(between.status()).isEqualTo("requires_capture");
		assertThat(between.amountCapturable()).isEqualTo(690);
		assertThat(notYet).isInstanceOf(GatewayResult.NotAttempted.class);
		assertThat(lastCaptured).isInstanceOf(GatewayResult.Approved.class);
		assertThat(multicapture.lookupCapture(first)).isInstanceOf(GatewayResult.Approved.class);
		assertThat(this.stripe.intent(intentId).status()).isEqualTo("succeeded");
		assertThat(this.stripe.capturesOf(intentId)).containsExactly(300L, 690L);
	}

	@Test
	void captureOfJapaneseYenAndIcelandicKronaIsSentInStripesUnits() {
		String yen = authorize(this.gateway, 1200, "JPY");
		String krona = authorize(this.gateway, 500, "ISK");

		GatewayResult yenCaptured = this.gateway.capture(capture(yen, 1200, "JPY", 1200));
		GatewayResult kronaCaptured = this.gateway.capture(capture(krona, 300, "ISK", 500));

		assertThat(yenCaptured).isInstanceOf(GatewayResult.Approved.class);
		assertThat(this.stripe.capturesOf(yen)).containsExactly(1200L);
		assertThat(kronaCaptured).isInstanceOf(GatewayResult.Approved.class);
		assertThat(this.stripe.capturesOf(krona)).as("300 krónur are 30000 at Stripe").containsExactly(30_000L);
	}

	@Test
	void voidCancelsTheHoldOnceAndNoCaptureSucceedsAfter() {
		String intentId = authorize(this.gateway, 990, "USD");
		VoidRequest release = new VoidRequest(UUID.randomUUID(), "payonce-void-" + UUID.randomUUID(), intentId);

		GatewayResult notYet = this.gateway.lookupVoid(release);
		GatewayResult voided = this.gateway.voidAuthorization(release);
		GatewayResult again = this.gateway.voidAuthorization(release);
		GatewayResult captureAfter = this.gateway.capture(capture(intentId, 990, "USD", 990));

		assertThat(notYet).isInstanceOf(GatewayResult.NotAttempted.class);
		assertThat(voided).isEqualTo(new GatewayResult.Approved(intentId));
		assertThat(again).as("the saved answer under the void's key").isEqualTo(voided);
		assertThat(this.gateway.lookupVoid(release)).isEqualTo(voided);
		assertThat(this.stripe.cancelsOf(intentId)).isEqualTo(1);
		assertThat(captureAfter).isEqualTo(new GatewayResult.Declined("none", StripeHolds.UNEXPECTED_STATE));
		assertThat(this.stripe.capturesOf(intentId)).isEmpty();
	}

	private String authorize(StripePaymentGateway through, long amount, String currency) {
		GatewayResult authorized = through.charge(manualCharge(amount, currency));
		assertThat(authorized).isInstanceOf(GatewayResult.Approved.class);
		return ((GatewayResult.Approved) authorized).providerReference();
	}

	private StripePaymentGateway gateway(boolean multicapture) {
		return new StripePaymentGateway(new StripeProperties("sk_test_model", "whsec_model",
				URI.create(this.stripe.baseUrl()), Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(1),
				Duration.ofMinutes(5), multicapture));
	}

	private static ChargeRequest manualCharge(long amount, String currency) {
		PaymentId paymentId = PaymentId.random();
		return new ChargeRequest(paymentId.value(),
				ProviderAttempt.providerIdempotencyKey("payment", paymentId.value(), 1),
				new Money(amount, Currency.getInstance(currency)), "pm_card_visa", "order-" + paymentId, null,
				Instant.now(), CaptureMethod.MANUAL);
	}

	private static CaptureRequest capture(String intentId, long amount, String currency, long remaining) {
		UUID captureId = UUID.randomUUID();
		return new CaptureRequest(captureId, ProviderAttempt.providerIdempotencyKey("capture", captureId, 1), intentId,
				new Money(amount, Currency.getInstance(currency)), remaining);
	}

}
