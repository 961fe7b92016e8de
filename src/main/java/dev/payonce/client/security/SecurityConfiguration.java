package dev.payonce.client.security;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.core.env.Profiles;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;

import dev.payonce.client.ClientAdministration;
import dev.payonce.client.CurrentClient;
import dev.payonce.client.RateLimitProperties;
import dev.payonce.client.SecurityProperties;

/**
 * HTTP security: stateless bearer authentication, no session, no CSRF (no cookies are
 * ever read), no form or basic login. The payments API needs a client's API key, the
 * admin API the admin token, and only the health endpoint is public.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

	private static final Logger log = LoggerFactory.getLogger(SecurityConfiguration.class);

	@Bean
	SecurityFilterChain securityFilterChain(HttpSecurity http, ClientAdministration clients,
			SecurityProperties properties, RateLimitProperties rateLimit, JsonMapper json) {
		ProblemWriter problems = new ProblemWriter(json);
		BearerTokenFilter authentication = new BearerTokenFilter(clients, properties.adminToken(), problems);
		return http.csrf((csrf) -> csrf.disable())
			.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.httpBasic((basic) -> basic.disable())
			.formLogin((form) -> form.disable())
			.logout((logout) -> logout.disable())
			.requestCache((cache) -> cache.disable())
			.anonymous((anonymous) -> anonymous.disable())
			.addFilterBefore(authentication, AuthorizationFilter.class)
			.addFilterAfter(new RateLimitFilter(rateLimit, problems), BearerTokenFilter.class)
			.exceptionHandling(
					(exceptions) -> exceptions.authenticationEntryPoint(problems).accessDeniedHandler(problems))
			.authorizeHttpRequests((requests) -> requests.requestMatchers("/actuator/health", "/actuator/health/**")
				.permitAll()
				.requestMatchers("/actuator/**")
				.hasRole("ADMIN")
				.requestMatchers("/error", "/v3/api-docs", "/v3/api-docs/**", "/swagger-ui.html", "/swagger-ui/**")
				.permitAll()
				// The benchmark baseline exists only in the bench profile; elsewhere this
				// is a 404.
				.requestMatchers("/bench/baseline")
				.permitAll()
				.requestMatchers("/admin/**")
				.hasRole("ADMIN")
				.requestMatchers("/payments", "/payments/**")
				.hasRole("CLIENT")
				.anyRequest()
				.authenticated())
			.build();
	}

	@Bean
	CurrentClient currentClient(ClientAdministration clients) {
		return new SecurityContextCurrentClient(clients);
	}

	@Bean
	InitializingBean adminTokenGuard(SecurityProperties properties, Environment environment) {
		return () -> {
			boolean local = environment.acceptsProfiles(Profiles.of("local"));
			AdminTokenPolicy.violation(properties.adminToken(), !local).ifPresent((violation) -> {
				// SettingsFailureAnalyzer turns this into a short start-up report.
				throw new IllegalStateException(violation);
			});
		};
	}

	@EventListener(ApplicationReadyEvent.class)
	void createDevelopmentClient(ApplicationReadyEvent event) {
		SecurityProperties properties = event.getApplicationContext().getBean(SecurityProperties.class);
		if (properties.devClient().enabled()) {
			event.getApplicationContext()
				.getBean(ClientAdministration.class)
				.ensure(SecurityProperties.DevClient.ID, "Development client", SecurityProperties.DevClient.KEY);
			log.warn("The development client {} is enabled with its published test key: never do this where real "
					+ "money moves (payonce.security.dev-client.enabled)", SecurityProperties.DevClient.ID);
		}
	}

}
