package dev.payonce.payment.web;

import org.junit.jupiter.api.Test;

import dev.payonce.client.ClientId;
import dev.payonce.client.CurrentClient;
import dev.payonce.provider.PaymentGateway;
import dev.payonce.web.ApiProblem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * One mode per adapter (docs/design.md section 5): a client's API key must be of the
 * gateway's mode; a gateway of no mode (the simulator) takes either.
 */
class KeyModeTests {

	@Test
	void refusesATestKeyOnALiveGateway() {
		assertThatExceptionOfType(ApiProblem.class).isThrownBy(
				() -> KeyModeCheck.requireKeyMode(StatedGateway.ofMode(PaymentGateway.Mode.LIVE), new Caller(false)))
			.satisfies((problem) -> {
				assertThat(problem.getStatusCode().value()).isEqualTo(403);
				assertThat(problem.getBody().getType())
					.hasToString("https://payonce.dev/problems/api-key-mode-mismatch");
				assertThat(problem.getBody().getProperties()).containsEntry("keyMode", "test")
					.containsEntry("providerMode", "live");
			});
	}

	@Test
	void refusesALiveKeyOnATestGateway() {
		assertThatExceptionOfType(ApiProblem.class).isThrownBy(
				() -> KeyModeCheck.requireKeyMode(StatedGateway.ofMode(PaymentGateway.Mode.TEST), new Caller(true)));
	}

	@Test
	void acceptsAKeyOfTheGatewaysMode() {
		assertThatNoException().isThrownBy(
				() -> KeyModeCheck.requireKeyMode(StatedGateway.ofMode(PaymentGateway.Mode.LIVE), new Caller(true)));
		assertThatNoException().isThrownBy(
				() -> KeyModeCheck.requireKeyMode(StatedGateway.ofMode(PaymentGateway.Mode.TEST), new Caller(false)));
	}

	@Test
	void gatewayOfNoModeAcceptsKeysOfEither() {
		assertThatNoException()
			.isThrownBy(() -> KeyModeCheck.requireKeyMode(StatedGateway.ofMode(null), new Caller(true)));
		assertThatNoException()
			.isThrownBy(() -> KeyModeCheck.requireKeyMode(StatedGateway.ofMode(null), new Caller(false)));
	}

	private record Caller(boolean live) implements CurrentClient {

		@Override
		public ClientId clientId() {
			return new ClientId("cli_mode");
		}

		@Override
		public void confirmAuthorized() {
		}

	}

}
