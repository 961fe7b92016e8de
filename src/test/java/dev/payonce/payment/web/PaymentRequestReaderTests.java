package dev.payonce.payment.web;

import java.nio.charset.StandardCharsets;
import java.util.List;

import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

import dev.payonce.client.ClientId;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.RequestFingerprint;
import dev.payonce.provider.AmountLimits;
import dev.payonce.payment.PaymentCommand;
import dev.payonce.web.ApiProblem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Fingerprint canonicalisation at the request level: spelling does not change the
 * fingerprint, every business field does.
 */
class PaymentRequestReaderTests {

	private final ValidatorFactory validation = Validation.buildDefaultValidatorFactory();

	private final PaymentRequestReader reader = new PaymentRequestReader(JsonMapper.builder().build(),
			this.validation.getValidator(),
			StatedGateway.withLimits((currency) -> "KWD".equals(currency.getCurrencyCode())
					? new AmountLimits(10, 99_999_990) : AmountLimits.ANY));

	@AfterEach
	void close() {
		this.validation.close();
	}

	@Test
	void fingerprintIgnoresMemberOrderWhitespaceAndCurrencyCase() {
		RequestFingerprint compact = fingerprint("{\"orderId\":\"o-1\",\"amount\":1200,\"currency\":\"ILS\"}");

		RequestFingerprint spaced = fingerprint("""
				{
				  "currency" : "ils" ,
				  "amount"   : 1200,
				  "orderId"  : "o-1"
				}
				""");

		assertThat(spaced).isEqualTo(compact);
	}

	@Test
	void fingerprintTreatsOmittedPaymentMethodAsTheDefault() {
		RequestFingerprint omitted = fingerprint("{\"orderId\":\"o-1\",\"amount\":1200,\"currency\":\"ILS\"}");

		RequestFingerprint explicit = fingerprint(
				"{\"orderId\":\"o-1\",\"amount\":1200,\"currency\":\"ILS\",\"paymentMethod\":\"pm_card_visa\"}");

		assertThat(explicit).isEqualTo(omitted);
	}

	@ParameterizedTest
	@ValueSource(strings = { "orderId", "amount", "currency", "paymentMethod" })
	void rejectsJsonNullForEveryMemberNamingIt(String field) {
		String body = "{\"orderId\":\"o-1\",\"amount\":1200,\"currency\":\"ILS\",\"paymentMethod\":\"pm_card_visa\"}"
			.replaceFirst("\"" + field + "\":(\"[^\"]*\"|\\d+)", "\"" + field + "\":null");

		assertThatExceptionOfType(ApiProblem.class).isThrownBy(() -> read(body))
			.satisfies((problem) -> assertThat(problem.getBody().getProperties().get("errors").toString())
				.contains("field=" + field + ", message=" + PaymentRequestReader.NOT_NULL));
	}

	@Test
	void fingerprintChangesWithEveryBusinessField() {
		RequestFingerprint base = fingerprint("{\"orderId\":\"o-1\",\"amount\":1200,\"currency\":\"ILS\"}");

		assertThat(fingerprint("{\"orderId\":\"o-2\",\"amount\":1200,\"currency\":\"ILS\"}")).isNotEqualTo(base);
		assertThat(fingerprint("{\"orderId\":\"o-1\",\"amount\":1201,\"currency\":\"ILS\"}")).isNotEqualTo(base);
		assertThat(fingerprint("{\"orderId\":\"o-1\",\"amount\":1200,\"currency\":\"USD\"}")).isNotEqualTo(base);
		assertThat(fingerprint(
				"{\"orderId\":\"o-1\",\"amount\":1200,\"currency\":\"ILS\",\"paymentMethod\":\"pm_card_mastercard\"}"))
			.isNotEqualTo(base);
	}

	@Test
	void keepsAmountExactInMinorUnitsAtTheMaximum() {
		PaymentCommand command = read("{\"orderId\":\"o-1\",\"amount\":99999999999,\"currency\":\"jpy\"}");

		assertThat(command.amount().minorUnits()).isEqualTo(99_999_999_999L);
		assertThat(command.amount().currency().getCurrencyCode()).isEqualTo("JPY");
	}

	@ParameterizedTest
	@ValueSource(strings = { "12.5", "1200.0", "1e3", "1E3", "\"1200\"", "-1", "0", "100000000000",
			"18446744073709551617", "true", "[1200]", "{}" })
	void rejectsEveryAmountThatIsNotAnIntegerInRange(String amount) {
		assertThatExceptionOfType(ApiProblem.class)
			.isThrownBy(() -> read("{\"orderId\":\"o-1\",\"amount\":" + amount + ",\"currency\":\"ILS\"}"))
			.satisfies((problem) -> assertThat(problem.getBody().getProperties()).containsKey("errors"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "0", "100000000000" })
	void namesTheRangeOfAnAmountOutsideItOnceFromTheReader(String amount) {
		assertThatExceptionOfType(ApiProblem.class)
			.isThrownBy(() -> read("{\"orderId\":\"o-1\",\"amount\":" + amount + ",\"currency\":\"ILS\"}"))
			.satisfies((problem) -> assertThat(problem.getBody().getProperties().get("errors"))
				.isEqualTo(List.of(new FieldError("amount", "must be between 1 and 99999999999 (minor units)"))));
	}

	@Test
	void refusesADuplicateMemberAsInvalidJsonOfTheWholeBody() {
		assertThatExceptionOfType(ApiProblem.class)
			.isThrownBy(() -> read("{\"orderId\":\"o-1\",\"amount\":1,\"amount\":1200,\"currency\":\"ILS\"}"))
			.satisfies((problem) -> {
				assertThat(problem.getBody().getType()).hasToString("https://payonce.dev/problems/invalid-request");
				assertThat(problem.getBody().getProperties().get("errors")).asInstanceOf(InstanceOfAssertFactories.LIST)
					.singleElement()
					.satisfies((error) -> {
						assertThat(((FieldError) error).field()).isEmpty();
						assertThat(((FieldError) error).message()).endsWith(": duplicate field");
					});
			});
	}

	@Test
	void doesNotCallAMalformedBodyADuplicate() {
		assertThatExceptionOfType(ApiProblem.class).isThrownBy(() -> read("{\"orderId\":"))
			.satisfies((problem) -> assertThat(problem.getBody().getProperties().get("errors"))
				.asInstanceOf(InstanceOfAssertFactories.LIST)
				.singleElement()
				.satisfies((error) -> assertThat(((FieldError) error).message()).doesNotContain("duplicate")));
	}

	@Test
	void reportsEveryErrorAtOnce() {
		assertThatExceptionOfType(ApiProblem.class)
			.isThrownBy(() -> read("{\"orderId\":\"\",\"amount\":1.5,\"currency\":\"XYZ\",\"extra\":1}"))
			.satisfies((problem) -> assertThat(problem.getBody().getProperties().get("errors").toString())
				.contains("orderId", "amount", "currency", "extra"));
	}

	@Test
	void refusesAnAmountTheProviderCannotTakeInItsCurrency() {
		assertThatExceptionOfType(ApiProblem.class)
			.isThrownBy(() -> read("{\"orderId\":\"o-1\",\"amount\":5125,\"currency\":\"kwd\"}"))
			.satisfies((problem) -> {
				assertThat(problem.getStatusCode().value()).isEqualTo(400);
				assertThat(problem.getBody().getType())
					.hasToString("https://payonce.dev/problems/amount-not-supported");
				assertThat(problem.getBody().getProperties()).containsEntry("currency", "KWD")
					.containsEntry("amount", 5125L)
					.containsEntry("multipleOf", 10L)
					.containsEntry("maximumAmount", 99_999_990L);
				assertThat(problem.getBody().getDetail()).contains("Nothing was stored or charged");
			});
	}

	@Test
	void acceptsAnAmountWithinTheProvidersLimits() {
		assertThat(read("{\"orderId\":\"o-1\",\"amount\":5120,\"currency\":\"KWD\"}").amount().minorUnits())
			.isEqualTo(5120);
		assertThat(read("{\"orderId\":\"o-1\",\"amount\":5125,\"currency\":\"USD\"}").amount().minorUnits())
			.isEqualTo(5125);
	}

	private RequestFingerprint fingerprint(String json) {
		return read(json).fingerprint();
	}

	private PaymentCommand read(String json) {
		return this.reader.read(new ClientId("test"), new IdempotencyKey("k"), json.getBytes(StandardCharsets.UTF_8));
	}

}
