package dev.payonce.client.security;

import java.io.IOException;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.core.env.Profiles;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.security.web.firewall.StrictHttpFirewall;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.payonce.client.ClientAdministration;
import dev.payonce.client.CurrentClient;
import dev.payonce.client.RateLimitProperties;
import dev.payonce.client.ReadLimitProperties;
import dev.payonce.client.SecurityProperties;

/**
 * HTTP security: stateless bearer authentication, no session, no CSRF (no cookies are
 * ever read), no form or basic login. The payments API needs a client's API key, the
 * admin API the admin token, and only the health endpoint and the signed provider webhook
 * ({@code POST /webhooks/stripe}) are public.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

	private static final Logger log = LoggerFactory.getLogger(SecurityConfiguration.class);

	@Bean
	SecurityFilterChain securityFilterChain(HttpSecurity http, ClientAdministration clients,
			SecurityProperties properties, RateLimitProperties rateLimit, ReadLimitProperties readLimit,
			DataSource dataSource) {
		ProblemWriter problems = new ProblemWriter();
		BearerTokenFilter authentication = new BearerTokenFilter(clients, properties.adminToken(), problems);
		return http.csrf((csrf) -> csrf.disable())
			.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.httpBasic((basic) -> basic.disable())
			.formLogin((form) -> form.disable())
			.logout((logout) -> logout.disable())
			.requestCache((cache) -> cache.disable())
			.anonymous((anonymous) -> anonymous.disable())
			.addFilterBefore(authentication, AuthorizationFilter.class)
			.addFilterAfter(new RateLimitFilter(rateLimit), BearerTokenFilter.class)
			.addFilterAfter(readLimitFilter(readLimit, dataSource), RateLimitFilter.class)
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
				// Authenticated by the provider's signature (gateway.stripe), not an API
				// key; a 404 unless that provider is configured.
				.requestMatchers(HttpMethod.POST, "/webhooks/stripe")
				.permitAll()
				.requestMatchers("/admin/**")
				.hasRole("ADMIN")
				.requestMatchers("/payments", "/payments/**", "/events", "/events/**", "/webhook-endpoints",
						"/webhook-endpoints/**")
				.hasRole("CLIENT")
				.anyRequest()
				.authenticated())
			.build();
	}

	/**
	 * The read bulkhead, sized from the connection pool unless set (docs/design.md
	 * section 13); a pass-through when disabled.
	 */
	private static OncePerRequestFilter readLimitFilter(ReadLimitProperties readLimit, DataSource dataSource) {
		if (!readLimit.enabled()) {
			return new OncePerRequestFilter() {

				@Override
				protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response,
						FilterChain chain) throws ServletException, IOException {
					chain.doFilter(request, response);
				}

			};
		}
		int poolSize = (dataSource instanceof HikariDataSource hikari) ? hikari.getMaximumPoolSize()
				: new HikariConfig().getMaximumPoolSize();
		return new ReadLimitFilter(readLimit.perClient(), readLimit.totalFor(poolSize));
	}

	/**
	 * Spring Security's firewall, with one change: a header value may hold any octet
	 * Tomcat accepts (RFC 9110 field-vchar, obs-text included). The default refuses C1
	 * controls ({@code 0x80}-{@code 0x9F}, common in UTF-8 text read as ISO-8859-1) only
	 * when code first reads the header, which turned an emoji in any header into a 500.
	 * Payonce validates the headers it reads ({@code Idempotency-Key},
	 * {@code Authorization}) itself and ignores the rest.
	 */
	@Bean
	StrictHttpFirewall httpFirewall() {
		StrictHttpFirewall firewall = new StrictHttpFirewall();
		firewall
			.setAllowedHeaderValues((value) -> value.chars().noneMatch((c) -> (c < 0x20 && c != '\t') || c == 0x7F));
		return firewall;
	}

	/**
	 * Answers what the firewall refuses (a path parameter such as {@code ;x=1}, an
	 * encoded slash, {@code ..}, a method it does not know) as a problem.
	 */
	@Bean
	RequestRejectedHandler requestRejectedHandler() {
		return new ProblemWriter();
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
		else {
			// An earlier process with the flag on (the local profile) may have left the
			// published key active in this database.
			int revoked = event.getApplicationContext()
				.getBean(ClientAdministration.class)
				.revokeKeys(SecurityProperties.DevClient.ID);
			if (revoked > 0) {
				log.warn(
						"The development client {} was disabled: its published test key, left active by an earlier "
								+ "run, is revoked (payonce.security.dev-client.enabled is false)",
						SecurityProperties.DevClient.ID);
			}
		}
	}

}
