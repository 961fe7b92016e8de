package dev.payonce.web;

import org.apache.catalina.core.StandardHost;

import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.stereotype.Component;

/**
 * Installs {@link ProblemErrorReportValve} as Tomcat's error report, so that even
 * requests Tomcat refuses before Spring MVC sees them are answered with a problem.
 */
@Component
class TomcatErrorReports implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

	@Override
	public void customize(TomcatServletWebServerFactory factory) {
		factory.addContextCustomizers((context) -> {
			if (context.getParent() instanceof StandardHost host) {
				host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
			}
		});
	}

}
