package dev.payonce.payment.web;

/**
 * Example problem bodies for the OpenAPI document, one per problem type of the payments
 * API's own, and those the refunds API shares with it (the problems every operation
 * shares come from {@link dev.payonce.web.ApiDocumentation}). Compile-time constants, so
 * annotations can name them.
 */
public final class ProblemExamples {

	public static final String BASE = "https://payonce.dev/problems/";

	public static final String KEY_MISSING = "{\"type\":\"" + BASE
			+ "idempotency-key-missing\",\"title\":\"Idempotency-Key missing\",\"status\":400,"
			+ "\"detail\":\"This request requires an Idempotency-Key header naming this operation.\",\"instance\":\"/payments\"}";

	public static final String KEY_INVALID = "{\"type\":\"" + BASE
			+ "idempotency-key-invalid\",\"title\":\"Idempotency-Key invalid\",\"status\":400,"
			+ "\"detail\":\"The Idempotency-Key header must be 1-255 visible ASCII characters, bare or as an RFC 8941 string.\","
			+ "\"instance\":\"/payments\"}";

	public static final String INVALID_REQUEST = "{\"type\":\"" + BASE
			+ "invalid-request\",\"title\":\"Invalid request\",\"status\":400,"
			+ "\"detail\":\"The request body breaks the payments contract; see errors.\",\"instance\":\"/payments\","
			+ "\"errors\":[{\"field\":\"amount\",\"message\":\"must be a JSON integer in minor units (no fraction, exponent or quotes)\"}]}";

	public static final String AMOUNT_NOT_SUPPORTED = "{\"type\":\"" + BASE
			+ "amount-not-supported\",\"title\":\"Amount not supported by the provider\",\"status\":400,"
			+ "\"detail\":\"The payment provider cannot charge 5125 minor units of KWD: it takes multiples of 10 up to 99999990. "
			+ "Nothing was stored or charged; retrying with the same Idempotency-Key and a supported amount is safe.\","
			+ "\"instance\":\"/payments\",\"currency\":\"KWD\",\"amount\":5125,\"multipleOf\":10,\"maximumAmount\":99999990}";

	public static final String KEY_MODE_MISMATCH = "{\"type\":\"" + BASE
			+ "api-key-mode-mismatch\",\"title\":\"API key of the other mode\",\"status\":403,"
			+ "\"detail\":\"This request used a test API key (sk_test_); the payment provider here runs in live mode and takes "
			+ "sk_live_ keys only. Nothing was stored, charged or refunded.\",\"instance\":\"/payments\","
			+ "\"keyMode\":\"test\",\"providerMode\":\"live\"}";

	public static final String DECLINED = "{\"type\":\"" + BASE
			+ "payment-declined\",\"title\":\"Payment declined\",\"status\":402,"
			+ "\"detail\":\"The payment provider declined the payment.\",\"instance\":\"/payments\","
			+ "\"paymentId\":\"6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a\",\"declineCode\":\"card_declined\"}";

	public static final String FAILED = "{\"type\":\"" + BASE
			+ "payment-failed\",\"title\":\"Payment failed\",\"status\":402,"
			+ "\"detail\":\"The payment provider never processed this payment and nothing was charged. Use a new Idempotency-Key to try again.\","
			+ "\"instance\":\"/payments\",\"paymentId\":\"6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a\"}";

	public static final String IN_PROGRESS = "{\"type\":\"" + BASE
			+ "idempotency-request-in-progress\",\"title\":\"Request in progress\",\"status\":409,"
			+ "\"detail\":\"A request with this Idempotency-Key is still being processed. Retry after the Retry-After interval.\","
			+ "\"instance\":\"/payments\"}";

	public static final String RATE_LIMITED = "{\"type\":\"" + BASE
			+ "rate-limit-exceeded\",\"title\":\"Too many requests\",\"status\":429,"
			+ "\"detail\":\"This client sent more than 100 requests a second. Retry after the time in Retry-After.\","
			+ "\"instance\":\"/payments\"}";

	public static final String QUOTA_EXCEEDED = "{\"type\":\"" + BASE
			+ "idempotency-quota-exceeded\",\"title\":\"Too many live keys\",\"status\":429,"
			+ "\"detail\":\"This client holds the most live Idempotency-Keys allowed; a new key is accepted once older "
			+ "stored responses expire (Retry-After). Retries of existing keys still work.\",\"instance\":\"/payments\"}";

	public static final String KEY_REUSED = "{\"type\":\"" + BASE
			+ "idempotency-key-reused\",\"title\":\"Idempotency-Key reused\",\"status\":422,"
			+ "\"detail\":\"This Idempotency-Key was already used with a different request. Use a new key for a new operation.\","
			+ "\"instance\":\"/payments\"}";

	public static final String PROVIDER_UNAVAILABLE = "{\"type\":\"" + BASE
			+ "payment-provider-unavailable\",\"title\":\"Payment provider unavailable\",\"status\":503,"
			+ "\"detail\":\"The payment provider refused this attempt before processing it. Retrying with the same Idempotency-Key is safe and resolves the payment without a second charge.\","
			+ "\"instance\":\"/payments\",\"paymentId\":\"6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a\"}";

	public static final String OUTCOME_UNKNOWN = "{\"type\":\"" + BASE
			+ "payment-outcome-unknown\",\"title\":\"Payment outcome unknown\",\"status\":503,"
			+ "\"detail\":\"The payment provider did not confirm the outcome. Retrying with the same Idempotency-Key is safe and resolves it without a second charge.\","
			+ "\"instance\":\"/payments\",\"paymentId\":\"6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a\"}";

	public static final String NOT_FOUND = "{\"type\":\"" + BASE
			+ "payment-not-found\",\"title\":\"Payment not found\",\"status\":404,"
			+ "\"detail\":\"No payment with this id exists for this client.\",\"instance\":\"/payments/6a0c3cb5-0f69-4c1c-a7a4-4c3b8f1e9d0a\"}";

	private ProblemExamples() {
	}

}
