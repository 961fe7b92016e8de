package dev.payonce.gateway.stripe;

import java.util.List;
import java.util.Optional;

import com.stripe.StripeClient;
import com.stripe.exception.StripeException;
import com.stripe.model.Refund;
import com.stripe.net.RequestOptions;
import com.stripe.param.RefundCreateParams;
import com.stripe.param.RefundListParams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.RefundReason;
import dev.payonce.provider.RefundRequest;

/**
 * Refunds through Stripe's Refunds API.
 *
 * <p>
 * A refund is one {@code POST /v1/refunds} of the payment's PaymentIntent, with the
 * amount in Stripe's units and the client's reason, under the refund's own provider
 * idempotency key (derived from the refund id) and with its refund id in
 * {@code metadata[payonce_refund_id]}; Stripe's errors map as for charges. A refund
 * lookup lists the PaymentIntent's refunds (a list, not a search: it reads Stripe's own
 * writes, so no settle time) and finds the one carrying the refund id;
 * {@link #providerRefunds} lists every Stripe refund carrying a refund id. Thread-safe.
 */
final class StripeRefunds {

	/** The metadata key that carries Payonce's refund id on every Refund. */
	static final String REFUND_ID_METADATA = "payonce_refund_id";

	/** The most refunds one lookup reads of a PaymentIntent (Stripe's page limit). */
	private static final long REFUND_PAGE = 100;

	/** The adapter's logger, whichever of its parts logs. */
	private static final Logger log = LoggerFactory.getLogger(StripePaymentGateway.class);

	private final StripeClient stripe;

	StripeRefunds(StripeClient stripe) {
		this.stripe = stripe;
	}

	/** See {@link dev.payonce.provider.PaymentGateway#refund}. */
	GatewayResult refund(RefundRequest request) {
		if (!StripeAmounts.limits(request.amount().currency()).allows(request.amount().minorUnits())) {
			return StripeOutcomes.notSent(request.amount());
		}
		RefundCreateParams.Builder params = RefundCreateParams.builder()
			.setPaymentIntent(request.chargeReference())
			.setAmount(StripeAmounts.toStripe(request.amount()))
			.putMetadata(REFUND_ID_METADATA, request.refundId().toString());
		RefundReason reason = request.reason();
		if (reason != null) {
			params.setReason(switch (reason) {
				case DUPLICATE -> RefundCreateParams.Reason.DUPLICATE;
				case FRAUDULENT -> RefundCreateParams.Reason.FRAUDULENT;
				case REQUESTED_BY_CUSTOMER -> RefundCreateParams.Reason.REQUESTED_BY_CUSTOMER;
			});
		}
		RequestOptions options = RequestOptions.builder().setIdempotencyKey(request.providerIdempotencyKey()).build();
		try {
			return StripeOutcomes.of(this.stripe.v1().refunds().create(params.build(), options));
		}
		catch (StripeException ex) {
			return StripeOutcomes.ofRefund(ex);
		}
	}

	/** See {@link dev.payonce.provider.PaymentGateway#lookupRefund}. */
	GatewayResult lookupRefund(RefundRequest request) {
		Optional<List<Refund>> refunds = refundsOf(request.chargeReference());
		if (refunds.isEmpty()) {
			return new GatewayResult.Unknown("stripe refund list failed or too long");
		}
		String refundId = request.refundId().toString();
		List<Refund> found = carrying(refundId, refunds.get());
		if (found.isEmpty()) {
			return new GatewayResult.NotAttempted("no refund of the PaymentIntent carries this refund id");
		}
		if (found.size() > 1) {
			log.error("Stripe has {} refunds for refund {}: refunded more than once", found.size(), refundId);
		}
		return StripeOutcomes.of(found.get(0));
	}

	/**
	 * Lists the PaymentIntent's refunds (consistent, every page) and keeps the ids of
	 * those carrying the refund id.
	 */
	Optional<List<String>> providerRefunds(RefundRequest request) {
		String refundId = request.refundId().toString();
		return refundsOf(request.chargeReference())
			.map((refunds) -> carrying(refundId, refunds).stream().map(Refund::getId).toList());
	}

	/**
	 * Every refund of a PaymentIntent, whoever made it
	 * (https://docs.stripe.com/api/refunds/list): a list, not a search, so it reads
	 * Stripe's own writes; also for the webhook's {@code charge.refunded} (docs/design.md
	 * section 10).
	 * @param paymentIntent the PaymentIntent's id
	 * @return its refunds, every page; empty if Stripe could not be read to the end
	 */
	Optional<List<Refund>> refundsOf(String paymentIntent) {
		return StripeLists.everyPage("refunds of " + paymentIntent,
				(after) -> this.stripe.v1()
					.refunds()
					.list(RefundListParams.builder()
						.setPaymentIntent(paymentIntent)
						.setLimit(REFUND_PAGE)
						.setStartingAfter(after)
						.build()));
	}

	/** The refunds of a PaymentIntent that carry the given Payonce refund id. */
	private static List<Refund> carrying(String refundId, List<Refund> refunds) {
		return refunds.stream()
			.filter((refund) -> refund.getMetadata() != null
					&& refundId.equals(refund.getMetadata().get(REFUND_ID_METADATA)))
			.toList();
	}

}
