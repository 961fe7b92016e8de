package dev.payonce.refund.web;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;

import dev.payonce.payment.web.FieldError;
import dev.payonce.refund.RefundId;
import dev.payonce.web.ApiProblem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class RefundListParametersTests {

	@Test
	void defaultsToTheFirstPageOfTen() {
		RefundListParameters parameters = RefundListParameters.read(new LinkedMultiValueMap<>());

		assertThat(parameters.limit()).isEqualTo(10);
		assertThat(parameters.startingAfter()).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "1", "7", "010", "100" })
	void readsALimitFromOneToAHundred(String limit) {
		RefundListParameters parameters = RefundListParameters.read(query(Map.of("limit", List.of(limit))));

		assertThat(parameters.limit()).isEqualTo(Integer.parseInt(limit));
	}

	@ParameterizedTest
	@ValueSource(strings = { "0", "101", "-1", "+5", "1.5", "1e2", "abc", "", " 5", "0100", "99999999999999999999" })
	void refusesAnyOtherLimit(String limit) {
		assertThat(errors(query(Map.of("limit", List.of(limit)))))
			.containsExactly(new FieldError("limit", "must be an integer from 1 to 100"));
	}

	@Test
	void readsACanonicalRefundIdAsTheCursor() {
		UUID id = UUID.randomUUID();

		RefundListParameters parameters = RefundListParameters
			.read(query(Map.of("starting_after", List.of(id.toString()))));

		assertThat(parameters.startingAfter()).isEqualTo(new RefundId(id));
	}

	@ParameterizedTest
	@ValueSource(
			strings = { "", "re_1", "0F4B7D52-7F1E-4D0E-9B1A-2C3D4E5F6A7B", "f4b7d52-7f1e-4d0e-9b1a-2c3d4e5f6a7b" })
	void refusesACursorThatIsNotACanonicalRefundId(String cursor) {
		assertThat(errors(query(Map.of("starting_after", List.of(cursor))))).singleElement()
			.satisfies((error) -> assertThat(error.field()).isEqualTo("starting_after"));
	}

	@Test
	void refusesUnknownAndRepeatedParametersListingEveryError() {
		MultiValueMap<String, String> query = query(
				Map.of("startingAfter", List.of("x"), "limit", List.of("1", "2"), "x".repeat(100), List.of("1")));

		List<FieldError> errors = errors(query);

		assertThat(errors).extracting(FieldError::field)
			.containsExactlyInAnyOrder("startingAfter", "limit", "x".repeat(64) + "...");
		assertThat(errors).filteredOn((error) -> error.field().equals("limit"))
			.singleElement()
			.satisfies((error) -> assertThat(error.message()).isEqualTo("must be sent at most once"));
	}

	private static MultiValueMap<String, String> query(Map<String, List<String>> parameters) {
		return new LinkedMultiValueMap<>(parameters);
	}

	@SuppressWarnings("unchecked")
	private static List<FieldError> errors(MultiValueMap<String, String> query) {
		ApiProblem problem = catchThrowableOfType(ApiProblem.class, () -> RefundListParameters.read(query));
		assertThat(problem.getBody().getType().toString()).endsWith("/invalid-request");
		assertThat(problem.getStatusCode().value()).isEqualTo(400);
		return (List<FieldError>) problem.getBody().getProperties().get("errors");
	}

}
