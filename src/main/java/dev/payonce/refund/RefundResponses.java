package dev.payonce.refund;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.stereotype.Component;

import dev.payonce.idempotency.StoredResponse;
import dev.payonce.payment.FinalResponses;
import dev.payonce.payment.PaymentId;

/**
 * Renders the final answers of a refund that are stored with its idempotency record and
 * replayed byte for byte: 201 with the refund's receipt and {@code Location}, 402 with
 * the {@code refund-declined} or {@code refund-failed} problem (docs/design.md section
 * 8).
 */
@Component
public class RefundResponses {

	private final JsonMapper json;

	RefundResponses(JsonMapper json) {
		this.json = json;
	}

	/**
	 * The JSON receipt of a refund, as {@code GET} and a 201 show it.
	 * @param refund the refund
	 * @return the receipt's JSON, UTF-8 text
	 */
	public String receipt(Refund refund) {
		return this.json.writeValueAsString(RefundReceipt.of(refund));
	}

	/**
	 * One page of a payment's refunds as a {@link RefundList}.
	 * @param paymentId the payment
	 * @param page the page
	 * @return the list's JSON, UTF-8 text
	 */
	public String page(PaymentId paymentId, RefundPage.Found page) {
		return this.json.writeValueAsString(
				new RefundList(RefundList.OBJECT, page.refunds().stream().map(RefundReceipt::of).toList(),
						page.hasMore(), "/payments/" + paymentId + "/refunds"));
	}

	StoredResponse created(Refund refund) {
		return FinalResponses.created(location(refund), receipt(refund));
	}

	StoredResponse declined(Refund refund) {
		Map<String, @Nullable Object> extensions = new LinkedHashMap<>();
		extensions.put("declineCode", refund.declineCode());
		return paymentRequired(refund, "refund-declined", "Refund declined",
				"The payment provider declined the refund; nothing was refunded and the amount is refundable again.",
				extensions);
	}

	StoredResponse failed(Refund refund) {
		return paymentRequired(refund, "refund-failed", "Refund failed",
				"The payment provider never processed this refund and nothing was refunded. "
						+ "Use a new Idempotency-Key to try again.",
				Map.of());
	}

	private static String location(Refund refund) {
		return "/payments/" + refund.paymentId() + "/refunds/" + refund.id();
	}

	/**
	 * A final 402 problem about one refund, rendered once and stored for every replay.
	 */
	private static StoredResponse paymentRequired(Refund refund, String slug, String title, String detail,
			Map<String, @Nullable Object> extensions) {
		Map<String, @Nullable Object> members = new LinkedHashMap<>();
		members.put("paymentId", refund.paymentId().toString());
		members.put("refundId", refund.id().toString());
		members.putAll(extensions);
		return FinalResponses.paymentRequired(slug, title, detail, "/payments/" + refund.paymentId() + "/refunds",
				members);
	}

}
