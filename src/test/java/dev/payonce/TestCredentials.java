package dev.payonce;

/**
 * The credentials of test configuration
 * ({@code src/test/resources/config/application.properties}) and of the processes
 * {@link PayonceProcess} starts.
 */
public final class TestCredentials {

	/** The development client's published key (the development client is on in tests). */
	public static final String DEV_KEY = "sk_test_LocalDevelopmentKeyDoNotUseInProduction0000";

	/** The admin token of every test instance. */
	public static final String ADMIN_TOKEN = "test-admin-token-R7q2Wm9xKp4Vt8Ls3Nd6Hz1FbQ5yTc";

	private TestCredentials() {
	}

}
