package dev.payonce.event.web;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;

import com.sun.net.httpserver.HttpServer;

/**
 * A webhook receiver on 127.0.0.1 (the JDK's HTTP server): records every request it gets
 * with its headers and body, and answers 500 to the attempts a test chooses to fail.
 */
final class Receiver implements AutoCloseable {

	private final HttpServer server;

	private final List<Received> received = new CopyOnWriteArrayList<>();

	private final Map<String, AtomicInteger> attemptsById = new ConcurrentHashMap<>();

	private volatile IntPredicate fails = (attempt) -> false;

	Receiver() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		this.server.createContext("/hook", (exchange) -> {
			byte[] body;
			try (InputStream in = exchange.getRequestBody()) {
				body = in.readAllBytes();
			}
			String id = exchange.getRequestHeaders().getFirst("webhook-id");
			int attempt = this.attemptsById.computeIfAbsent(String.valueOf(id), (key) -> new AtomicInteger())
				.incrementAndGet();
			int status = this.fails.test(attempt) ? 500 : 204;
			this.received.add(new Received(Map.copyOf(exchange.getRequestHeaders()),
					new String(body, StandardCharsets.UTF_8), attempt, status));
			exchange.sendResponseHeaders(status, -1);
			exchange.close();
		});
		this.server.start();
	}

	/** The URL deliveries go to. */
	String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort() + "/hook";
	}

	/**
	 * Fails the attempts of each event id that {@code fails} chooses (1 is the first).
	 */
	void failing(IntPredicate fails) {
		this.fails = fails;
	}

	List<Received> received() {
		return List.copyOf(this.received);
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

	/** One request as received. */
	record Received(Map<String, List<String>> headers, String body, int attempt, int answered) {

		String header(String name) {
			for (Map.Entry<String, List<String>> entry : this.headers.entrySet()) {
				if (entry.getKey().equalsIgnoreCase(name)) {
					return entry.getValue().get(0);
				}
			}
			return null;
		}

	}

}
