package dev.payonce.web;

import org.apache.coyote.http11.AbstractHttp11Protocol;

import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.stereotype.Component;

/**
 * Answers {@code Expect: 100-continue} only when the application reads the body (Tomcat's
 * {@code continueResponseTiming=onRead}; Spring Boot has no property for it). A request
 * refused before its body is read, such as a declared {@code Content-Length} over 16 KiB
 * ({@link BodySizeFilter}), gets its final answer without first being invited to send the
 * body, as RFC 9110 section 10.1.1 asks.
 */
@Component
class ExpectContinueTiming implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

	@Override
	public void customize(TomcatServletWebServerFactory factory) {
		factory.addConnectorCustomizers((connector) -> {
			if (connector.getProtocolHandler() instanceof AbstractHttp11Protocol<?> http) {
				http.setContinueResponseTiming("onRead");
			}
		});
	}

}
