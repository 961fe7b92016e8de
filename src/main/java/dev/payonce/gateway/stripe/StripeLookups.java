package dev.payonce.gateway.stripe;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import com.stripe.StripeClient;
import com.stripe.exception.StripeException;
import com.stripe.model.PaymentIntent;
import com.stripe.param.PaymentIntentListParams;
import com.stripe.param.PaymentIntentSearchParams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.payonce.provider.ChargeRequest;
import dev.payonce.provider.GatewayResult;

/**
 * Looks a payment's charge up at Stripe.
 *
 * <p>
 * A lookup of a payment whose PaymentIntent Stripe already named (its provider reference,
 * kept while the payment is pending) retrieves it by id, which is consistent. Otherwise
 * it first searches PaymentIntents by {@code metadata['payonce_payment_id']}, which finds
 * the charge whatever provider key generation made it, cheaply, once Search has caught
 * up. Search is eventually consistent ("Don't use search for read-after-write flows [...]
 * Propagation of new or updated data could be delayed during an outage",
 * https://docs.stripe.com/search#data-freshness), so an empty search result proves
 * nothing: absence is proven only by listing PaymentIntents ({@code GET
 * /v1/payment_intents}, which Stripe names as the read-after-write source on that page)
 * created since the payment was created less {@link #CLOCK_SKEW}, every page to the end,
 * and finding none whose metadata carries the payment id (docs/design.md section 5). Any
 * failure of a lookup, or a list longer than {@link StripeLists#MAX_LIST_PAGES} pages, is
 * {@link GatewayResult.Unknown}, never "not found". Thread-safe.
 */
final class StripeLookups {

	/**
	 * How far Stripe's clock may run behind Payonce's: the list of a proof of absence
	 * starts this long before the payment was created.
	 */
	static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

	/** The adapter's logger, whichever of its parts logs. */
	private static final Logger log = LoggerFactory.getLogger(StripePaymentGateway.class);

	private final StripeClient stripe;

	StripeLookups(StripeClient stripe) {
		this.stripe = stripe;
	}

	/** See {@link dev.payonce.provider.PaymentGateway#lookup}. */
	GatewayResult lookup(ChargeRequest request) {
		String known = request.providerReference();
		return (known != null) ? retrieve(known) : search(request);
	}

	/**
	 * Reads a PaymentIntent Stripe already named by id ({@code GET
	 * /v1/payment_intents/{id}}), which is consistent: no settle time. Not found is never
	 * "no charge" here: the id came from Stripe, so it is {@link GatewayResult.Unknown}.
	 */
	private GatewayResult retrieve(String intentId) {
		try {
			return StripeOutcomes.of(this.stripe.v1().paymentIntents().retrieve(intentId));
		}
		catch (StripeException ex) {
			return new GatewayResult.Unknown("stripe retrieve failed: " + ex.getStatusCode() + " " + ex.getCode(),
					intentId, false);
		}
	}

	private GatewayResult search(ChargeRequest request) {
		PaymentIntentSearchParams params = PaymentIntentSearchParams.builder()
			.setQuery("metadata['" + StripeCharges.PAYMENT_ID_METADATA + "']:'" + request.paymentId() + "'")
			.setLimit(10L)
			.build();
		List<PaymentIntent> found;
		try {
			found = this.stripe.v1().paymentIntents().search(params).getData();
		}
		catch (StripeException ex) {
			return new GatewayResult.Unknown("stripe search failed: " + ex.getStatusCode() + " " + ex.getCode());
		}
		// Search lags behind Stripe's writes: an empty answer is no proof; a list is.
		return found.isEmpty() ? list(request) : best(request, found);
	}

	/**
	 * The consistent proof of absence: every PaymentIntent created since the payment was
	 * created (less {@link #CLOCK_SKEW}), newest first, page after page with
	 * {@code starting_after} until {@code has_more} is false
	 * (https://docs.stripe.com/api/payment_intents/list,
	 * https://docs.stripe.com/api/pagination), filtered by the payment id in the
	 * metadata.
	 */
	private GatewayResult list(ChargeRequest request) {
		long since = Math.max(0, request.createdAt().minus(CLOCK_SKEW).getEpochSecond());
		String paymentId = request.paymentId().toString();
		Optional<List<PaymentIntent>> listed = StripeLists.everyPage("PaymentIntents since payment " + paymentId,
				(after) -> this.stripe.v1()
					.paymentIntents()
					.list(PaymentIntentListParams.builder()
						.setCreated(PaymentIntentListParams.Created.builder().setGte(since).build())
						.setLimit(StripeLists.LIST_PAGE)
						.setStartingAfter(after)
						.build()));
		if (listed.isEmpty()) {
			return new GatewayResult.Unknown("stripe list failed or too long: no proof of absence");
		}
		List<PaymentIntent> found = listed.get()
			.stream()
			.filter((intent) -> intent.getMetadata() != null
					&& paymentId.equals(intent.getMetadata().get(StripeCharges.PAYMENT_ID_METADATA)))
			.toList();
		return found.isEmpty()
				? new GatewayResult.NotAttempted(
						"no PaymentIntent created since the payment carries its id (listed to the end)")
				: best(request, found);
	}

	/** The outcome of the PaymentIntents that carry the payment id: the money wins. */
	private static GatewayResult best(ChargeRequest request, List<PaymentIntent> found) {
		if (found.size() > 1) {
			log.error("Stripe has {} PaymentIntents for payment {}: more than one provider key generation charged",
					found.size(), request.paymentId());
		}
		// A charge that succeeded wins over a failed one: the money moved.
		return found.stream().map(StripeOutcomes::of).min(Comparator.comparingInt(StripeLookups::rank)).orElseThrow();
	}

	private static int rank(GatewayResult result) {
		return switch (result) {
			case GatewayResult.Approved approved -> 0;
			case GatewayResult.Unknown unknown -> 1;
			case GatewayResult.Declined declined -> 2;
			case GatewayResult.NotAttempted notAttempted -> 3;
		};
	}

}
