package dev.payonce.payment;

/**
 * The write that lets a refund's completion skip reading it again
 * ({@link FinishOverRead}); a Spring Data fragment of {@link Refunds}, implemented with
 * {@code JdbcClient} ({@link RefundWritesImpl}), as {@link PaymentWrites} is for
 * payments.
 */
interface RefundWrites {

	/**
	 * Writes a refund that was read in an earlier transaction and moved in memory since,
	 * as {@link PaymentWrites#writeIfUnchanged} does for a payment: one {@code UPDATE} of
	 * its mutable columns, only if its {@code @Version} is still {@code readVersion}.
	 * @param refund the refund, moved in memory since it was read
	 * @param readVersion the version it was read with
	 * @return {@code true} if written; {@code false} if the refund changed since it was
	 * read (or is gone), and nothing was written
	 */
	boolean writeIfUnchanged(Refund refund, long readVersion);

}
