package dev.payonce.refund.web;

import static dev.payonce.payment.web.ProblemExamples.BASE;

/**
 * Example problem bodies for the OpenAPI document, one per problem type of the refunds
 * API's own (those it shares with payments are
 * {@link dev.payonce.payment.web.ProblemExamples}). Compile-time constants, so
 * annotations can name them.
 */
final class RefundProblemExamples {

	static final String REFUND_AMOUNT_NOT_SUPPORTED = "{\"type\":\"" + BASE
			+ "amount-not-supported\",\"title\":\"Amount not supported by the provider\",\"status\":400,"
			+ "\"detail\":\"The payment provider cannot refund 125 minor units of KWD: it takes multiples of 10 up to 99999990. "
			+ "Nothing was stored or refunded; retrying with the same Idempotency-Key and a supported amount is safe.\","
			+ "\"instance\":\"/payments/6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a/refunds\",\"currency\":\"KWD\",\"amount\":125,"
			+ "\"multipleOf\":10,\"maximumAmount\":99999990}";

	static final String INVALID_LIST_PARAMETERS = "{\"type\":\"" + BASE
			+ "invalid-request\",\"title\":\"Invalid request\",\"status\":400,"
			+ "\"detail\":\"A query parameter breaks the payments contract; see errors.\","
			+ "\"instance\":\"/payments/6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a/refunds\","
			+ "\"errors\":[{\"field\":\"limit\",\"message\":\"must be an integer from 1 to 100\"}]}";

	static final String REFUND_DECLINED = "{\"type\":\"" + BASE
			+ "refund-declined\",\"title\":\"Refund declined\",\"status\":402,"
			+ "\"detail\":\"The payment provider declined the refund; nothing was refunded and the amount is refundable again.\","
			+ "\"instance\":\"/payments/6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a/refunds\","
			+ "\"paymentId\":\"6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a\",\"refundId\":\"0f4b7d52-7f1e-4d0e-9b1a-2c3d4e5f6a7b\","
			+ "\"declineCode\":\"refund_failed\"}";

	static final String REFUND_FAILED = "{\"type\":\"" + BASE
			+ "refund-failed\",\"title\":\"Refund failed\",\"status\":402,"
			+ "\"detail\":\"The payment provider never processed this refund and nothing was refunded. Use a new Idempotency-Key to try again.\","
			+ "\"instance\":\"/payments/6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a/refunds\","
			+ "\"paymentId\":\"6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a\",\"refundId\":\"0f4b7d52-7f1e-4d0e-9b1a-2c3d4e5f6a7b\"}";

	static final String NOT_REFUNDABLE = "{\"type\":\"" + BASE
			+ "payment-not-refundable\",\"title\":\"Payment not refundable\",\"status\":409,"
			+ "\"detail\":\"Only captured money can be refunded: of a SUCCEEDED payment, or of a manual payment's captures (AUTHORIZED and partially captured, or VOIDED after its captures); this one is DECLINED.\","
			+ "\"instance\":\"/payments/6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a/refunds\",\"paymentStatus\":\"DECLINED\"}";

	static final String REFUND_EXCEEDS = "{\"type\":\"" + BASE
			+ "refund-exceeds-refundable\",\"title\":\"Refund exceeds refundable amount\",\"status\":409,"
			+ "\"detail\":\"The refund asks for more than the payment has left to refund (what it captured, its whole amount unless it is a manual payment, minus refunded and in-flight refunds); nothing was refunded.\","
			+ "\"instance\":\"/payments/6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a/refunds\",\"refundableAmount\":900}";

	static final String REFUND_PROVIDER_UNAVAILABLE = "{\"type\":\"" + BASE
			+ "refund-provider-unavailable\",\"title\":\"Refund provider unavailable\",\"status\":503,"
			+ "\"detail\":\"The payment provider refused this attempt before processing it. Retrying with the same Idempotency-Key is safe and resolves the refund without a second refund.\","
			+ "\"instance\":\"/payments/6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a/refunds\",\"refundId\":\"0f4b7d52-7f1e-4d0e-9b1a-2c3d4e5f6a7b\"}";

	static final String REFUND_OUTCOME_UNKNOWN = "{\"type\":\"" + BASE
			+ "refund-outcome-unknown\",\"title\":\"Refund outcome unknown\",\"status\":503,"
			+ "\"detail\":\"The payment provider did not confirm the refund. Retrying with the same Idempotency-Key is safe and resolves it without a second refund.\","
			+ "\"instance\":\"/payments/6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a/refunds\",\"refundId\":\"0f4b7d52-7f1e-4d0e-9b1a-2c3d4e5f6a7b\"}";

	static final String REFUND_NOT_FOUND = "{\"type\":\"" + BASE
			+ "refund-not-found\",\"title\":\"Refund not found\",\"status\":404,"
			+ "\"detail\":\"No refund with this id exists for this payment and client.\","
			+ "\"instance\":\"/payments/6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a/refunds/0f4b7d52-7f1e-4d0e-9b1a-2c3d4e5f6a7b\"}";

	private RefundProblemExamples() {
	}

}
