package dev.payonce.client.security;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.observation.SecurityObservationSettings;

/**
 * Spring Security records no observations of its own: no span or timer per security
 * filter, per authentication or per authorization decision. With an observation registry
 * present (the actuator's), Spring Security otherwise wraps every filter of the chain in
 * an observation decorator on every request, which cost about a tenth of the JVM's CPU
 * per payment (docs/performance.md) and feeds no series that the alert rules or the
 * dashboard read ({@code ops/}). The HTTP server observation
 * ({@code http.server.requests}) is Spring MVC's and stays.
 */
@Configuration(proxyBeanMethods = false)
class SecurityObservations {

	@Bean
	SecurityObservationSettings securityObservationSettings() {
		return SecurityObservationSettings.noObservations();
	}

}
