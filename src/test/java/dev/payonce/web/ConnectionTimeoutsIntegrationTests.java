package dev.payonce.web;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tomcat's connection and keep-alive timeouts are in force on the real server
 * (docs/design.md section 2): a connection that sends nothing, one that stops in the
 * middle of its headers, and an idle kept-alive connection are each closed by the server
 * once their timeout has passed, not held open (shortened here to 1 s and 2 s by
 * {@link WebEdgeSettings}; production values in application.properties). Each is closed
 * no sooner than three quarters of its timeout (Tomcat checks timeouts on its poller's
 * cycle, not to the millisecond) and within six seconds after it.
 */
@WebEdgeSettings
class ConnectionTimeoutsIntegrationTests {

	/** Far above every timeout under test: reaching it means the server held on. */
	private static final int GIVE_UP_MILLIS = 15_000;

	private static final Duration CONNECTION_TIMEOUT = Duration.ofMillis(WebEdgeSettings.CONNECTION_TIMEOUT_MILLIS);

	private static final Duration KEEP_ALIVE_TIMEOUT = Duration.ofMillis(WebEdgeSettings.KEEP_ALIVE_TIMEOUT_MILLIS);

	@LocalServerPort
	int port;

	@Test
	void closesAConnectionThatSendsNothingAfterTheConnectionTimeout() throws IOException {
		try (Socket socket = connect()) {

			Duration open = untilClosed(socket);

			assertThat(open).isBetween(earliest(CONNECTION_TIMEOUT), latest(CONNECTION_TIMEOUT));
		}
	}

	@Test
	void closesAConnectionThatStopsInTheMiddleOfItsHeaders() throws IOException {
		try (Socket socket = connect()) {
			socket.getOutputStream()
				.write("POST /payments HTTP/1.1\r\nHost: localhost\r\nContent-Type: appl"
					.getBytes(StandardCharsets.US_ASCII));

			Duration open = untilClosed(socket);

			assertThat(open).isBetween(earliest(CONNECTION_TIMEOUT), latest(CONNECTION_TIMEOUT));
		}
	}

	@Test
	void closesAnIdleKeptAliveConnectionAfterTheKeepAliveTimeout() throws IOException {
		try (Socket socket = connect()) {
			socket.getOutputStream()
				.write("GET /actuator/health HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
			String answer = readResponseHead(socket.getInputStream());

			Duration open = untilClosed(socket);

			assertThat(answer).startsWith("HTTP/1.1 200");
			assertThat(open).isBetween(earliest(KEEP_ALIVE_TIMEOUT), latest(KEEP_ALIVE_TIMEOUT))
				.as("closed by the keep-alive timeout, not the shorter connection timeout")
				.isGreaterThan(CONNECTION_TIMEOUT);
		}
	}

	private static Duration earliest(Duration timeout) {
		return timeout.multipliedBy(3).dividedBy(4);
	}

	private static Duration latest(Duration timeout) {
		return timeout.plusSeconds(6);
	}

	private Socket connect() throws IOException {
		Socket socket = new Socket("localhost", this.port);
		socket.setSoTimeout(GIVE_UP_MILLIS);
		return socket;
	}

	/** Reads until the server closes the connection; how long that took. */
	private static Duration untilClosed(Socket socket) throws IOException {
		long started = System.nanoTime();
		try {
			InputStream in = socket.getInputStream();
			while (in.read() != -1) {
				// Whatever the server says before closing (an error answer) is fine.
			}
		}
		catch (SocketTimeoutException ex) {
			return Duration.ofMillis(GIVE_UP_MILLIS);
		}
		catch (IOException ex) {
			// A reset is a close too.
		}
		return Duration.ofNanos(System.nanoTime() - started);
	}

	/** Reads one response's status line, headers and its Content-Length body. */
	private static String readResponseHead(InputStream in) throws IOException {
		StringBuilder head = new StringBuilder();
		while (!head.toString().endsWith("\r\n\r\n")) {
			int b = in.read();
			if (b == -1) {
				break;
			}
			head.append((char) b);
		}
		String text = head.toString();
		int at = text.toLowerCase().indexOf("content-length:");
		if (at >= 0) {
			int length = Integer.parseInt(text.substring(at + 15, text.indexOf("\r\n", at)).strip());
			in.readNBytes(length);
		}
		return text;
	}

}
