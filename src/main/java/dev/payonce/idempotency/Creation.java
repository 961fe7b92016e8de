package dev.payonce.idempotency;

/**
 * What an operation's claim step did (see {@link IdempotentOperation#create}).
 *
 * @param <R> the resource type
 * @param <T> the operation's reason type
 */
public sealed interface Creation<R, T> {

	/**
	 * The resource was written in the claim transaction.
	 *
	 * @param <R> the resource type
	 * @param <T> the operation's reason type
	 * @param resource the new resource
	 */
	record Created<R, T>(R resource) implements Creation<R, T> {
	}

	/**
	 * The operation refuses to run (for a refund: it would exceed the payment). The claim
	 * transaction is rolled back: no record, no resource, and a later request with the
	 * key is a fresh claim.
	 *
	 * @param <R> the resource type
	 * @param <T> the operation's reason type
	 * @param reason why, for the caller to render
	 */
	record Refused<R, T>(T reason) implements Creation<R, T> {
	}

}
