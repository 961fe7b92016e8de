package dev.payonce.gateway.stripe;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;

import dev.payonce.OffsetClock;

/**
 * The one test-mode configuration of {@link StripeIntegrationFixture} that the payment,
 * refund, search-lag and extra-charge tests share, so that they start one application
 * context between them: a test-mode secret key, the model's signing secret, a 600 ms
 * settle time against the model's 300 ms Search lag (Search lags less than the settle
 * time: the reconciler must never outrun it), every claim stale at once for the
 * reconciler a test runs, and an {@link OffsetClock}. A test that needs another lag sets
 * it on the model ({@code StripeApiModel.searchLag}) and puts back {@link #SEARCH_LAG}
 * after each test.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@TestPropertySource(properties = { "payonce.gateway.stripe.secret-key=sk_test_model",
		"payonce.gateway.stripe.webhook-signing-secret=" + StripeTestMode.SIGNING_SECRET,
		"payonce.gateway.stripe.search-settle-time=600ms", "payonce.reconciliation.stale-after=0s",
		"test.stripe-model.search-lag=" + StripeTestMode.SEARCH_LAG_MILLIS + "ms" })
@Import(OffsetClock.Installed.class)
@interface StripeTestMode {

	/** The webhook signing secret of the shared configuration. */
	String SIGNING_SECRET = "whsec_model_signing_secret";

	/** The model's Search lag in the shared configuration, in milliseconds. */
	long SEARCH_LAG_MILLIS = 300;

}
