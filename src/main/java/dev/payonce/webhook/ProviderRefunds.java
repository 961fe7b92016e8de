package dev.payonce.webhook;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import dev.payonce.provider.ProviderEvent;
import dev.payonce.payment.PaymentId;
import dev.payonce.refund.RefundId;

/**
 * Money moved outside Payonce, in plain SQL (docs/design.md section 10): refunds the
 * provider made without Payonce ({@code provider_refunds}, one row per provider refund
 * id), their sum on the payment row ({@code payments.external_refunded_amount}), the
 * reversal of a Payonce refund the provider reports failed after it succeeded, and the
 * mark of a payment whose charge succeeded after Payonce answered it declined. Every
 * method runs in the caller's transaction (the webhook event's completion), so the change
 * commits with the event's ledger row or not at all.
 */
@Repository
class ProviderRefunds {

	private static final Logger log = LoggerFactory.getLogger(ProviderRefunds.class);

	private final JdbcClient jdbc;

	ProviderRefunds(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Records a refund made outside Payonce, or moves it forwards, and adjusts what the
	 * payment counts as refunded outside Payonce by the difference. Once per provider
	 * refund id, whatever order and however often its events come: the row is inserted
	 * with {@code ON CONFLICT DO NOTHING} (a concurrent insert of the same refund waits
	 * for the first to commit, then inserts nothing) and otherwise locked
	 * {@code FOR UPDATE} before its status moves, so two events of one refund never both
	 * count it.
	 * @param provider the provider's name
	 * @param paymentId the payment whose charge was refunded
	 * @param refund the refund as the event states it
	 * @param now the time of the change
	 * @return how the payment's external refunded amount changed, in minor units
	 * (positive: counted, negative: given back, zero: nothing new)
	 * @throws IllegalStateException if the payment's external refunds would exceed its
	 * amount (the provider never refunds more than the charge: a broken invariant)
	 */
	long record(String provider, PaymentId paymentId, ProviderEvent.ProviderRefund refund, Instant now) {
		boolean inserted = this.jdbc.sql("""
				INSERT INTO provider_refunds
				    (provider, provider_reference, payment_id, amount, currency, status, created_at, updated_at)
				VALUES (:provider, :reference, :paymentId, :amount, :currency, :status, :now, :now)
				ON CONFLICT (provider, provider_reference) DO NOTHING
				""")
			.param("provider", provider)
			.param("reference", refund.providerReference())
			.param("paymentId", paymentId.value())
			.param("amount", refund.amount())
			.param("currency", refund.currency().toUpperCase(Locale.ROOT))
			.param("status", refund.status().name())
			.param("now", now.atOffset(ZoneOffset.UTC))
			.update() == 1;
		long delta;
		if (inserted) {
			delta = refund.status().counts() ? refund.amount() : 0;
		}
		else {
			Recorded recorded = this.jdbc.sql("""
					SELECT status, amount FROM provider_refunds
					WHERE provider = :provider AND provider_reference = :reference
					FOR UPDATE
					""")
				.param("provider", provider)
				.param("reference", refund.providerReference())
				.query((rs, row) -> new Recorded(ProviderEvent.ProviderRefundStatus.valueOf(rs.getString("status")),
						rs.getLong("amount")))
				.single();
			if (!recorded.status().movesTo(refund.status())) {
				return 0;
			}
			this.jdbc.sql("""
					UPDATE provider_refunds SET status = :status, updated_at = :now
					WHERE provider = :provider AND provider_reference = :reference
					""")
				.param("status", refund.status().name())
				.param("now", now.atOffset(ZoneOffset.UTC))
				.param("provider", provider)
				.param("reference", refund.providerReference())
				.update();
			// The amount first recorded is the refund's: Stripe never changes a
			// refund's amount.
			delta = ((refund.status().counts() ? 1 : 0) - (recorded.status().counts() ? 1 : 0)) * recorded.amount();
		}
		if (delta != 0) {
			int updated = this.jdbc.sql("""
					UPDATE payments SET external_refunded_amount = external_refunded_amount + :delta, updated_at = :now
					WHERE id = :paymentId AND external_refunded_amount + :delta BETWEEN 0 AND amount
					""")
				.param("delta", delta)
				.param("now", now.atOffset(ZoneOffset.UTC))
				.param("paymentId", paymentId.value())
				.update();
			if (updated != 1) {
				throw new IllegalStateException("Payment " + paymentId + " cannot count " + delta
						+ " more minor units refunded outside Payonce: it would exceed the amount");
			}
		}
		return delta;
	}

	/**
	 * What remains refundable of a payment by Payonce's and the provider's records
	 * together: amount - refunded - in flight - refunded outside Payonce, at least 0.
	 * @return minor units, or empty if the payment does not exist
	 */
	Optional<Long> refundable(PaymentId paymentId) {
		return this.jdbc.sql("""
				SELECT GREATEST(0, amount - refunded_amount - refunds_in_flight - external_refunded_amount)
				FROM payments WHERE id = :paymentId
				""").param("paymentId", paymentId.value()).query(Long.class).optional();
	}

	/**
	 * Payonce's own view of what the provider has refunded or is refunding of a payment:
	 * refunded + in flight + refunded outside Payonce.
	 * @return minor units, or empty if the payment does not exist
	 */
	Optional<Long> onRecord(PaymentId paymentId) {
		return this.jdbc
			.sql("""
					SELECT refunded_amount + refunds_in_flight + external_refunded_amount FROM payments WHERE id = :paymentId
					""")
			.param("paymentId", paymentId.value())
			.query(Long.class)
			.optional();
	}

	/**
	 * Moves a Payonce refund the provider reports failed after it succeeded to
	 * {@code DECLINED} and gives its amount back to the payment, in two statements each
	 * guarded by the state it changes: only a refund still {@code SUCCEEDED} moves (a
	 * second event of the same failure, after the first committed, finds it
	 * {@code DECLINED} and changes nothing), and only then is the amount given back.
	 * @param refundId the refund
	 * @param declineCode the provider's reason, at most 64 characters
	 * @return true if the refund moved and its amount was given back
	 * @throws IllegalStateException if the payment does not count the refund's amount as
	 * refunded (a broken invariant)
	 */
	boolean reverseSucceededRefund(RefundId refundId, String declineCode, Instant now) {
		Optional<Moved> moved = this.jdbc.sql("""
				UPDATE refunds SET status = 'DECLINED', decline_code = :declineCode, updated_at = :now,
				    version = version + 1
				WHERE id = :refundId AND status = 'SUCCEEDED'
				RETURNING payment_id, amount
				""")
			.param("declineCode", declineCode)
			.param("now", now.atOffset(ZoneOffset.UTC))
			.param("refundId", refundId.value())
			.query((rs, row) -> new Moved(rs.getObject("payment_id", UUID.class), rs.getLong("amount")))
			.optional();
		if (moved.isEmpty()) {
			return false;
		}
		int updated = this.jdbc.sql("""
				UPDATE payments SET refunded_amount = refunded_amount - :amount, updated_at = :now
				WHERE id = :paymentId AND refunded_amount >= :amount
				""")
			.param("amount", moved.get().amount())
			.param("now", now.atOffset(ZoneOffset.UTC))
			.param("paymentId", moved.get().paymentId())
			.update();
		if (updated != 1) {
			throw new IllegalStateException(
					"Payment " + moved.get().paymentId() + " does not count refund " + refundId + " as refunded");
		}
		return true;
	}

	/**
	 * Marks a DECLINED payment whose charge the provider reports succeeded, once.
	 * @return true if this call marked it
	 */
	boolean markSucceededAfterDecline(PaymentId paymentId, Instant now) {
		return this.jdbc.sql("""
				UPDATE payments SET succeeded_after_decline_at = :now, updated_at = :now
				WHERE id = :paymentId AND status = 'DECLINED' AND succeeded_after_decline_at IS NULL
				""").param("now", now.atOffset(ZoneOffset.UTC)).param("paymentId", paymentId.value()).update() == 1;
	}

	/**
	 * The payment a provider reference names: the payment whose charge it is. A provider
	 * reference names one charge (Stripe's ids are unique); should two payments carry the
	 * same one, neither is chosen: a refund is never attributed by a guess.
	 * @return the payment's id, or empty if not exactly one payment has this reference
	 */
	Optional<PaymentId> paymentOf(String paymentReference) {
		List<UUID> found = this.jdbc.sql("SELECT id FROM payments WHERE provider_reference = :reference LIMIT 2")
			.param("reference", paymentReference)
			.query(UUID.class)
			.list();
		if (found.size() > 1) {
			log.warn("More than one payment carries the provider reference of a refunded charge; its refunds are "
					+ "not attributed");
		}
		return (found.size() == 1) ? Optional.of(new PaymentId(found.get(0))) : Optional.empty();
	}

	private record Recorded(ProviderEvent.ProviderRefundStatus status, long amount) {
	}

	private record Moved(UUID paymentId, long amount) {
	}

}
