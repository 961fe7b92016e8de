package dev.payonce.capture.web;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.payonce.capture.VoidCommand;
import dev.payonce.capture.VoidOutcome;
import dev.payonce.capture.VoidService;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.web.IdempotencyProblems;
import dev.payonce.idempotency.web.StoredResponses;
import dev.payonce.payment.web.PaymentProblems;

/**
 * {@code POST /payments/{id}/void} (docs/design.md section 15): refusals (unknown
 * payment, not voidable) are decided in the claim and store nothing.
 */
@RestController
class VoidController implements VoidOperations {

	private final VoidService voids;

	VoidController(VoidService voids) {
		this.voids = voids;
	}

	@Override
	@PostMapping(path = "/payments/{id}/void",
			produces = { MediaType.APPLICATION_JSON_VALUE, MediaType.APPLICATION_PROBLEM_JSON_VALUE })
	public ResponseEntity<byte[]> create(IdempotencyKey key, VoidCommand command) {
		return switch (this.voids.voidPayment(command)) {
			case VoidOutcome.Completed completed -> StoredResponses.render(completed.response(), completed.replayed());
			case VoidOutcome.KeyReused reused -> throw IdempotencyProblems.keyReused();
			case VoidOutcome.InProgress inProgress -> throw IdempotencyProblems.inProgress(inProgress.retryAfter());
			case VoidOutcome.PaymentNotFound notFound -> throw PaymentProblems.notFound();
			case VoidOutcome.PaymentNotVoidable notVoidable -> throw CaptureProblems.notVoidable(notVoidable.status());
			case VoidOutcome.Unresolved unresolved -> throw unresolved.outcomeUnknown()
					? CaptureProblems.voidOutcomeUnknown(unresolved.voidId(), unresolved.retryAfter())
					: CaptureProblems.voidProviderUnavailable(unresolved.voidId(), unresolved.retryAfter());
		};
	}

}
