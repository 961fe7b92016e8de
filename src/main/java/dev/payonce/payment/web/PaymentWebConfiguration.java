package dev.payonce.payment.web;

import java.util.List;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import dev.payonce.client.CurrentClient;
import dev.payonce.provider.PaymentGateway;

/**
 * Lets the payments and refunds controllers take their validated command as an argument
 * (every {@link CommandArgumentResolver} bean), behind the API key's mode check
 * ({@link KeyModeCheck}).
 */
@Configuration(proxyBeanMethods = false)
class PaymentWebConfiguration implements WebMvcConfigurer {

	private final List<CommandArgumentResolver<?>> commands;

	private final PaymentGateway gateway;

	private final CurrentClient currentClient;

	PaymentWebConfiguration(List<CommandArgumentResolver<?>> commands, PaymentGateway gateway,
			CurrentClient currentClient) {
		this.commands = commands;
		this.gateway = gateway;
		this.currentClient = currentClient;
	}

	@Override
	public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
		resolvers.addAll(this.commands);
	}

	@Override
	public void addInterceptors(InterceptorRegistry registry) {
		registry.addInterceptor(new KeyModeCheck(this.gateway, this.currentClient, this.commands));
	}

}
