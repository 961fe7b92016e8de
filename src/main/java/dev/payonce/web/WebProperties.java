package dev.payonce.web;

import java.time.Duration;

import jakarta.validation.constraints.NotBlank;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * HTTP settings of Payonce's own, under {@code payonce.web.*}; Tomcat's connection limits
 * are {@code server.tomcat.*}.
 *
 * @param bodyReadTimeout how long a request body may take to arrive, counted from when
 * its headers were read (default 10s; Payonce's largest body is 16 KiB). Checked before
 * each read, so a body trickled byte by byte is cut at this time, answered 408
 * {@code request-timeout}; a client that stops sending altogether is cut by Tomcat's
 * {@code server.tomcat.connection-timeout} instead, so no body holds a request longer
 * than the two added together.
 * @param publicUrl the URL clients reach Payonce at, as the OpenAPI document's
 * {@code servers[0].url} (default {@code /}: relative to wherever the document was
 * fetched). Fixed by configuration, never taken from a request's {@code Host} or
 * {@code X-Forwarded-*} headers, which any client can set.
 */
@Validated
@ConfigurationProperties("payonce.web")
public record WebProperties(@DefaultValue("10s") @DurationMin(millis = 1) Duration bodyReadTimeout,
		@DefaultValue("/") @NotBlank String publicUrl) {

}
