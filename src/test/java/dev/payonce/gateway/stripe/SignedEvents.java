package dev.payonce.gateway.stripe;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.stripe.Stripe;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stripe events as Stripe builds and signs them ({@code Stripe-Signature: t=<unix
 * time>,v1=<HMAC-SHA256 of "t.body">}, https://docs.stripe.com/webhooks#verify-manually),
 * delivered to {@code POST /webhooks/stripe} over real HTTP.
 */
final class SignedEvents {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newHttpClient();

	private final int port;

	private final String secret;

	SignedEvents(int port, String secret) {
		this.port = port;
		this.secret = secret;
	}

	/** An event of this type carrying the object, in the given mode. */
	static String event(String type, Map<String, Object> object, boolean livemode) {
		Map<String, Object> data = new LinkedHashMap<>(object);
		data.put("livemode", livemode);
		Map<String, Object> event = new LinkedHashMap<>();
		event.put("id", "evt_" + UUID.randomUUID().toString().replace("-", ""));
		event.put("object", "event");
		event.put("api_version", Stripe.API_VERSION);
		event.put("created", Instant.now().getEpochSecond());
		event.put("livemode", livemode);
		event.put("pending_webhooks", 1);
		event.put("type", type);
		event.put("data", Map.of("object", data));
		return JSON.writeValueAsString(event);
	}

	/** The event's id. */
	static String id(String event) {
		return JSON.readTree(event).get("id").asString();
	}

	/** Delivers the event signed now with the endpoint's secret; its status code. */
	int deliver(String payload) {
		try {
			long now = Instant.now().getEpochSecond();
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(this.secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
			String signature = "t=" + now + ",v1="
					+ HexFormat.of().formatHex(mac.doFinal((now + "." + payload).getBytes(StandardCharsets.UTF_8)));
			return this.http
				.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/webhooks/stripe"))
					.header("Content-Type", "application/json")
					.header("Stripe-Signature", signature)
					.POST(HttpRequest.BodyPublishers.ofString(payload))
					.timeout(Duration.ofSeconds(30))
					.build(), HttpResponse.BodyHandlers.ofString())
				.statusCode();
		}
		catch (java.io.IOException | java.security.GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
