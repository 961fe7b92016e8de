package dev.payonce.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * HTTP/1.1 over a raw socket, for requests no well-behaved client sends: header bytes
 * outside ASCII, a declared length with no body behind it, a body that stalls. Every
 * answer is checked against the served OpenAPI document ({@link OpenApiExchanges}).
 */
final class RawHttp {

	private RawHttp() {
	}

	/** ASCII text followed by raw bytes. */
	static byte[] bytes(String ascii, int... raw) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		out.writeBytes(ascii.getBytes(StandardCharsets.US_ASCII));
		for (int b : raw) {
			out.write(b);
		}
		return out.toByteArray();
	}

	static byte[] concat(byte[]... parts) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		for (byte[] part : parts) {
			out.writeBytes(part);
		}
		return out.toByteArray();
	}

	/**
	 * Sends the bytes and reads the answer until the server closes the connection or
	 * stays silent for the timeout; the output side stays open, so a missing body is
	 * never signalled by an end of stream.
	 * @return the response as ISO-8859-1 text
	 */
	static String exchange(int port, byte[] request, int timeoutMillis) throws IOException {
		try (Socket socket = new Socket("localhost", port)) {
			socket.setSoTimeout(timeoutMillis);
			socket.getOutputStream().write(request);
			socket.getOutputStream().flush();
			ByteArrayOutputStream response = new ByteArrayOutputStream();
			InputStream in = socket.getInputStream();
			byte[] buffer = new byte[8192];
			try {
				for (int n; (n = in.read(buffer)) != -1;) {
					response.write(buffer, 0, n);
				}
			}
			catch (SocketTimeoutException ex) {
				// Silent for the timeout: return what arrived.
			}
			String answer = response.toString(StandardCharsets.ISO_8859_1);
			OpenApiExchanges.checkRaw(port, request, answer);
			return answer;
		}
	}

	/** Sends the bytes and hangs up at once, without reading an answer. */
	static void sendAndHangUp(int port, byte[] request) throws IOException {
		try (Socket socket = new Socket("localhost", port)) {
			socket.setSoLinger(true, 0);
			socket.getOutputStream().write(request);
			socket.getOutputStream().flush();
		}
	}

}
