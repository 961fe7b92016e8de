package dev.payonce.client;

/**
 * Resolves the client on whose behalf the current request runs, from the request's
 * authenticated API key.
 */
public interface CurrentClient {

	/**
	 * The calling client.
	 * @return the client of the current request, never {@code null}
	 * @throws IllegalStateException if the request was not authenticated as a client (the
	 * security configuration makes that impossible on the payments API)
	 */
	ClientId clientId();

	/**
	 * The mode of the API key the current request authenticated with: {@code sk_live_}
	 * keys are live, {@code sk_test_} keys are test. A payment or refund must fit the
	 * gateway's mode (docs/design.md section 5, "One mode per adapter").
	 * @return {@code true} for a live key
	 * @throws IllegalStateException if the request was not authenticated as a client
	 */
	boolean live();

	/**
	 * Authorisation at the point of effect (docs/design.md section 13): checks again that
	 * the API key this request authenticated with is still active and its client not
	 * disabled, and holds the client's row ({@code FOR KEY SHARE}) until the caller's
	 * transaction ends. A rotation or a disable locks that row first, so it commits
	 * either before this check, which then refuses, or after the caller's transaction,
	 * whose effect was authorised when it committed. Authentication alone cannot give
	 * this: the headers are checked when they arrive, and the body may arrive much later.
	 * @throws RevokedCredentials if the key was revoked or the client disabled since the
	 * request was authenticated; the caller's transaction must then roll back
	 * @throws org.springframework.transaction.IllegalTransactionStateException if called
	 * outside a transaction, where the check would be a second lookup that races
	 */
	void confirmAuthorized();

}
