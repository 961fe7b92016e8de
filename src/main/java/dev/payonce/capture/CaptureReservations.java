package dev.payonce.capture;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import dev.payonce.client.ClientId;
import dev.payonce.payment.PaymentId;
import dev.payonce.payment.PaymentStatus;
import dev.payonce.provider.CaptureSequence;
import dev.payonce.provider.ProviderServices;

/**
 * Why a capture's reservation ({@link CaptureTable}) wrote nothing, read after it in the
 * caller's transaction (docs/design.md section 15).
 */
@Repository
class CaptureReservations {

	private final JdbcClient jdbc;

	private final CaptureSequence sequence;

	CaptureReservations(JdbcClient jdbc, ProviderServices services) {
		this.jdbc = jdbc;
		this.sequence = services.gateway().captureSequence();
	}

	/**
	 * Why the reservation wrote nothing. At a provider that takes captures one at a time
	 * ({@link CaptureSequence}), another capture in flight makes the payment not
	 * capturable for now, as a void in flight does.
	 * @return the refusal to answer
	 */
	CaptureOutcome refusal(PaymentId paymentId, ClientId clientId) {
		return this.jdbc.sql("""
				SELECT status, capture_method, void_in_flight, captures_in_flight,
				    authorization_expires_at <= statement_timestamp() AS expired,
				    GREATEST(0, amount - captured_amount - captures_in_flight) AS capturable
				FROM payments WHERE id = :paymentId AND client_id = :clientId
				""").param("paymentId", paymentId.value()).param("clientId", clientId.value()).query((rs, row) -> {
			PaymentStatus status = PaymentStatus.valueOf(rs.getString("status"));
			if (!"manual".equals(rs.getString("capture_method")) || status != PaymentStatus.AUTHORIZED
					|| rs.getBoolean("void_in_flight")
					|| (!this.sequence.overlaps() && rs.getLong("captures_in_flight") > 0)) {
				return (CaptureOutcome) new CaptureOutcome.PaymentNotCapturable(status);
			}
			if (rs.getBoolean("expired")) {
				return new CaptureOutcome.AuthorizationExpired();
			}
			return new CaptureOutcome.ExceedsCapturable(rs.getLong("capturable"));
		}).optional().orElseGet(CaptureOutcome.PaymentNotFound::new);
	}

}
