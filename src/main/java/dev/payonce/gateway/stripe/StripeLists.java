package dev.payonce.gateway.stripe;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.stripe.exception.StripeException;
import com.stripe.model.HasId;
import com.stripe.model.StripeCollection;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stripe's lists read to the end: the consistent reads behind a proof of absence and a
 * refund lookup. A list reads Stripe's own writes
 * (https://docs.stripe.com/search#data-freshness), so what it lacks, Stripe lacks.
 */
final class StripeLists {

	/** The most objects one list page holds (Stripe's limit, 1 to 100). */
	static final long LIST_PAGE = 100;

	/**
	 * The most pages one list reads: 10,000 PaymentIntents created since a payment. A
	 * busier account gets {@link dev.payonce.provider.GatewayResult.Unknown} instead of a
	 * proof, and the payment waits for Search or the give-up window rather than a new
	 * key.
	 */
	static final int MAX_LIST_PAGES = 100;

	/** The adapter's logger, whichever of its parts logs. */
	private static final Logger log = LoggerFactory.getLogger(StripePaymentGateway.class);

	private StripeLists() {
	}

	/**
	 * One page of a Stripe list, after the object with the given id (none: the first).
	 */
	@FunctionalInterface
	interface Page<T extends HasId> {

		StripeCollection<T> after(@Nullable String id) throws StripeException;

	}

	/**
	 * Every object of a Stripe list, newest first, page after page with
	 * {@code starting_after} until {@code has_more} is false
	 * (https://docs.stripe.com/api/pagination).
	 * @param what the list, for the log (no identifier of a customer)
	 * @param page reads one page
	 * @return the objects; empty if a page failed, a page was empty but said more
	 * followed, or the list ran past {@link #MAX_LIST_PAGES} pages: never a partial list
	 */
	static <T extends HasId> Optional<List<T>> everyPage(String what, Page<T> page) {
		List<T> all = new ArrayList<>();
		String after = null;
		for (int n = 0; n < MAX_LIST_PAGES; n++) {
			StripeCollection<T> one;
			try {
				one = page.after(after);
			}
			catch (StripeException ex) {
				log.warn("Stripe list of {} failed: {} {}", what, ex.getStatusCode(), ex.getCode());
				return Optional.empty();
			}
			List<T> data = (one.getData() != null) ? one.getData() : List.of();
			all.addAll(data);
			if (!Boolean.TRUE.equals(one.getHasMore())) {
				return Optional.of(all);
			}
			if (data.isEmpty()) {
				log.warn("Stripe list of {}: an empty page said more followed", what);
				return Optional.empty();
			}
			after = data.get(data.size() - 1).getId();
		}
		log.warn("Stripe list of {}: more than {} pages, not read to the end", what, MAX_LIST_PAGES);
		return Optional.empty();
	}

}
