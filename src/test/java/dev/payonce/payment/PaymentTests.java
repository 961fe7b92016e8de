package dev.payonce.payment;

import java.time.Instant;
import java.util.Currency;

import org.junit.jupiter.api.Test;

import dev.payonce.client.ClientId;
import dev.payonce.provider.Money;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@link Payment}'s transitions: each final status is reached once from PENDING, and no
 * final status is ever left.
 */
class PaymentTests {

	private static final Instant CREATED = Instant.parse("2026-11-30T10:00:00Z");

	private static final Instant LATER = Instant.parse("2026-11-30T10:00:01Z");

	@Test
	void startsPendingWithTheSameProviderKeyOnEveryCharge() {
		Payment payment = pending();

		assertThat(payment.status()).isEqualTo(PaymentStatus.PENDING);
		assertThat(payment.chargeRequest()).isEqualTo(payment.chargeRequest());
		assertThat(payment.chargeRequest().providerIdempotencyKey()).isEqualTo("payonce-payment-" + payment.id());
		assertThat(payment.providerReference()).isNull();
	}

	@Test
	void keepsTheFirstReplayOfTheCurrentKeyGenerationAndForgetsItWithTheNextGeneration() {
		Payment payment = pending();

		boolean stale = payment.recordProviderKeyReplayed(2, CREATED);
		boolean first = payment.recordProviderKeyReplayed(1, CREATED);
		boolean second = payment.recordProviderKeyReplayed(1, LATER);
		Instant replayedAt = payment.providerKeyReplayedAt();
		payment.startNewProviderKeyGeneration(1, LATER);

		assertThat(stale).isFalse();
		assertThat(first).isTrue();
		assertThat(second).isFalse();
		assertThat(replayedAt).isEqualTo(CREATED);
		assertThat(payment.providerKeyReplayedAt()).isNull();
		assertThat(payment.chargeRequest().providerIdempotencyKey())
			.isEqualTo("payonce-payment-" + payment.id() + "-g2");
	}

	@Test
	void aChargeTheProviderNamedIsKeptAndLookedUpByIdAndItsPaymentNeverChangesKeyGeneration() {
		Payment payment = pending();

		payment.rememberProviderReference("pi_1", LATER);
		boolean replaced = payment.rememberProviderReference("pi_2", LATER);

		assertThat(replaced).isFalse();
		assertThat(payment.status()).isEqualTo(PaymentStatus.PENDING);
		assertThat(payment.chargeRequest().providerReference()).isEqualTo("pi_1");
		assertThatIllegalStateException().isThrownBy(() -> payment.startNewProviderKeyGeneration(1, LATER));
		assertThat(payment.providerKeyGeneration()).isEqualTo(1);
	}

	@Test
	void markSucceededRecordsTheProviderReference() {
		Payment payment = pending();

		payment.markSucceeded("sim_ch_1", LATER);

		assertThat(payment.status()).isEqualTo(PaymentStatus.SUCCEEDED);
		assertThat(payment.providerReference()).isEqualTo("sim_ch_1");
		assertThat(payment.declineCode()).isNull();
	}

	@Test
	void markDeclinedRecordsTheDeclineCode() {
		Payment payment = pending();

		payment.markDeclined("sim_ch_2", "card_declined", LATER);

		assertThat(payment.status()).isEqualTo(PaymentStatus.DECLINED);
		assertThat(payment.providerReference()).isEqualTo("sim_ch_2");
		assertThat(payment.declineCode()).isEqualTo("card_declined");
	}

	@Test
	void markFailedLeavesNoProviderReference() {
		Payment payment = pending();

		payment.markFailed(LATER);

		assertThat(payment.status()).isEqualTo(PaymentStatus.FAILED);
		assertThat(payment.providerReference()).isNull();
	}

	@Test
	void refusesToLeaveSucceededAndNamesTheStatus() {
		Payment payment = pending();
		payment.markSucceeded("sim_ch_3", LATER);

		assertThatIllegalStateException().isThrownBy(() -> payment.markDeclined("sim_ch_4", "card_declined", LATER))
			.withMessageContaining("SUCCEEDED");
		assertThatIllegalStateException().isThrownBy(() -> payment.markFailed(LATER))
			.withMessageContaining("SUCCEEDED");
		assertThatIllegalStateException().isThrownBy(() -> payment.markSucceeded("sim_ch_5", LATER))
			.withMessageContaining("SUCCEEDED");
		assertThat(payment.providerReference()).isEqualTo("sim_ch_3");
	}

	@Test
	void refusesToLeaveDeclinedOrFailed() {
		Payment declined = pending();
		declined.markDeclined("sim_ch_6", "insufficient_funds", LATER);
		Payment failed = pending();
		failed.markFailed(LATER);

		assertThatIllegalStateException().isThrownBy(() -> declined.markSucceeded("sim_ch_7", LATER))
			.withMessageContaining("DECLINED");
		assertThatIllegalStateException().isThrownBy(() -> failed.markSucceeded("sim_ch_8", LATER))
			.withMessageContaining("FAILED");
	}

	private static Payment pending() {
		return Payment.pending(PaymentId.random(), new ClientId("alice"), "order-1",
				new Money(1200, Currency.getInstance("ILS")), "pm_card_visa", CREATED);
	}

}
