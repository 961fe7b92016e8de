package dev.payonce.payment.web;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;

import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Swagger UI is served in the {@code local} profile, without credentials; that it is not
 * served otherwise is a test of {@link ApiDocumentationIntegrationTests}. A class of its
 * own so that the profile's context is no nested class's: those would run the plain
 * configuration's tests apart from the other classes that share it.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(TestcontainersConfiguration.class)
@ActiveProfiles("local")
class SwaggerUiIntegrationTests {

	@LocalServerPort
	int port;

	@Test
	void servesSwaggerUiWithoutCredentials() {
		PaymentsApi api = new PaymentsApi(this.port);

		Reply page = api.sendWithoutKey(api.request("/swagger-ui/index.html").GET());

		assertThat(page.status()).isEqualTo(200);
		assertThat(page.body()).contains("Swagger UI");
	}

}
