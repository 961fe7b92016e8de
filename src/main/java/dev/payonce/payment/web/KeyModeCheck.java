package dev.payonce.payment.web;

import java.util.Arrays;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

import dev.payonce.client.CurrentClient;
import dev.payonce.provider.PaymentGateway;

/**
 * Refuses a request that moves money (its handler takes a command a
 * {@link CommandArgumentResolver} resolves) when its API key is of the other mode than
 * the provider's, before its idempotency key or body is read and before anything is
 * stored (docs/design.md section 5, "One mode per adapter").
 */
final class KeyModeCheck implements HandlerInterceptor {

	private static final Logger log = LoggerFactory.getLogger(KeyModeCheck.class);

	private final PaymentGateway gateway;

	private final CurrentClient currentClient;

	private final List<CommandArgumentResolver<?>> commands;

	KeyModeCheck(PaymentGateway gateway, CurrentClient currentClient, List<CommandArgumentResolver<?>> commands) {
		this.gateway = gateway;
		this.currentClient = currentClient;
		this.commands = commands;
	}

	@Override
	public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
		if (handler instanceof HandlerMethod method && movesMoney(method, this.commands)) {
			requireKeyMode(this.gateway, this.currentClient);
		}
		return true;
	}

	/**
	 * Whether the handler moves money: it takes a command one of the resolvers resolves.
	 * @param method the handler
	 * @param commands every command resolver
	 * @return true for the handlers this check guards
	 */
	static boolean movesMoney(HandlerMethod method, List<CommandArgumentResolver<?>> commands) {
		return Arrays.stream(method.getMethodParameters())
			.anyMatch((parameter) -> commands.stream().anyMatch((command) -> command.supportsParameter(parameter)));
	}

	/**
	 * Refuses a request whose API key is of the other mode than the provider's.
	 * @param gateway the active provider
	 * @param currentClient the calling client
	 * @throws dev.payonce.web.ApiProblem 403 {@code api-key-mode-mismatch}
	 */
	static void requireKeyMode(PaymentGateway gateway, CurrentClient currentClient) {
		gateway.mode().ifPresent((providerMode) -> {
			PaymentGateway.Mode keyMode = PaymentGateway.Mode.ofKey(currentClient.live());
			if (keyMode != providerMode) {
				log.warn("Refused a request of client {} with a {} API key: the payment provider runs in {} mode",
						currentClient.clientId(), keyMode, providerMode);
				throw PaymentProblems.keyModeMismatch(keyMode, providerMode);
			}
		});
	}

}
