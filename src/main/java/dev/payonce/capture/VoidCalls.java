package dev.payonce.capture;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;

import dev.payonce.idempotency.IdempotencyService;
import dev.payonce.idempotency.ResourceTable;
import dev.payonce.idempotency.StoredResponse;
import dev.payonce.payment.FinalResponses;
import dev.payonce.payment.Payment;
import dev.payonce.payment.PaymentService;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.ProviderOperation;
import dev.payonce.provider.ProviderServices;
import dev.payonce.provider.VoidRequest;

/**
 * The void operation on the provider kernel (docs/design.md section 15): the void call
 * with the charge of its payment, its lookup, and the responses a void's final status
 * stores (200 with the void, 402 {@code void-declined} or {@code void-failed}). The hold
 * on the payment is let go by the completion update ({@link VoidTable}).
 */
@Component
class VoidCalls extends ProviderOperation<PaymentVoid, VoidOutcome> {

	private final PaymentService payments;

	private final IdempotencyService idempotency;

	private final JsonMapper json;

	VoidCalls(ResourceTable<PaymentVoid> table, PaymentVoids voids, ProviderServices services, PaymentService payments,
			IdempotencyService idempotency, JsonMapper json) {
		super(VoidService.OPERATION, table, voids, services);
		this.payments = payments;
		this.idempotency = idempotency;
		this.json = json;
	}

	@Override
	protected GatewayResult send(PaymentVoid paymentVoid) {
		return services().gateway().voidAuthorization(voidRequest(paymentVoid));
	}

	@Override
	protected GatewayResult lookUp(PaymentVoid paymentVoid) {
		return services().gateway().lookupVoid(voidRequest(paymentVoid));
	}

	@Override
	protected String callTag() {
		return "void";
	}

	@Override
	protected StoredResponse response(PaymentVoid paymentVoid) {
		return switch (paymentVoid.status()) {
			case SUCCEEDED ->
				new StoredResponse(200, Map.of(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_JSON_VALUE),
						this.json.writeValueAsString(VoidReceipt.of(paymentVoid)));
			case DECLINED -> paymentRequired(paymentVoid, "void-declined", "Void declined",
					"The payment provider declined the void; the authorization is as it was.",
					paymentVoid.declineCode());
			case FAILED -> paymentRequired(paymentVoid, "void-failed", "Void failed",
					"The payment provider never processed this void. Use a new Idempotency-Key to try again.", null);
			case PENDING -> throw new IllegalStateException("Void " + paymentVoid.id() + " is not final");
		};
	}

	private static StoredResponse paymentRequired(PaymentVoid paymentVoid, String slug, String title, String detail,
			@Nullable String declineCode) {
		Map<String, @Nullable Object> members = new LinkedHashMap<>();
		members.put("paymentId", paymentVoid.paymentId().toString());
		members.put("voidId", paymentVoid.id().toString());
		if (declineCode != null) {
			members.put("declineCode", declineCode);
		}
		return FinalResponses.paymentRequired(slug, title, detail, "/payments/" + paymentVoid.paymentId() + "/void",
				members);
	}

	/** The hold stays; the client retries, or the reconciler settles. */
	@Override
	protected VoidOutcome unresolved(PaymentVoid paymentVoid, GatewayResult reason) {
		return new VoidOutcome.Unresolved(paymentVoid.id(), this.idempotency.retryAfter(),
				reason instanceof GatewayResult.Unknown);
	}

	@Override
	protected boolean reattemptsUnderNewKey(PaymentVoid paymentVoid) {
		return paymentVoid.providerKeyReplayedAt() != null;
	}

	@Override
	protected void logContext(PaymentVoid paymentVoid) {
		MDC.put("paymentId", paymentVoid.paymentId().toString());
		MDC.put("voidId", paymentVoid.id().toString());
	}

	private VoidRequest voidRequest(PaymentVoid paymentVoid) {
		String known = paymentVoid.chargeReference();
		if (known != null) {
			return paymentVoid.voidRequest(known);
		}
		Payment payment = this.payments.load(paymentVoid.paymentId());
		String reference = payment.providerReference();
		if (reference == null) {
			throw new IllegalStateException("Voided payment " + payment.id() + " has no provider reference");
		}
		return paymentVoid.voidRequest(reference);
	}

}
