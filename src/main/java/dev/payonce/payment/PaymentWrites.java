package dev.payonce.payment;

/**
 * The write that lets a payment's completion skip reading it again
 * ({@link FinishOverRead}); a Spring Data fragment of {@link Payments}, implemented with
 * {@code JdbcClient} ({@link PaymentWritesImpl}) because Hibernate translates a JPQL
 * {@code UPDATE} to SQL again on every execution (issue 13's profile: about 40 % of that
 * statement's cost in the JVM).
 */
interface PaymentWrites {

	/**
	 * Writes a payment that was read in an earlier transaction and moved in memory since,
	 * without reading it again: one {@code UPDATE} of its mutable columns, made only if
	 * the row's {@code @Version} is still {@code readVersion}, which it moves on by one
	 * as a JPA write would. So a payment changed by anyone since it was read is never
	 * overwritten. {@code refunded_amount} and {@code refunds_in_flight} are never
	 * written here ({@link RefundReservations} owns them). Runs in the caller's
	 * transaction; the persistence context is neither flushed nor cleared, so the caller
	 * must not hold a managed copy of the payment.
	 * @param payment the payment, moved in memory since it was read
	 * @param readVersion the version it was read with
	 * @return {@code true} if written; {@code false} if the payment changed since it was
	 * read (or is gone), and nothing was written
	 */
	boolean writeIfUnchanged(Payment payment, long readVersion);

}
