package dev.payonce.web;

import java.net.URI;
import java.time.Duration;

import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Cross-cutting HTTP settings, under {@code payonce.web.*}; Tomcat's connection limits
 * are {@code server.tomcat.*}.
 *
 * @param serverUrl the public base URL the OpenAPI document names as its one server
 * (default {@code http://localhost:8080}); fixed by configuration, never taken from a
 * request's {@code Host}, so the document is the same for every caller and every proxy
 * @param bodyReadTimeout how long a request body may take to arrive, counted from when
 * its headers were read (default 10s; Payonce's largest body is 16 KiB). Checked before
 * each read, so a body trickled byte by byte is cut at this time, answered 408
 * {@code request-timeout}; a client that stops sending altogether is cut by Tomcat's
 * {@code server.tomcat.connection-timeout} instead, so no body holds a request longer
 * than the two added together.
 */
@Validated
@ConfigurationProperties("payonce.web")
public record WebProperties(@DefaultValue("http://localhost:8080") URI serverUrl,
		@DefaultValue("10s") @DurationMin(millis = 1) Duration bodyReadTimeout) {

}
