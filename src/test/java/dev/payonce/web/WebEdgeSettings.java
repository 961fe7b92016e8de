package dev.payonce.web;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Import;

import dev.payonce.TestcontainersConfiguration;

/**
 * The one configuration of the tests of the HTTP edge's start-up settings, so that they
 * start one application context between them: Tomcat's connection timeout
 * ({@value #CONNECTION_TIMEOUT_MILLIS} ms) and keep-alive timeout
 * ({@value #KEEP_ALIVE_TIMEOUT_MILLIS} ms) and the body-read timeout
 * ({@value #BODY_READ_TIMEOUT_MILLIS} ms), each far below its production value in
 * {@code application.properties} so that a test waits it out quickly; the web package's
 * debug log; and a configured OpenAPI server URL ({@value #SERVER_URL}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.tomcat.connection-timeout=" + WebEdgeSettings.CONNECTION_TIMEOUT_MILLIS + "ms",
				"server.tomcat.keep-alive-timeout=" + WebEdgeSettings.KEEP_ALIVE_TIMEOUT_MILLIS + "ms",
				"payonce.web.body-read-timeout=" + WebEdgeSettings.BODY_READ_TIMEOUT_MILLIS + "ms",
				"logging.level.dev.payonce.web=debug", "payonce.web.server-url=" + WebEdgeSettings.SERVER_URL })
@Import(TestcontainersConfiguration.class)
@interface WebEdgeSettings {

	/** Tomcat's wait for a request's first byte and between two reads of its headers. */
	long CONNECTION_TIMEOUT_MILLIS = 1000;

	/**
	 * How long an idle connection stays open between requests: longer than the connection
	 * timeout, so that a test can tell which one closed it.
	 */
	long KEEP_ALIVE_TIMEOUT_MILLIS = 2000;

	/**
	 * How long a request body may take after its headers: longer than the connection
	 * timeout, so that a body trickled with pauses below that is cut by this one.
	 */
	long BODY_READ_TIMEOUT_MILLIS = 2000;

	/** The server URL the OpenAPI document names, whatever the request's host. */
	String SERVER_URL = "https://api.payonce.test";

}
