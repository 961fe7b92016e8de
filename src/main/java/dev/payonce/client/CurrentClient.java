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

}
