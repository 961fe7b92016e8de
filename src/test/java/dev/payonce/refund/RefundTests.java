package dev.payonce.refund;

import java.time.Instant;
import java.util.Currency;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.payonce.client.ClientId;
import dev.payonce.payment.PaymentId;
import dev.payonce.provider.Money;
import dev.payonce.provider.RefundReason;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@link Refund}'s transitions and the provider request it makes: each final status is
 * reached once from PENDING, and the provider idempotency key never changes.
 */
class RefundTests {

	private static final Instant CREATED = Instant.parse("2026-11-30T10:00:00Z");

	private static final Instant LATER = Instant.parse("2026-11-30T10:00:01Z");

	@Test
	void sendsTheSameRequestWithAKeyDerivedFromTheRefundIdOnEveryAttempt() {
		Refund refund = pending(RefundReason.DUPLICATE);

		assertThat(refund.refundRequest("sim_ch_1")).isEqualTo(refund.refundRequest("sim_ch_1"));
		assertThat(refund.refundRequest("sim_ch_1").providerIdempotencyKey())
			.isEqualTo("payonce-refund-" + refund.id());
		assertThat(refund.refundRequest("sim_ch_1").amount()).isEqualTo(refund.amount());
		assertThat(refund.reason()).isEqualTo(RefundReason.DUPLICATE);
		assertThat(refund.status()).isEqualTo(RefundStatus.PENDING);
	}

	@Test
	void movesToTheNextKeyGenerationOnlyAfterItsKeyWasReplayed() {
		Refund refund = pending(null);

		assertThatIllegalStateException().isThrownBy(() -> refund.startNewProviderKeyGeneration(1, LATER));
		refund.recordProviderKeyReplayed(1, CREATED);
		assertThatIllegalStateException().isThrownBy(() -> refund.startNewProviderKeyGeneration(2, LATER));
		refund.startNewProviderKeyGeneration(1, LATER);

		assertThat(refund.providerKeyGeneration()).isEqualTo(2);
		assertThat(refund.providerKeyReplayedAt()).isNull();
		assertThat(refund.refundRequest("pi_1").providerIdempotencyKey())
			.isEqualTo("payonce-refund-" + refund.id() + "-g2");
	}

	@Test
	void aRefundTheProviderNamedKeepsItsFirstReferenceAndNeverMovesToANewKeyGeneration() {
		Refund refund = pending(null);
		refund.recordProviderKeyReplayed(1, CREATED);

		boolean kept = refund.rememberProviderReference("re_1", LATER);
		boolean replaced = refund.rememberProviderReference("re_2", LATER);

		assertThat(kept).isTrue();
		assertThat(replaced).isFalse();
		assertThat(refund.providerReference()).isEqualTo("re_1");
		assertThat(refund.status()).isEqualTo(RefundStatus.PENDING);
		assertThatIllegalStateException().isThrownBy(() -> refund.startNewProviderKeyGeneration(1, LATER))
			.withMessageContaining("the provider named it");
		assertThat(refund.providerKeyGeneration()).isEqualTo(1);
	}

	@Test
	void markSucceededRecordsTheProviderReference() {
		Refund refund = pending(null);

		refund.markSucceeded("sim_re_1", LATER);

		assertThat(refund.status()).isEqualTo(RefundStatus.SUCCEEDED);
		assertThat(refund.providerReference()).isEqualTo("sim_re_1");
		assertThat(refund.reason()).isNull();
	}

	@Test
	void markDeclinedRecordsTheDeclineCode() {
		Refund refund = pending(null);

		refund.markDeclined("sim_re_2", "refund_failed", LATER);

		assertThat(refund.status()).isEqualTo(RefundStatus.DECLINED);
		assertThat(refund.declineCode()).isEqualTo("refund_failed");
	}

	@Test
	void refusesToLeaveAFinalStatusAndNamesIt() {
		Refund succeeded = pending(null);
		succeeded.markSucceeded("sim_re_3", LATER);
		Refund failed = pending(null);
		failed.markFailed(LATER);

		assertThatIllegalStateException().isThrownBy(() -> succeeded.markFailed(LATER))
			.withMessageContaining("SUCCEEDED");
		assertThatIllegalStateException().isThrownBy(() -> failed.markSucceeded("sim_re_4", LATER))
			.withMessageContaining("FAILED");
		assertThat(succeeded.providerReference()).isEqualTo("sim_re_3");
	}

	@Test
	void readsReasonsOnlyByTheirExactWireName() {
		assertThat(RefundReason.fromWireName("requested_by_customer")).contains(RefundReason.REQUESTED_BY_CUSTOMER);
		assertThat(RefundReason.fromWireName("REQUESTED_BY_CUSTOMER")).isEmpty();
		assertThat(RefundReason.fromWireName("changed_my_mind")).isEmpty();
	}

	private static Refund pending(RefundReason reason) {
		return Refund.pending(new RefundId(UUID.randomUUID()), PaymentId.random(), new ClientId("alice"),
				new Money(300, Currency.getInstance("ILS")), reason, CREATED);
	}

}
