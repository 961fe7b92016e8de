package dev.payonce.client;

/**
 * Resolves the client on whose behalf the current request runs.
 *
 * <p>
 * Until authentication exists (a later issue) the only implementation answers the one
 * built-in client, {@link BuiltInClient#ID}.
 */
public interface CurrentClient {

	/**
	 * The calling client.
	 * @return the client of the current request, never {@code null}
	 */
	ClientId clientId();

}
