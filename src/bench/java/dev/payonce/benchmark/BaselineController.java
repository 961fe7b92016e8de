package dev.payonce.benchmark;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

import io.swagger.v3.oas.annotations.Hidden;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Profile;
import org.springframework.core.env.Environment;
import org.springframework.core.env.Profiles;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /bench/baseline}: reads the body and headers of a payment request and
 * answers a receipt-sized 201, touching no database and no provider. It is
 * unauthenticated, so it exists only in the {@code bench} profile <b>and</b> with either
 * the {@code local} profile or the explicit opt-in
 * {@code payonce.benchmark.baseline.enabled=true} (which {@code bench/run.sh} passes);
 * start-up logs a warning while it exists. Never open it where real money moves.
 */
@RestController
@RequestMapping("/bench")
@Profile("bench")
@Conditional(BaselineController.OptedIn.class)
@Hidden
class BaselineController {

	private static final Logger log = LoggerFactory.getLogger(BaselineController.class);

	BaselineController() {
		log.warn("The benchmark baseline POST /bench/baseline is open without authentication (bench profile with "
				+ "the local profile or payonce.benchmark.baseline.enabled): never do this where real money moves");
	}

	private static final String RECEIPT = """
			{"id":"%s","orderId":"baseline","amount":1200,"currency":"ILS","status":"SUCCEEDED",\
			"providerReference":"sim_ch_000000000000000000000000","createdAt":"2026-01-01T00:00:00.000000Z"}""";

	@PostMapping(path = "/baseline", consumes = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<byte[]> baseline(@RequestHeader HttpHeaders headers, InputStream body) throws IOException {
		byte[] request = body.readNBytes(16 * 1024 + 1);
		String id = UUID.randomUUID().toString();
		return ResponseEntity.status(201)
			.contentType(MediaType.APPLICATION_JSON)
			.header(HttpHeaders.LOCATION, "/payments/" + id)
			.body(RECEIPT.formatted(id).getBytes(StandardCharsets.UTF_8));
	}

	/** The {@code local} profile or {@code payonce.benchmark.baseline.enabled=true}. */
	static final class OptedIn implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			Environment environment = context.getEnvironment();
			return environment.acceptsProfiles(Profiles.of("local"))
					|| environment.getProperty("payonce.benchmark.baseline.enabled", Boolean.class, false);
		}

	}

}
