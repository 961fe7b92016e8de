package dev.payonce.capture.web;

import java.nio.charset.StandardCharsets;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.payonce.capture.CaptureCommand;
import dev.payonce.capture.CaptureId;
import dev.payonce.capture.CaptureOutcome;
import dev.payonce.capture.CaptureResponses;
import dev.payonce.capture.CaptureService;
import dev.payonce.client.CurrentClient;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.web.IdempotencyProblems;
import dev.payonce.idempotency.web.StoredResponses;
import dev.payonce.payment.PaymentId;
import dev.payonce.payment.web.PaymentController;
import dev.payonce.payment.web.PaymentProblems;
import dev.payonce.web.CanonicalIds;

/**
 * {@code POST /payments/{id}/captures}, {@code GET /payments/{id}/captures} and
 * {@code GET /payments/{id}/captures/{captureId}} (docs/design.md section 15).
 *
 * <p>
 * The key mode, the key, its quota, the body and the payment id's spelling are checked
 * before the claim ({@link CaptureCommandArgumentResolver}), so a rejected request stores
 * nothing; refusals that depend on the payment (unknown, not capturable, lapsed, not
 * enough left) are decided in the claim and store nothing either.
 */
@RestController
@RequestMapping(path = "/payments/{id}/captures",
		produces = { MediaType.APPLICATION_JSON_VALUE, MediaType.APPLICATION_PROBLEM_JSON_VALUE })
class CaptureController implements CaptureOperations {

	private final CaptureService captures;

	private final CaptureResponses responses;

	private final CurrentClient currentClient;

	CaptureController(CaptureService captures, CaptureResponses responses, CurrentClient currentClient) {
		this.captures = captures;
		this.responses = responses;
		this.currentClient = currentClient;
	}

	@Override
	@PostMapping
	public ResponseEntity<byte[]> create(IdempotencyKey key, CaptureCommand command) {
		return switch (this.captures.capture(command)) {
			case CaptureOutcome.Completed completed ->
				StoredResponses.render(completed.response(), completed.replayed());
			case CaptureOutcome.KeyReused reused -> throw IdempotencyProblems.keyReused();
			case CaptureOutcome.InProgress inProgress -> throw IdempotencyProblems.inProgress(inProgress.retryAfter());
			case CaptureOutcome.PaymentNotFound notFound -> throw PaymentProblems.notFound();
			case CaptureOutcome.PaymentNotCapturable notCapturable ->
				throw CaptureProblems.notCapturable(notCapturable.status());
			case CaptureOutcome.AuthorizationExpired expired -> throw CaptureProblems.authorizationExpired();
			case CaptureOutcome.ExceedsCapturable exceeds ->
				throw CaptureProblems.captureExceedsCapturable(exceeds.capturable());
			case CaptureOutcome.Unresolved unresolved -> throw unresolved.outcomeUnknown()
					? CaptureProblems.captureOutcomeUnknown(unresolved.captureId(), unresolved.retryAfter())
					: CaptureProblems.captureProviderUnavailable(unresolved.captureId(), unresolved.retryAfter());
		};
	}

	@Override
	@GetMapping
	public ResponseEntity<byte[]> list(@PathVariable String id) {
		PaymentId paymentId = PaymentController.parseId(id);
		return this.captures.findAll(this.currentClient.clientId(), paymentId)
			.map((found) -> json(this.responses.list(found)))
			.orElseThrow(PaymentProblems::notFound);
	}

	@Override
	@GetMapping("/{captureId}")
	public ResponseEntity<byte[]> get(@PathVariable String id, @PathVariable String captureId) {
		PaymentId paymentId = PaymentController.parseId(id);
		return this.captures.find(this.currentClient.clientId(), paymentId, parseCaptureId(captureId))
			.map((found) -> json(this.responses.receipt(found)))
			.orElseThrow(CaptureProblems::captureNotFound);
	}

	private static ResponseEntity<byte[]> json(String body) {
		return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body.getBytes(StandardCharsets.UTF_8));
	}

	private static CaptureId parseCaptureId(String id) {
		return CanonicalIds.parse(id).map(CaptureId::new).orElseThrow(CaptureProblems::captureNotFound);
	}

}
