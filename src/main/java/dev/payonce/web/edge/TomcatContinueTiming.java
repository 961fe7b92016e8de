package dev.payonce.web.edge;

import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.stereotype.Component;

/**
 * Answers {@code Expect: 100-continue} only when the application starts reading the body
 * ({@code continueResponseTiming=onRead}) instead of as soon as the headers are parsed,
 * so a client is invited to send its body only after its credentials and headers passed,
 * and a refused request never costs the client an upload.
 */
@Component
class TomcatContinueTiming implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

	@Override
	public void customize(TomcatServletWebServerFactory factory) {
		factory.addConnectorCustomizers((connector) -> connector.setProperty("continueResponseTiming", "onRead"));
	}

}
