package io.payonce.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The caller's process killed between attempts: its first attempt reaches the service,
 * which charges, and the answer is lost; the process is killed (SIGKILL) while it waits
 * to retry; a new process takes over the order. With the key stored before the first
 * attempt the new process gets the stored answer and the ledger holds one charge. The
 * control, a new key per call (what a random key per call does), charges twice: the proof
 * can tell the difference.
 */
class CrashProofIntegrationTests {

	@Test
	void newProcessRetryingWithTheStoredKeyChargesOnce() throws Exception {
		PayonceService service = PayonceService.shared();
		String orderId = "crash-" + UUID.randomUUID();

		List<String> resumed = killBetweenAttemptsThenResume(service, orderId, "stored-key");

		assertThat(resumed).anySatisfy((line) -> assertThat(line).startsWith("approved ").endsWith("replayed=true"));
		assertThat(charges(service, orderId)).as("ledger charges of the order").isEqualTo(1);
	}

	@Test
	void newKeyPerCallChargesTwiceAfterTheSameCrash() throws Exception {
		PayonceService service = PayonceService.shared();
		String orderId = "crash-control-" + UUID.randomUUID();

		List<String> resumed = killBetweenAttemptsThenResume(service, orderId, "new-key-per-call");

		assertThat(resumed).anySatisfy((line) -> assertThat(line).startsWith("approved ").endsWith("replayed=false"));
		assertThat(charges(service, orderId)).as("ledger charges of the order").isEqualTo(2);
	}

	private List<String> killBetweenAttemptsThenResume(PayonceService service, String orderId, String mode)
			throws Exception {
		Path orderStore = Files.createTempFile("order-store", ".key");
		Files.delete(orderStore);
		AtomicBoolean firstDropped = new AtomicBoolean();
		// The first request of the order reaches the service, and its answer is lost.
		try (FaultProxy proxy = new FaultProxy(URI.create(service.baseUrl()).getPort(), java.time.Duration.ZERO,
				(request) -> (orderId.equals(request.orderId()) && firstDropped.compareAndSet(false, true))
						? FaultProxy.Fault.DROP_RESPONSE : FaultProxy.Fault.NONE)) {
			Process first = checkout(proxy.baseUrl(), orderId, orderStore, mode);
			BlockingQueue<String> firstOutput = lines(first);
			String line = firstOutput.poll(120, TimeUnit.SECONDS);
			assertThat(line).as("the first process, between its attempts").isEqualTo(CheckoutProcess.BETWEEN_ATTEMPTS);
			assertThat(charges(service, orderId)).as("charged by the first attempt").isEqualTo(1);

			first.destroyForcibly();
			assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
			Process second = checkout(proxy.baseUrl(), orderId, orderStore, mode);
			second.getOutputStream().close();
			assertThat(second.waitFor(120, TimeUnit.SECONDS)).as("the new process ends").isTrue();

			assertThat(second.exitValue()).isZero();
			List<String> keys = proxy.exchanges().stream().map((exchange) -> exchange.request().key()).toList();
			assertThat(keys).hasSize(2);
			if ("stored-key".equals(mode)) {
				assertThat(keys.get(1)).as("the key the new process sent").isEqualTo(keys.get(0));
			}
			else {
				assertThat(keys.get(1)).as("the key the new process sent").isNotEqualTo(keys.get(0));
			}
			return new BufferedReader(new InputStreamReader(second.getInputStream(), StandardCharsets.UTF_8)).lines()
				.toList();
		}
		finally {
			Files.deleteIfExists(orderStore);
		}
	}

	private static Process checkout(String baseUrl, String orderId, Path orderStore, String mode) throws IOException {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		return new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-Xmx64m", "-cp",
				System.getProperty("java.class.path"), CheckoutProcess.class.getName(), baseUrl, PayonceService.DEV_KEY,
				orderId, orderStore.toString(), mode)
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
	}

	private static BlockingQueue<String> lines(Process process) {
		BlockingQueue<String> lines = new LinkedBlockingQueue<>();
		Thread.ofVirtual().start(() -> {
			try (BufferedReader reader = new BufferedReader(
					new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
				reader.lines().forEach(lines::add);
			}
			catch (IOException ex) {
				// The process was killed.
			}
		});
		return lines;
	}

	private static long charges(PayonceService service, String orderId) {
		return service.count("""
				SELECT count(*) FROM simulated_provider_charges c
				JOIN payments p ON c.provider_idempotency_key = 'payonce-payment-' || p.id
				WHERE p.order_id = ?""", orderId);
	}

}
