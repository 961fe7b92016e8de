package dev.payonce.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.payonce.TestCredentials;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The body-read timeout (docs/design.md section 2): a payment body trickled a byte every
 * 200 ms, each pause far below Tomcat's connection timeout, is cut at
 * {@code payonce.web.body-read-timeout} (2 s here, {@link WebEdgeSettings}) with a 408
 * problem, and nothing is claimed or charged.
 */
@WebEdgeSettings
class BodyReadTimeoutIntegrationTests {

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Test
	void cutsATrickledBodyAtTheReadTimeoutWith408AndChargesNothing() throws Exception {
		String key = "trickle-" + UUID.randomUUID();
		byte[] body = ("{\"orderId\":\"trickle\",\"amount\":1200,\"currency\":\"ILS\"}")
			.getBytes(StandardCharsets.US_ASCII);
		ExecutorService trickler = Executors.newSingleThreadExecutor();
		try (Socket socket = new Socket("localhost", this.port)) {
			socket.setSoTimeout(30_000);
			OutputStream out = socket.getOutputStream();
			InputStream in = socket.getInputStream();
			out.write(("POST /payments HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + TestCredentials.DEV_KEY
					+ "\r\nIdempotency-Key: " + key + "\r\nContent-Type: application/json\r\nContent-Length: "
					+ body.length + "\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			long started = System.nanoTime();
			trickler.submit(() -> {
				for (byte b : body) {
					out.write(b);
					out.flush();
					// Pacing the client, as a slow client does: 200 ms a byte, about 10 s
					// for the whole body.
					Thread.sleep(200);
				}
				return null;
			});

			String answer = readHead(in);
			Duration took = Duration.ofNanos(System.nanoTime() - started);

			assertThat(answer).startsWith("HTTP/1.1 408").contains("application/problem+json");
			assertThat(readBody(in, answer)).contains("https://payonce.dev/problems/request-timeout");
			assertThat(took).isBetween(Duration.ofMillis(1900), Duration.ofSeconds(6));
		}
		finally {
			trickler.shutdownNow();
			trickler.awaitTermination(5, TimeUnit.SECONDS);
		}
		assertThat(this.jdbc.sql("SELECT count(*) FROM idempotency_records WHERE idempotency_key = ?")
			.param(key)
			.query(Long.class)
			.single()).isZero();
	}

	private static String readHead(InputStream in) throws IOException {
		StringBuilder head = new StringBuilder();
		while (!head.toString().endsWith("\r\n\r\n")) {
			int b = in.read();
			if (b == -1) {
				break;
			}
			head.append((char) b);
		}
		return head.toString();
	}

	/**
	 * The body after {@code head}: Content-Length bytes, or chunks up to the last one.
	 */
	private static String readBody(InputStream in, String head) throws IOException {
		int at = head.toLowerCase().indexOf("content-length:");
		if (at >= 0) {
			int length = Integer.parseInt(head.substring(at + 15, head.indexOf("\r\n", at)).strip());
			return new String(in.readNBytes(length), StandardCharsets.UTF_8);
		}
		StringBuilder chunks = new StringBuilder();
		while (!chunks.toString().endsWith("\r\n0\r\n\r\n")) {
			int b = in.read();
			if (b == -1) {
				break;
			}
			chunks.append((char) b);
		}
		return chunks.toString();
	}

}
