package dev.payonce.payment.web;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Currency;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.stereotype.Component;

import dev.payonce.client.ClientId;
import dev.payonce.idempotency.IdempotencyKey;
import dev.payonce.provider.AmountLimits;
import dev.payonce.provider.Money;
import dev.payonce.payment.PaymentCommand;
import dev.payonce.provider.PaymentGateway;
import dev.payonce.web.Problems;

/**
 * Reads the body of {@code POST /payments} strictly (docs/design.md section 2): a JSON
 * object with no unknown or duplicate members; {@code amount} a JSON integer in minor
 * units, never a fraction, exponent or string, never rounded; {@code currency} an ISO
 * 4217 code with minor units, in any letter case; the amount one the active provider can
 * take in that currency. A member may be omitted where the contract allows, but never
 * sent as JSON {@code null}. Every problem found is reported, not just the first.
 */
@Component
public class PaymentRequestReader {

	private static final Set<String> FIELDS = Set.of("orderId", "amount", "currency", "paymentMethod");

	/**
	 * A JSON {@code null} is never a value: an optional member is omitted, not null, so
	 * that a null cannot silently become a default (a full refund, the default payment
	 * method).
	 */
	static final String NOT_NULL = "must not be null (omit the field instead)";

	private static final BigInteger MAX = BigInteger.valueOf(Money.MAX_MINOR_UNITS);

	private final ObjectReader reader;

	private final ObjectReader duplicatesAllowed;

	private final Validator validator;

	private final PaymentGateway gateway;

	PaymentRequestReader(JsonMapper json, Validator validator, PaymentGateway gateway) {
		// Decimals are read as BigDecimal only to be rejected: money never passes through
		// a double.
		this.reader = json.reader()
			.with(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
			.with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
			.with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
		this.duplicatesAllowed = this.reader.without(StreamReadFeature.STRICT_DUPLICATE_DETECTION);
		this.validator = validator;
		this.gateway = gateway;
	}

	/**
	 * Reads and validates a body.
	 * @param clientId the calling client
	 * @param key the already validated idempotency key
	 * @param body the raw body, at most 16 KiB
	 * @return the command
	 * @throws dev.payonce.web.ApiProblem 400 {@code invalid-request} listing every field
	 * error; 400 {@code amount-not-supported} for a valid amount the active provider
	 * cannot take in its currency ({@link PaymentGateway#amountLimits})
	 */
	PaymentCommand read(ClientId clientId, IdempotencyKey key, byte[] body) {
		JsonNode root = parse(body);
		List<FieldError> errors = new ArrayList<>();
		for (Map.Entry<String, JsonNode> member : root.properties()) {
			if (!FIELDS.contains(member.getKey())) {
				errors.add(new FieldError(Problems.echoed(member.getKey()), "is not a known field"));
			}
		}
		PaymentRequest request = new PaymentRequest(text(root, "orderId", errors), amount(root, errors),
				text(root, "currency", errors), text(root, "paymentMethod", errors));
		Set<String> mistyped = errors.stream().map(FieldError::field).collect(Collectors.toSet());
		for (ConstraintViolation<PaymentRequest> violation : this.validator.validate(request)) {
			String field = violation.getPropertyPath().toString();
			if (!mistyped.contains(field)) {
				errors.add(new FieldError(field, violation.getMessage()));
			}
		}
		Currency currency = currency(request.currency(), errors);
		if (!errors.isEmpty() || request.orderId() == null || request.amount() == null || currency == null) {
			errors.sort(Comparator.comparing(FieldError::field).thenComparing(FieldError::message));
			throw PaymentProblems.invalidRequest(errors);
		}
		String paymentMethod = (request.paymentMethod() != null) ? request.paymentMethod()
				: PaymentCommand.DEFAULT_PAYMENT_METHOD;
		Money amount = new Money(request.amount(), currency);
		AmountLimits limits = this.gateway.amountLimits(currency);
		if (!limits.allows(amount.minorUnits())) {
			throw PaymentProblems.amountNotSupported(amount, limits, false);
		}
		return new PaymentCommand(clientId, key, request.orderId(), amount, paymentMethod);
	}

	/**
	 * Parses a body strictly: one JSON object, no duplicate members, no trailing content.
	 * @throws dev.payonce.web.ApiProblem 400 {@code invalid-request}
	 */
	public JsonNode parse(byte[] body) {
		if (body.length == 0) {
			throw PaymentProblems.invalidRequest(List.of(new FieldError("", "a JSON object body is required")));
		}
		JsonNode root;
		try {
			root = this.reader.readTree(body);
		}
		catch (JacksonException ex) {
			// The parser's message quotes the body and names internals: say only where it
			// broke.
			throw PaymentProblems.invalidRequest(List.of(new FieldError("",
					"is not valid JSON"
							+ ((ex.getLocation() != null) ? " (line " + ex.getLocation().getLineNr() + ", column "
									+ ex.getLocation().getColumnNr() + ")" : "")
							+ (onlyDuplicateMembers(body) ? ": duplicate field" : ""))));
		}
		if (root == null || !root.isObject()) {
			throw PaymentProblems.invalidRequest(List.of(new FieldError("", "must be a JSON object")));
		}
		return root;
	}

	/**
	 * Whether a body the strict reader refused is well-formed but for duplicate members:
	 * the same read without duplicate detection accepts it. Decided by the parser's
	 * rules, never by the text of its message.
	 */
	private boolean onlyDuplicateMembers(byte[] body) {
		try {
			this.duplicatesAllowed.readTree(body);
			return true;
		}
		catch (JacksonException ex) {
			return false;
		}
	}

	/**
	 * A member that must be a JSON string when present.
	 * @param root the body
	 * @param field the member's name
	 * @param errors where a wrong type is listed
	 * @return the string, or {@code null} if absent or wrong (then listed in
	 * {@code errors})
	 */
	public static @Nullable String text(JsonNode root, String field, List<FieldError> errors) {
		JsonNode node = root.get(field);
		if (node == null) {
			return null;
		}
		if (node.isNull()) {
			errors.add(new FieldError(field, NOT_NULL));
			return null;
		}
		if (!node.isString()) {
			errors.add(new FieldError(field, "must be a JSON string"));
			return null;
		}
		return node.stringValue();
	}

	/**
	 * The {@code amount} member: a JSON integer of minor units within
	 * {@link Money#MAX_MINOR_UNITS}.
	 * @param root the body
	 * @param errors where a missing or wrong amount is listed
	 * @return the amount, or {@code null} if absent, or wrong (then listed in
	 * {@code errors})
	 */
	public static @Nullable Long amount(JsonNode root, List<FieldError> errors) {
		JsonNode node = root.get("amount");
		if (node == null) {
			return null;
		}
		if (node.isNull()) {
			errors.add(new FieldError("amount", NOT_NULL));
			return null;
		}
		if (!node.isIntegralNumber()) {
			errors.add(new FieldError("amount",
					"must be a JSON integer in minor units (no fraction, exponent or quotes)"));
			return null;
		}
		BigInteger value = node.bigIntegerValue();
		if (value.signum() < 1 || value.compareTo(MAX) > 0) {
			errors.add(new FieldError("amount", "must be between 1 and 99999999999 (minor units)"));
			return null;
		}
		return value.longValueExact();
	}

	private static @Nullable Currency currency(@Nullable String code, List<FieldError> errors) {
		if (code == null || code.length() != 3) {
			return null;
		}
		Currency currency;
		try {
			currency = Currency.getInstance(code.toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			currency = null;
		}
		if (currency == null || currency.getDefaultFractionDigits() < 0) {
			errors.add(new FieldError("currency", "must be an ISO 4217 currency code with minor units"));
			return null;
		}
		return currency;
	}

}
