package dev.payonce.refund;

import java.util.List;

/**
 * One page of a payment's refunds, or why there is none (docs/design.md section 8,
 * "Listing refunds").
 */
public sealed interface RefundPage {

	/**
	 * The refunds after the cursor, in the list's total order ({@code created_at}, then
	 * {@code id}).
	 *
	 * @param refunds at most the page's limit of refunds
	 * @param hasMore whether more refunds follow the last one
	 */
	record Found(List<Refund> refunds, boolean hasMore) implements RefundPage {

		public Found {
			refunds = List.copyOf(refunds);
			if (hasMore && refunds.isEmpty()) {
				throw new IllegalArgumentException("An empty page cannot have more refunds after it");
			}
		}

	}

	/** No such payment, or another client's: answered exactly like an unknown id. */
	record PaymentNotFound() implements RefundPage {
	}

	/**
	 * The cursor names no refund of this payment for this client (unknown, another
	 * payment's or another client's: one answer for all three).
	 */
	record UnknownCursor() implements RefundPage {
	}

}
