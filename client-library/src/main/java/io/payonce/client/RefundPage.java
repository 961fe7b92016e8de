package io.payonce.client;

import java.util.List;

/**
 * One page of a payment's refunds, oldest first (ties by id; docs/design.md section 8).
 *
 * @param refunds the refunds of this page
 * @param hasMore whether more follow: ask again with {@code startingAfter} set to the id
 * of the last refund here
 */
public record RefundPage(List<Refund> refunds, boolean hasMore) {

	/** Copies the list. */
	public RefundPage {
		refunds = List.copyOf(refunds);
	}

}
