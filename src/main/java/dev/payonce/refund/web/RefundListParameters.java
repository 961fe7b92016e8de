package dev.payonce.refund.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.util.MultiValueMap;

import dev.payonce.payment.web.FieldError;
import dev.payonce.payment.web.PaymentProblems;
import dev.payonce.refund.RefundId;
import dev.payonce.web.Problems;
import dev.payonce.web.CanonicalIds;

/**
 * The query of {@code GET /payments/{id}/refunds}, read strictly (docs/design.md section
 * 8, "Listing refunds"): {@code limit}, an integer from 1 to {@value #MAX_LIMIT} (default
 * {@value #DEFAULT_LIMIT}, Stripe's default and maximum:
 * https://docs.stripe.com/api/pagination), and {@code starting_after}, a refund id in
 * canonical lower-case form. Each at most once; any other parameter is refused, so a
 * misspelt cursor never silently restarts the list at its first page. Every problem is
 * listed in one {@code 400 invalid-request}.
 *
 * @param limit the most refunds on the page
 * @param startingAfter the refund after which the page starts, or {@code null} for the
 * first page
 */
record RefundListParameters(int limit, @Nullable RefundId startingAfter) {

	/** The page size when none is asked for. */
	static final int DEFAULT_LIMIT = 10;

	/** The largest page. */
	static final int MAX_LIMIT = 100;

	static final String LIMIT = "limit";

	static final String STARTING_AFTER = "starting_after";

	private static final Set<String> NAMES = Set.of(LIMIT, STARTING_AFTER);

	/** Up to three digits: anything longer is out of range, without parsing it. */
	private static final Pattern DIGITS = Pattern.compile("[0-9]{1,3}");

	RefundListParameters {
		if (limit < 1 || limit > MAX_LIMIT) {
			throw new IllegalArgumentException("limit must be 1 to " + MAX_LIMIT + ", not " + limit);
		}
	}

	/**
	 * Reads the query.
	 * @param query the decoded query parameters, each name with every value sent
	 * @return the parameters
	 * @throws dev.payonce.web.ApiProblem {@code 400 invalid-request} listing every
	 * parameter that breaks the rules
	 */
	static RefundListParameters read(MultiValueMap<String, String> query) {
		List<FieldError> errors = new ArrayList<>();
		for (Map.Entry<String, List<String>> parameter : query.entrySet()) {
			if (!NAMES.contains(parameter.getKey())) {
				errors.add(new FieldError(Problems.echoed(parameter.getKey()),
						"is not a parameter of this list: use limit and starting_after"));
			}
			else if (parameter.getValue().size() > 1) {
				errors.add(new FieldError(parameter.getKey(), "must be sent at most once"));
			}
		}
		int limit = DEFAULT_LIMIT;
		String limitValue = query.getFirst(LIMIT);
		if (limitValue != null) {
			if (DIGITS.matcher(limitValue).matches() && Integer.parseInt(limitValue) >= 1
					&& Integer.parseInt(limitValue) <= MAX_LIMIT) {
				limit = Integer.parseInt(limitValue);
			}
			else {
				errors.add(new FieldError(LIMIT, "must be an integer from 1 to " + MAX_LIMIT));
			}
		}
		RefundId startingAfter = null;
		String cursor = query.getFirst(STARTING_AFTER);
		if (cursor != null) {
			startingAfter = refundId(cursor);
			if (startingAfter == null) {
				errors.add(new FieldError(STARTING_AFTER,
						"must be the id of a refund of this payment (a UUID in canonical lower-case form)"));
			}
		}
		if (!errors.isEmpty()) {
			throw PaymentProblems.invalidParameters(errors);
		}
		return new RefundListParameters(limit, startingAfter);
	}

	private static @Nullable RefundId refundId(String value) {
		return CanonicalIds.parse(value).map(RefundId::new).orElse(null);
	}

}
