package dev.payonce.generated;

import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

import dev.payonce.TestCredentials;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.generated.client.ApiClient;
import dev.payonce.generated.client.ApiException;
import dev.payonce.generated.client.ApiResponse;
import dev.payonce.generated.client.api.AdminApi;
import dev.payonce.generated.client.api.PaymentsApi;
import dev.payonce.generated.client.model.ClientWithApiKey;
import dev.payonce.generated.client.model.CreateClientRequest;
import dev.payonce.generated.client.model.Payment;
import dev.payonce.generated.client.model.PaymentRequest;
import dev.payonce.generated.client.model.PaymentStatus;
import dev.payonce.generated.client.model.Problem;
import dev.payonce.web.ValidatingHttpClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A Java client generated from {@code docs/openapi.json} by the build
 * ({@code openapi-generator-maven-plugin}, library {@code native}, with the options that
 * tolerate new members and new enum values) drives the whole flow against the real
 * service, with no hand-written glue: the admin creates a client, the client pays, the
 * retry is a replay marked by its header, a different request with the key is a typed 422
 * problem, a declined card a typed 402 problem, and the payment and the client list read
 * back as typed models.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
class GeneratedClientIntegrationTests {

	@LocalServerPort
	int port;

	AdminApi admin;

	@BeforeEach
	void setUp() {
		this.admin = new AdminApi(client(TestCredentials.ADMIN_TOKEN));
	}

	@Test
	void drivesTheWholeFlowWithTypedModelsProblemsAndReplayHeader() throws ApiException {
		ApiResponse<ClientWithApiKey> created = this.admin
			.createClientWithHttpInfo(new CreateClientRequest().name("Generated client"));
		ApiClient payments = client(created.getData().getApiKey());
		PaymentsApi api = new PaymentsApi(payments);
		String key = "generated-" + UUID.randomUUID();
		PaymentRequest request = new PaymentRequest().orderId("gen-1").amount(1200L).currency("ILS");

		ApiResponse<Payment> paid = api.createPaymentWithHttpInfo(key, request);
		ApiResponse<Payment> replayed = api.createPaymentWithHttpInfo(key, request);
		ApiException reused = catchThrowableOfType(ApiException.class,
				() -> api.createPayment(key, new PaymentRequest().orderId("gen-1").amount(9900L).currency("ILS")));
		ApiException declined = catchThrowableOfType(ApiException.class,
				() -> api.createPayment("generated-" + UUID.randomUUID(),
						new PaymentRequest().orderId("gen-2")
							.amount(500L)
							.currency("USD")
							.paymentMethod("pm_card_chargeDeclined")));
		Payment read = api.getPayment(paid.getData().getId());

		assertThat(created.getStatusCode()).isEqualTo(201);
		assertThat(created.getHeaders().get("location")).containsExactly("/admin/clients/" + created.getData().getId());
		assertThat(created.getData().getApiKey()).startsWith("sk_test_");
		assertThat(created.getData().getDisabledAt()).isNull();
		assertThat(paid.getStatusCode()).isEqualTo(201);
		assertThat(paid.getData().getStatus()).isEqualTo(PaymentStatus.SUCCEEDED);
		assertThat(paid.getData().getAmount()).isEqualTo(1200L);
		assertThat(paid.getHeaders()).doesNotContainKey("idempotent-replayed");
		assertThat(replayed.getStatusCode()).isEqualTo(201);
		assertThat(replayed.getHeaders().get("idempotent-replayed")).containsExactly("true");
		assertThat(replayed.getData()).isEqualTo(paid.getData());
		assertThat(reused.getCode()).isEqualTo(422);
		assertThat(problem(payments, reused).getType().toString())
			.isEqualTo("https://payonce.dev/problems/idempotency-key-reused");
		assertThat(declined.getCode()).isEqualTo(402);
		Problem declinedProblem = problem(payments, declined);
		assertThat(declinedProblem.getType().toString()).isEqualTo("https://payonce.dev/problems/payment-declined");
		assertThat(declinedProblem.getDeclineCode()).isEqualTo("card_declined");
		assertThat(declinedProblem.getPaymentId()).isNotNull();
		assertThat(read).isEqualTo(paid.getData());
		assertThat(this.admin.listClients()).anySatisfy((client) -> {
			assertThat(client.getId()).isEqualTo(created.getData().getId());
			assertThat(client.getCreatedAt()).isEqualTo(created.getData().getCreatedAt());
		});
	}

	@Test
	void readsAnUnknownPaymentAsATypedNotFoundProblem() {
		ApiClient client = client(TestCredentials.DEV_KEY);
		PaymentsApi api = new PaymentsApi(client);

		ApiException missing = catchThrowableOfType(ApiException.class, () -> api.getPayment(UUID.randomUUID()));

		assertThat(missing.getCode()).isEqualTo(404);
		assertThat(problem(client, missing).getType().toString())
			.isEqualTo("https://payonce.dev/problems/payment-not-found");
	}

	private ApiClient client(String bearer) {
		ApiClient client = new ApiClient();
		client.setHttpClientBuilder(ValidatingHttpClient.builder());
		client.updateBaseUri("http://localhost:" + this.port);
		client.setRequestInterceptor((request) -> request.header("Authorization", "Bearer " + bearer));
		return client;
	}

	/** The generated Problem model, read with the generated client's own mapper. */
	private static Problem problem(ApiClient client, ApiException ex) {
		try {
			return client.getObjectMapper().readValue(ex.getResponseBody(), Problem.class);
		}
		catch (com.fasterxml.jackson.core.JsonProcessingException failure) {
			throw new AssertionError("The problem body does not read as the generated Problem", failure);
		}
	}

}
