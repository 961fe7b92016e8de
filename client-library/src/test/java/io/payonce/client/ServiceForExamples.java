package io.payonce.client;

/**
 * The shared {@link PayonceService} for tests outside this package (the example's).
 */
public final class ServiceForExamples {

	private ServiceForExamples() {
	}

	/**
	 * Where the service answers, starting it on first use.
	 * @return its base URL
	 */
	public static String baseUrl() {
		return PayonceService.shared().baseUrl();
	}

	/**
	 * The development client's API key.
	 * @return the key
	 */
	public static String apiKey() {
		return PayonceService.DEV_KEY;
	}

}
