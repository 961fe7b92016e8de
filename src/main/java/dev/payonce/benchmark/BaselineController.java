package dev.payonce.benchmark;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

import io.swagger.v3.oas.annotations.Hidden;

import org.springframework.context.annotation.Profile;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /bench/baseline}: reads the body and headers of a payment request and
 * answers a receipt-sized 201, touching no database and no provider. Exists only in the
 * {@code bench} profile; never enable that profile where real money moves.
 */
@RestController
@RequestMapping("/bench")
@Profile("bench")
@Hidden
class BaselineController {

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

}
