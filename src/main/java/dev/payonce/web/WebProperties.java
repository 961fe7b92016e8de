package dev.payonce.web;

import java.net.URI;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Cross-cutting HTTP settings, under {@code payonce.web.*}.
 *
 * @param serverUrl the public base URL the OpenAPI document names as its one server
 * (default {@code http://localhost:8080}); fixed by configuration, never taken from a
 * request's {@code Host}, so the document is the same for every caller and every proxy
 */
@Validated
@ConfigurationProperties("payonce.web")
public record WebProperties(@DefaultValue("http://localhost:8080") URI serverUrl) {

}
