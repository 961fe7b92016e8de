package io.payonce.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An HTTP/1.1 proxy on 127.0.0.1 in front of the service that injects faults a client
 * meets on a real network, one request per client connection. For each request a
 * {@link Fault} is chosen by the test's plan, and:
 * <ul>
 * <li>{@link Fault#RESET_BEFORE}: the connection is reset before anything is forwarded
 * (the service never sees the request);</li>
 * <li>{@link Fault#DROP_RESPONSE}: the request is forwarded and the service answers, then
 * the connection is closed without a byte of the answer;</li>
 * <li>{@link Fault#RESET_AFTER}: the request is forwarded, half the answer is sent, then
 * the connection is reset;</li>
 * <li>{@link Fault#DELAY}: the request is forwarded and the answer is held for
 * {@code delay} (longer than the client's attempt timeout) before it is sent;</li>
 * <li>{@link Fault#NONE}: the answer is passed on at once.</li>
 * </ul>
 * Every request is recorded ({@link Exchange}) with its {@code Idempotency-Key}, the
 * {@code orderId} of its body, the service's status (if it was forwarded) and the fault.
 */
final class FaultProxy implements AutoCloseable {

	private static final Pattern ORDER_ID = Pattern.compile("\"orderId\"\\s*:\\s*\"([^\"]*)\"");

	private final ServerSocket server;

	private final int targetPort;

	private final Duration delay;

	private final Function<Request, Fault> plan;

	private final AtomicLong sequence = new AtomicLong();

	private final Queue<Exchange> exchanges = new ConcurrentLinkedQueue<>();

	FaultProxy(int targetPort, Duration delay, Function<Request, Fault> plan) throws IOException {
		this.server = new ServerSocket();
		this.server.bind(new InetSocketAddress("127.0.0.1", 0), 200);
		this.targetPort = targetPort;
		this.delay = delay;
		this.plan = plan;
		Thread.ofPlatform().daemon().name("fault-proxy").start(this::accept);
	}

	String baseUrl() {
		return "http://127.0.0.1:" + this.server.getLocalPort();
	}

	/** Every request so far, in the order they arrived. */
	List<Exchange> exchanges() {
		List<Exchange> all = new ArrayList<>(this.exchanges);
		all.sort((a, b) -> Long.compare(a.sequence(), b.sequence()));
		return all;
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket client = this.server.accept();
				Thread.ofVirtual().start(() -> handle(client));
			}
			catch (IOException ex) {
				// Closed.
			}
		}
	}

	private void handle(Socket client) {
		try (client) {
			InputStream in = client.getInputStream();
			byte[] head = readHead(in);
			if (head == null) {
				return;
			}
			String headText = new String(head, StandardCharsets.ISO_8859_1);
			String[] lines = headText.split("\r\n");
			String key = header(lines, "idempotency-key");
			int length = Integer.parseInt(headerOr(lines, "content-length", "0"));
			byte[] body = in.readNBytes(length);
			Matcher order = ORDER_ID.matcher(new String(body, StandardCharsets.UTF_8));
			Request request = new Request(this.sequence.incrementAndGet(), lines[0].split(" ")[0],
					lines[0].split(" ")[1], key, order.find() ? order.group(1) : null);
			Fault fault = this.plan.apply(request);
			if (fault == Fault.RESET_BEFORE) {
				this.exchanges.add(new Exchange(request, fault, 0));
				reset(client);
				return;
			}
			byte[] response = forward(lines, body);
			int status = Integer.parseInt(new String(response, 9, 3, StandardCharsets.ISO_8859_1));
			this.exchanges.add(new Exchange(request, fault, status));
			OutputStream out = client.getOutputStream();
			switch (fault) {
				case DROP_RESPONSE -> {
					// try-with-resources closes the connection with no answer.
				}
				case RESET_AFTER -> {
					out.write(response, 0, response.length / 2);
					out.flush();
					reset(client);
				}
				case DELAY -> {
					Thread.sleep(this.delay);
					out.write(response);
					out.flush();
				}
				default -> {
					out.write(response);
					out.flush();
				}
			}
		}
		catch (IOException | InterruptedException | RuntimeException ex) {
			// The client went away (it timed out), or a connection was reset on purpose.
		}
	}

	/**
	 * Sends the request to the service on a connection of its own and reads the whole
	 * answer.
	 */
	private byte[] forward(String[] lines, byte[] body) throws IOException {
		try (Socket target = new Socket("127.0.0.1", this.targetPort)) {
			StringBuilder head = new StringBuilder(lines[0]).append("\r\n");
			for (int i = 1; i < lines.length; i++) {
				String name = lines[i].substring(0, Math.max(0, lines[i].indexOf(':'))).toLowerCase(Locale.ROOT);
				if (!name.equals("connection") && !name.equals("upgrade") && !name.equals("http2-settings")) {
					head.append(lines[i]).append("\r\n");
				}
			}
			head.append("Connection: close\r\n\r\n");
			OutputStream out = target.getOutputStream();
			out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
			out.write(body);
			out.flush();
			return target.getInputStream().readAllBytes();
		}
	}

	private static byte[] readHead(InputStream in) throws IOException {
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		int last = 0;
		while (last != 0x0D0A0D0A) {
			int b = in.read();
			if (b < 0) {
				return null;
			}
			head.write(b);
			last = (last << 8) | b;
			if (head.size() > 65_536) {
				throw new IOException("Request head too large");
			}
		}
		byte[] bytes = head.toByteArray();
		return java.util.Arrays.copyOf(bytes, bytes.length - 4);
	}

	private static String header(String[] lines, String name) {
		return headerOr(lines, name, null);
	}

	private static String headerOr(String[] lines, String name, String fallback) {
		for (int i = 1; i < lines.length; i++) {
			int colon = lines[i].indexOf(':');
			if (colon > 0 && lines[i].substring(0, colon).trim().equalsIgnoreCase(name)) {
				return lines[i].substring(colon + 1).trim();
			}
		}
		return fallback;
	}

	private static void reset(Socket socket) throws IOException {
		socket.setSoLinger(true, 0);
		socket.close();
	}

	@Override
	public void close() throws IOException {
		this.server.close();
	}

	/** What the proxy does to one request. */
	enum Fault {

		NONE, RESET_BEFORE, DROP_RESPONSE, RESET_AFTER, DELAY

	}

	/**
	 * A request as the proxy read it.
	 *
	 * @param sequence the order of arrival, from 1
	 * @param method the method
	 * @param target the request target
	 * @param key the {@code Idempotency-Key} header, or null
	 * @param orderId the body's {@code orderId}, or null
	 */
	record Request(long sequence, String method, String target, String key, String orderId) {

	}

	/**
	 * One request and what became of it.
	 *
	 * @param request the request
	 * @param fault the fault injected
	 * @param status the service's status, 0 if the request was not forwarded
	 */
	record Exchange(Request request, Fault fault, int status) {

		long sequence() {
			return this.request.sequence();
		}

		/** Whether the client got the whole answer in time to act on it. */
		boolean delivered() {
			return this.fault == Fault.NONE;
		}

	}

}
