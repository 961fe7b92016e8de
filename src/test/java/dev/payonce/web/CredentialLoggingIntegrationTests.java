package dev.payonce.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

import dev.payonce.TestCredentials;
import dev.payonce.TestcontainersConfiguration;
import dev.payonce.payment.web.PaymentsApi;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No library logger can write a credential or an idempotency key, at any level
 * (docs/operations.md): with every logger that can print a request line, a header, a bind
 * parameter or a body turned up to TRACE, malformed and well-formed requests carrying
 * each secret leave none of them in the captured output.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "logging.level.org.apache.coyote=TRACE", "logging.level.org.apache.tomcat=TRACE",
				"logging.level.org.apache.catalina=TRACE", "logging.level.org.springframework.web=TRACE",
				"logging.level.org.springframework.security=TRACE", "logging.level.org.springframework.http=TRACE",
				"logging.level.org.springframework.jdbc=TRACE", "logging.level.org.hibernate.orm.jdbc.bind=TRACE",
				"logging.level.org.postgresql=TRACE", "spring.mvc.log-request-details=true" })
@Import(TestcontainersConfiguration.class)
@ExtendWith(OutputCaptureExtension.class)
class CredentialLoggingIntegrationTests {

	private static final int NONE = -1;

	private static final String BODY = "{\"orderId\":\"order-log\",\"amount\":1200,\"currency\":\"ILS\"}";

	@LocalServerPort
	int port;

	@Test
	void writesNoSecretOfMalformedOrValidRequestsAtAnyLevel(CapturedOutput output) throws IOException {
		PaymentsApi admin = new PaymentsApi(this.port, TestCredentials.ADMIN_TOKEN);
		String apiKey = admin
			.send(admin.request("/admin/clients")
				.header("Content-Type", "application/json")
				.POST(BodyPublishers.ofString("{\"name\":\"logged\"}")))
			.field("apiKey");
		String idempotencyKey = "idem" + UUID.randomUUID().toString().replace("-", "");
		List<String> secrets = List.of(apiKey, TestCredentials.ADMIN_TOKEN, TestCredentials.DEV_KEY, idempotencyKey);
		List<String> answers = new ArrayList<>();

		for (String secret : List.of(apiKey, TestCredentials.ADMIN_TOKEN)) {
			// A control byte at the end of the Authorization value: Tomcat refuses the
			// line.
			answers.add(send(request("Authorization: Bearer " + secret, 0x01, idempotencyKey)));
			// An obs-text byte: Tomcat accepts it, Spring Security's firewall refuses it.
			answers.add(send(request("Authorization: Bearer " + secret, 0x85, idempotencyKey)));
			// A header line without a colon.
			answers.add(send(request("Bearer " + secret, NONE, idempotencyKey)));
			// The secret in a malformed request target.
			answers.add(send(("GET /payments?token=" + secret + "{} HTTP/1.1\r\nHost: localhost\r\n\r\n")
				.getBytes(StandardCharsets.ISO_8859_1)));
			// Headers too large, the secret among them.
			answers.add(send(("POST /payments HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + secret
					+ "\r\nX-Padding: " + "p".repeat(20_000) + "\r\n\r\n")
				.getBytes(StandardCharsets.ISO_8859_1)));
		}
		answers.add(send(
				request("Authorization: Bearer " + TestCredentials.DEV_KEY + "\r\nIdempotency-Key: " + idempotencyKey,
						0x01, idempotencyKey + "-x")));
		// Well-formed requests: a payment with the key, and the admin API with the token.
		answers.add(send(request("Authorization: Bearer " + apiKey, NONE, idempotencyKey)));
		answers.add(send(
				("GET /admin/clients HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n" + "Authorization: Bearer "
						+ TestCredentials.ADMIN_TOKEN + "\r\n\r\n")
					.getBytes(StandardCharsets.ISO_8859_1)));

		assertThat(answers).allSatisfy((answer) -> assertThat(answer).startsWith("HTTP/1.1 "));
		assertThat(answers.get(answers.size() - 2)).startsWith("HTTP/1.1 201");
		assertThat(output.getAll()).contains("Tomcat started");
		List<String> leaks = output.getAll()
			.lines()
			.filter((line) -> secrets.stream().anyMatch(line::contains))
			.map((line) -> line.substring(0, Math.min(line.length(), 240)))
			.toList();
		assertThat(leaks).as("log lines carrying a secret").isEmpty();
	}

	/**
	 * {@code POST /payments} whose last header is {@code header} followed by
	 * {@code lastByte} unless that is {@link #NONE}.
	 */
	private static byte[] request(String header, int lastByte, String idempotencyKey) {
		ByteArrayOutputStream request = new ByteArrayOutputStream();
		byte[] body = BODY.getBytes(StandardCharsets.US_ASCII);
		request.writeBytes(("POST /payments HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
				+ "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\nIdempotency-Key: "
				+ idempotencyKey + "\r\nX-Last: 1\r\n" + header)
			.getBytes(StandardCharsets.ISO_8859_1));
		if (lastByte != NONE) {
			request.write(lastByte);
		}
		request.writeBytes("\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
		request.writeBytes(body);
		return request.toByteArray();
	}

	private String send(byte[] request) throws IOException {
		try (Socket socket = new Socket("localhost", this.port)) {
			socket.setSoTimeout(10_000);
			socket.getOutputStream().write(request);
			return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
		}
	}

}
