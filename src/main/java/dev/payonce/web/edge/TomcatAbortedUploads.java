package dev.payonce.web.edge;

import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.stereotype.Component;

/**
 * Closes the connection of a {@code 413} at once instead of reading the refused body
 * ({@code swallowAbortedUploads=false}; docs/design.md section 2, "413"). Tomcat
 * otherwise reads, after any answer with status 413, up to
 * {@code server.tomcat.max-swallow-size} (2 MB) of the body still to come, to keep the
 * connection: a client that declared {@code Content-Length: 50000000} and sent a few
 * bytes held its connection until the connection timeout. {@link BodySizeFilter} already
 * says {@code Connection: close}, so nothing is kept by not reading.
 */
@Component
class TomcatAbortedUploads implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

	@Override
	public void customize(TomcatServletWebServerFactory factory) {
		factory.addContextCustomizers((context) -> context.setSwallowAbortedUploads(false));
	}

}
