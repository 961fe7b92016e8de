package dev.payonce.refund.web;

import java.nio.charset.StandardCharsets;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.payonce.client.CurrentClient;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.idempotency.web.IdempotencyProblems;
import dev.payonce.idempotency.web.StoredResponses;
import dev.payonce.payment.web.PaymentController;
import dev.payonce.payment.web.PaymentProblems;
import dev.payonce.payment.PaymentId;
import dev.payonce.refund.RefundCommand;
import dev.payonce.refund.RefundId;
import dev.payonce.refund.RefundOutcome;
import dev.payonce.refund.RefundPage;
import dev.payonce.refund.RefundResponses;
import dev.payonce.refund.RefundService;
import dev.payonce.web.CanonicalIds;

/**
 * {@code POST /payments/{id}/refunds}, {@code GET /payments/{id}/refunds} and {@code GET
 * /payments/{id}/refunds/{refundId}} (docs/design.md section 8).
 *
 * <p>
 * The key mode, the key, its quota, the body and the payment id's spelling are checked
 * before the claim, by the arguments' resolvers ({@link RefundCommandArgumentResolver}),
 * so a rejected request stores nothing; refusals that depend on the payment (unknown, no
 * captured money, not enough left) are decided in the claim transaction and store nothing
 * either.
 */
@RestController
// An Accept header that excludes JSON is 406 before anything runs (web.AcceptFilter,
// which
// also honours q=0), never a refund whose answer the client said it cannot read.
@RequestMapping(path = "/payments/{id}/refunds",
		produces = { MediaType.APPLICATION_JSON_VALUE, MediaType.APPLICATION_PROBLEM_JSON_VALUE })
class RefundController implements RefundOperations {

	private final RefundService refunds;

	private final RefundResponses responses;

	private final CurrentClient currentClient;

	RefundController(RefundService refunds, RefundResponses responses, CurrentClient currentClient) {
		this.refunds = refunds;
		this.responses = responses;
		this.currentClient = currentClient;
	}

	@Override
	@PostMapping
	public ResponseEntity<byte[]> create(IdempotencyKey key, RefundCommand command) {
		return switch (this.refunds.refund(command)) {
			case RefundOutcome.Completed completed ->
				StoredResponses.render(completed.response(), completed.replayed());
			case RefundOutcome.KeyReused reused -> throw IdempotencyProblems.keyReused();
			case RefundOutcome.InProgress inProgress -> throw IdempotencyProblems.inProgress(inProgress.retryAfter());
			case RefundOutcome.PaymentNotFound notFound -> throw PaymentProblems.notFound();
			case RefundOutcome.PaymentNotRefundable notRefundable ->
				throw RefundProblems.notRefundable(notRefundable.status());
			case RefundOutcome.AmountNotSupported notSupported ->
				throw PaymentProblems.amountNotSupported(notSupported.amount(), notSupported.limits(), true);
			case RefundOutcome.ExceedsRefundable exceeds ->
				throw RefundProblems.refundExceedsRefundable(exceeds.refundable());
			case RefundOutcome.ProviderUnavailable unavailable ->
				throw RefundProblems.refundProviderUnavailable(unavailable.refundId(), unavailable.retryAfter());
			case RefundOutcome.OutcomeUnknown unknown ->
				throw RefundProblems.refundOutcomeUnknown(unknown.refundId(), unknown.retryAfter());
		};
	}

	@Override
	@GetMapping
	public ResponseEntity<byte[]> list(@PathVariable String id, @RequestParam MultiValueMap<String, String> query) {
		PaymentId paymentId = PaymentController.parseId(id);
		RefundListParameters parameters = RefundListParameters.read(query);
		return switch (this.refunds.findPage(this.currentClient.clientId(), paymentId, parameters.limit(),
				parameters.startingAfter())) {
			case RefundPage.Found page -> json(this.responses.page(paymentId, page));
			case RefundPage.PaymentNotFound notFound -> throw PaymentProblems.notFound();
			case RefundPage.UnknownCursor unknown -> throw RefundProblems.unknownCursor();
		};
	}

	@Override
	@GetMapping("/{refundId}")
	public ResponseEntity<byte[]> get(@PathVariable String id, @PathVariable String refundId) {
		PaymentId paymentId = PaymentController.parseId(id);
		RefundId refund = parseRefundId(refundId);
		return this.refunds.find(this.currentClient.clientId(), paymentId, refund)
			.map((found) -> json(this.responses.receipt(found)))
			.orElseThrow(RefundProblems::refundNotFound);
	}

	private static ResponseEntity<byte[]> json(String body) {
		return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body.getBytes(StandardCharsets.UTF_8));
	}

	private static RefundId parseRefundId(String id) {
		return CanonicalIds.parse(id).map(RefundId::new).orElseThrow(RefundProblems::refundNotFound);
	}

}
