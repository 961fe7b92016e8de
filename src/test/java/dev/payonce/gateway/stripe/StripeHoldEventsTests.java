package dev.payonce.gateway.stripe;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.stripe.StripeClient;
import com.stripe.model.Event;
import com.stripe.net.Webhook;
import org.junit.jupiter.api.Test;

import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.ProviderEvent;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How {@link StripeEvents} reads the events of a manual payment's hold
 * (https://docs.stripe.com/api/events/types): a manual PaymentIntent's
 * {@code amount_capturable_updated} and {@code canceled}, and {@code charge.captured},
 * become the hold as the provider port states it, in ISO 4217 minor units; a
 * PaymentIntent captured at once holds nothing.
 */
class StripeHoldEventsTests {

	private static final String SECRET = "whsec_hold_events";

	private final StripeEvents events = new StripeEvents(StripeMode.TEST,
			new StripeRefunds(new StripeClient("sk_test_unused")));

	@Test
	void chargeCapturedStatesWhatCapturesTookInMinorUnitsAndNamesThePaymentIntent() throws Exception {
		Map<String, Object> charge = new LinkedHashMap<>();
		charge.put("id", "ch_held");
		charge.put("object", "charge");
		charge.put("amount", 50_000);
		charge.put("amount_captured", 30_000);
		charge.put("captured", true);
		charge.put("currency", "isk");
		charge.put("payment_intent", "pi_held");
		charge.put("status", "succeeded");

		ProviderEvent event = translate("charge.captured", charge);

		assertThat(event.subject()).isEqualTo(new ProviderEvent.Subject.OfHold(null, "pi_held", null,
				ProviderEvent.Hold.HELD, 300, "ch_held", new ProviderEvent.ProviderObject("pi_held", 500L, "isk")));
	}

	@Test
	void canceledManualPaymentIntentIsAReleasedHoldOfThePaymentItsMetadataNames() throws Exception {
		UUID paymentId = UUID.randomUUID();
		Map<String, Object> intent = intent("manual", "canceled", paymentId);

		ProviderEvent event = translate("payment_intent.canceled", intent);

		assertThat(event.subject()).isEqualTo(new ProviderEvent.Subject.OfHold(paymentId, "pi_held",
				new GatewayResult.Declined("pi_held", "canceled"), ProviderEvent.Hold.RELEASED, 0, "ch_held",
				new ProviderEvent.ProviderObject("pi_held", 1250L, "eur")));
	}

	@Test
	void capturableManualPaymentIntentIsAHoldApprovedAsAnAuthorization() throws Exception {
		UUID paymentId = UUID.randomUUID();

		ProviderEvent event = translate("payment_intent.amount_capturable_updated",
				intent("manual", "requires_capture", paymentId));

		assertThat(event.subject()).isInstanceOfSatisfying(ProviderEvent.Subject.OfHold.class, (hold) -> {
			assertThat(hold.hold()).isEqualTo(ProviderEvent.Hold.HELD);
			assertThat(hold.outcome()).isEqualTo(new GatewayResult.Approved("pi_held"));
		});
	}

	@Test
	void canceledPaymentIntentCapturedAtOnceHoldsNothing() throws Exception {
		ProviderEvent event = translate("payment_intent.canceled", intent("automatic", "canceled", UUID.randomUUID()));

		assertThat(event.subject()).isInstanceOf(ProviderEvent.Subject.Unrelated.class);
	}

	private static Map<String, Object> intent(String captureMethod, String status, UUID paymentId) {
		Map<String, Object> intent = new LinkedHashMap<>();
		intent.put("id", "pi_held");
		intent.put("object", "payment_intent");
		intent.put("amount", 1250);
		intent.put("amount_capturable", 0);
		intent.put("amount_received", 0);
		intent.put("capture_method", captureMethod);
		intent.put("currency", "eur");
		intent.put("latest_charge", "ch_held");
		intent.put("status", status);
		intent.put("metadata", Map.of("payonce_payment_id", paymentId.toString()));
		return intent;
	}

	private ProviderEvent translate(String type, Map<String, Object> object) throws Exception {
		String payload = SignedEvents.event(type, object, false);
		long now = Instant.now().getEpochSecond();
		Mac mac = Mac.getInstance("HmacSHA256");
		mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
		String header = "t=" + now + ",v1="
				+ HexFormat.of().formatHex(mac.doFinal((now + "." + payload).getBytes(StandardCharsets.UTF_8)));
		Event event = Webhook.constructEvent(payload, header, SECRET, 300, Clock.systemUTC());
		return this.events.translate(event, false);
	}

}
