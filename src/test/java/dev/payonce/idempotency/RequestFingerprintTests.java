package dev.payonce.idempotency;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class RequestFingerprintTests {

	private static final Map<String, String> FIELDS = Map.of("orderId", "order-1", "amount", "1200", "currency", "ILS");

	@Test
	void isSha256HexOfTheCanonicalForm() {
		RequestFingerprint fingerprint = RequestFingerprint.of("POST", "/payments", FIELDS);

		assertThat(fingerprint.sha256Hex()).hasSize(64).matches("[0-9a-f]{64}");
	}

	@Test
	void ignoresFieldOrder() {
		Map<String, String> reversed = new LinkedHashMap<>();
		reversed.put("currency", "ILS");
		reversed.put("amount", "1200");
		reversed.put("orderId", "order-1");

		assertThat(RequestFingerprint.of("POST", "/payments", reversed))
			.isEqualTo(RequestFingerprint.of("POST", "/payments", FIELDS));
	}

	@Test
	void changesWithEveryBusinessField() {
		RequestFingerprint base = RequestFingerprint.of("POST", "/payments", FIELDS);

		assertThat(RequestFingerprint.of("POST", "/payments", with("amount", "1201"))).isNotEqualTo(base);
		assertThat(RequestFingerprint.of("POST", "/payments", with("currency", "USD"))).isNotEqualTo(base);
		assertThat(RequestFingerprint.of("POST", "/payments", with("orderId", "order-2"))).isNotEqualTo(base);
		assertThat(RequestFingerprint.of("POST", "/payments", with("paymentMethod", "pm_card_visa")))
			.isNotEqualTo(base);
	}

	@Test
	void changesWithMethodAndRoute() {
		RequestFingerprint base = RequestFingerprint.of("POST", "/payments", FIELDS);

		assertThat(RequestFingerprint.of("PUT", "/payments", FIELDS)).isNotEqualTo(base);
		assertThat(RequestFingerprint.of("POST", "/refunds", FIELDS)).isNotEqualTo(base);
	}

	@Test
	void cannotBeFooledByMovingCharactersBetweenNamesAndValues() {
		RequestFingerprint split = RequestFingerprint.of("POST", "/r", Map.of("a", "b:c"));

		RequestFingerprint shifted = RequestFingerprint.of("POST", "/r", Map.of("a:b", "c"));

		assertThat(split).isNotEqualTo(shifted);
	}

	@Test
	void rejectsAnythingButLowerCaseSha256Hex() {
		assertThatIllegalArgumentException().isThrownBy(() -> new RequestFingerprint("ABC"));
	}

	private static Map<String, String> with(String name, String value) {
		Map<String, String> fields = new LinkedHashMap<>(FIELDS);
		fields.put(name, value);
		return fields;
	}

}
