package dev.payonce.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP forwarder in front of PostgreSQL that a test can cut: while cut, every open
 * connection is reset and every new one is closed at once, as an outage looks to the
 * application; {@link #restore()} lets connections through again. The real server is
 * never touched.
 */
public final class TcpProxy implements AutoCloseable {

	private final ServerSocket server;

	private final String targetHost;

	private final int targetPort;

	private final Set<Socket> open = ConcurrentHashMap.newKeySet();

	private volatile boolean cut;

	public TcpProxy(String targetHost, int targetPort) throws IOException {
		this.server = new ServerSocket();
		this.server.bind(new InetSocketAddress("127.0.0.1", 0));
		this.targetHost = targetHost;
		this.targetPort = targetPort;
		Thread.ofVirtual().name("tcp-proxy").start(this::accept);
	}

	public int port() {
		return this.server.getLocalPort();
	}

	/** Resets every open connection and refuses new ones until {@link #restore()}. */
	public void cut() {
		this.cut = true;
		for (Socket socket : this.open) {
			closeQuietly(socket);
		}
	}

	public void restore() {
		this.cut = false;
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket client = this.server.accept();
				if (this.cut) {
					closeQuietly(client);
					continue;
				}
				Socket target = new Socket(this.targetHost, this.targetPort);
				this.open.add(client);
				this.open.add(target);
				Thread.ofVirtual().start(() -> pump(client, target));
				Thread.ofVirtual().start(() -> pump(target, client));
			}
			catch (IOException ex) {
				// Closed, or the target refused: the client sees its connection end.
			}
		}
	}

	private void pump(Socket from, Socket to) {
		try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
			in.transferTo(out);
		}
		catch (IOException ex) {
			// One side ended: end the other.
		}
		finally {
			closeQuietly(from);
			closeQuietly(to);
			this.open.remove(from);
			this.open.remove(to);
		}
	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.setSoLinger(true, 0);
			socket.close();
		}
		catch (IOException ex) {
			// Already closed.
		}
	}

	@Override
	public void close() throws IOException {
		cut();
		this.server.close();
	}

}
