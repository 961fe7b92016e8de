package dev.payonce.gateway.stripe;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.Optional;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.stripe.exception.SignatureVerificationException;
import com.stripe.net.Webhook;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code Stripe-Signature} reader, table-driven: the forms Stripe sends are read as
 * stripe-java reads them, and every other form is refused, so the freshness check and the
 * signature can never read different timestamps (docs/design.md section 10).
 */
class StripeSignatureTests {

	private static final String SECRET = "whsec_signature_tests";

	private static final byte[] BODY = "{\"id\":\"evt_1\",\"object\":\"event\"}".getBytes(StandardCharsets.UTF_8);

	private static final long NOW = 1_780_000_000L;

	private static final String SIGNATURE = v1(NOW, SECRET);

	private static final String OTHER = v1(NOW, "whsec_other");

	@ParameterizedTest
	@ValueSource(strings = { "t=1780000000,v1=SIG", "t=1780000000,v1=OTHER,v1=SIG", "t=1780000000,v1=SIG,v1=OTHER",
			"v1=SIG,t=1780000000",
			"t=1780000000,v0=6ffbb59b2300aae63f272406069a9788598b792a944a07aba816edb039989a39,v1=SIG",
			"t=1780000000,v1=SIG,x2=future-scheme" })
	void readsEveryFormStripeSendsAndVerifiesTheOneTimestamp(String form) {
		String header = form.replace("OTHER", OTHER).replace("SIG", SIGNATURE);

		Optional<StripeSignature> signature = StripeSignature.parse(header);

		assertThat(signature).hasValueSatisfying((read) -> {
			assertThat(read.timestamp()).isEqualTo(NOW);
			assertThat(read.signs(BODY, SECRET)).isTrue();
			assertThat(read.isFresh(Instant.ofEpochSecond(NOW), Duration.ofMinutes(5))).isTrue();
		});
	}

	@ParameterizedTest
	@ValueSource(strings = {
			// a second timestamp, however it is spelt
			"t =1780000000,t=1782592000,v1=SIG", "t=1780000000,t=1782592000,v1=SIG", "t=1780000000,t=1780000000,v1=SIG",
			" t=1780000000,v1=SIG", "t= 1780000000,v1=SIG", "t=1780000000 ,v1=SIG", "T=1780000000,v1=SIG",
			// whitespace around keys or values, empty items
			"t=1780000000, v1=SIG", "t=1780000000,v1 =SIG", "t=1780000000,v1=SIG ", "t=1780000000,,v1=SIG",
			"t=1780000000,v1=SIG,", ",t=1780000000,v1=SIG", "", ",", "=", "t", "t=", "t=1780000000,v1=",
			"t=1780000000,v1", "t=1780000000,=SIG",
			// timestamps that are not a plain positive number
			"t=abc,v1=SIG", "t=-1780000000,v1=SIG", "t=+1780000000,v1=SIG", "t=0,v1=SIG", "t=01780000000,v1=SIG",
			"t=1780000000.5,v1=SIG", "t=1e9,v1=SIG", "t=99999999999999999999999,v1=SIG", "t=9223372036854775808,v1=SIG",
			"t=１７８０００００００,v1=SIG",
			// no timestamp, no v1, a v1 that is not 64 lowercase hex digits
			"v1=SIG", "t=1780000000", "t=1780000000,v0=SIG", "t=1780000000,v1=UPPER", "t=1780000000,v1=SIGff",
			"t=1780000000,v1=zz", "t=1780000000,v1=SIG=", "t=1780000000,v1=SIG,v0=", "t=1780000000,v1=SIG,v0=a b",
			"t=1780000000,v1=SIG,1x=a" })
	void refusesEveryOtherForm(String form) {
		String header = form.replace("UPPER", SIGNATURE.toUpperCase()).replace("SIG", SIGNATURE);

		Optional<StripeSignature> signature = StripeSignature.parse(header);

		assertThat(signature).as(header).isEmpty();
	}

	@Test
	void refusesMoreItemsThanStripeEverSends() {
		String header = "t=" + NOW + (",v1=" + OTHER).repeat(StripeSignature.MAX_ITEMS - 1) + ",v1=" + SIGNATURE;

		Optional<StripeSignature> signature = StripeSignature.parse(header);

		assertThat(signature).isEmpty();
	}

	@Test
	void signatureOverAnotherTimestampOrBodyOrSecretDoesNotVerify() {
		StripeSignature otherTime = StripeSignature.parse("t=" + (NOW + 1) + ",v1=" + SIGNATURE).orElseThrow();
		StripeSignature otherSecret = StripeSignature.parse("t=" + NOW + ",v1=" + OTHER).orElseThrow();
		StripeSignature valid = StripeSignature.parse("t=" + NOW + ",v1=" + SIGNATURE).orElseThrow();

		assertThat(otherTime.signs(BODY, SECRET)).isFalse();
		assertThat(otherSecret.signs(BODY, SECRET)).isFalse();
		assertThat(valid.signs("{\"id\":\"evt_2\",\"object\":\"event\"}".getBytes(StandardCharsets.UTF_8), SECRET))
			.isFalse();
	}

	@Test
	void timestampIsFreshOnlyWithinTheToleranceInBothDirections() {
		StripeSignature signature = StripeSignature.parse("t=" + NOW + ",v1=" + SIGNATURE).orElseThrow();
		Duration tolerance = Duration.ofMinutes(5);

		assertThat(signature.isFresh(Instant.ofEpochSecond(NOW + 300), tolerance)).isTrue();
		assertThat(signature.isFresh(Instant.ofEpochSecond(NOW - 300), tolerance)).isTrue();
		assertThat(signature.isFresh(Instant.ofEpochSecond(NOW + 301), tolerance)).as("too old").isFalse();
		assertThat(signature.isFresh(Instant.ofEpochSecond(NOW - 301), tolerance)).as("in the future").isFalse();
	}

	@Test
	void largestTimestampReadIsFarFromNowAndNeverOverflows() {
		StripeSignature signature = StripeSignature.parse("t=999999999999999999,v1=" + SIGNATURE).orElseThrow();

		assertThat(signature.isFresh(Instant.ofEpochSecond(NOW), Duration.ofMinutes(5))).isFalse();
	}

	@ParameterizedTest
	@ValueSource(strings = { "t=1780000000,v1=SIG", "t=1780000000,v1=OTHER,v1=SIG", "v1=SIG,t=1780000000",
			"t=1780000000,v0=6ffbb59b2300aae63f272406069a9788598b792a944a07aba816edb039989a39,v1=SIG" })
	void everyHeaderItAcceptsStripeJavaReadsTheSameWay(String form) throws SignatureVerificationException {
		String header = form.replace("OTHER", OTHER).replace("SIG", SIGNATURE);
		String payload = new String(BODY, StandardCharsets.UTF_8);

		StripeSignature signature = StripeSignature.parse(header).orElseThrow();
		boolean stripeJava = Webhook.Signature.verifyHeader(payload, header, SECRET, 300,
				Clock.fixed(Instant.ofEpochSecond(NOW), ZoneOffset.UTC));

		assertThat(signature.signs(BODY, SECRET)).isEqualTo(stripeJava).isTrue();
	}

	private static String v1(long timestamp, String secret) {
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
			return HexFormat.of()
				.formatHex(mac.doFinal(
						(timestamp + "." + new String(BODY, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8)));
		}
		catch (java.security.GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
