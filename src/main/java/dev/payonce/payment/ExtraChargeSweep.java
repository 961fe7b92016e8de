package dev.payonce.payment;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.data.domain.Limit;
import org.springframework.stereotype.Component;

import dev.payonce.provider.ExtraCharge;
import dev.payonce.provider.OperationContext;
import dev.payonce.provider.PaymentGateway;
import dev.payonce.provider.ProviderMetrics;

/**
 * The safety net against a second charge or refund (docs/design.md section 5, "Extra
 * charges"). Payonce charges once per payment by construction; this sweep checks that
 * promise against the provider for as long as the provider keeps provider idempotency
 * keys (Stripe: 24 hours), and repairs what it finds:
 * <ul>
 * <li>A payment can have a second charge only if it was sent under more than one provider
 * key generation, or if the provider executed a request after Payonce gave the payment up
 * (FAILED). For each such final payment, every charge the provider holds other than the
 * one Payonce recorded (none for FAILED or DECLINED) is reversed by the gateway
 * ({@link PaymentGateway#reverseExtraCharges}): canceled if it can be, else refunded in
 * full. Each reversal is logged at ERROR (it is a bug) and counted in
 * {@code payonce.provider.duplicates}; a reversal an earlier sweep already made is
 * neither.</li>
 * <li>A refund sent under more than one key generation, or FAILED, with more than one
 * provider refund carrying its id: a refund cannot be taken back, so it is logged at
 * ERROR and counted ({@code action=reported}) once per instance, for the merchant to
 * settle with the customer. That check is the refund module's ({@link Check}).</li>
 * </ul>
 * Reads at most {@link #BATCH} payments and refunds a run, oldest first. Safe on any
 * number of instances at once: reversals carry provider idempotency keys derived from the
 * extra charge. Never charges or refunds a Payonce payment's own charge.
 */
@Component
public class ExtraChargeSweep {

	/** The most payments (and refunds) one run checks. */
	public static final int BATCH = 500;

	private static final Logger log = LoggerFactory.getLogger(ExtraChargeSweep.class);

	private final Payments payments;

	private final PaymentGateway gateway;

	private final ProviderMetrics metrics;

	private final OperationContext context;

	private final List<Check> checks;

	ExtraChargeSweep(Payments payments, PaymentGateway gateway, ProviderMetrics metrics, OperationContext context,
			List<Check> checks) {
		this.payments = payments;
		this.gateway = gateway;
		this.metrics = metrics;
		this.context = context;
		this.checks = List.copyOf(checks);
	}

	/**
	 * One run over the payments and refunds created within the provider's key retention.
	 * @return how many extra charges and refunds this run found and acted on
	 */
	public int sweep() {
		Optional<Duration> retention = this.gateway.providerKeyRetention();
		if (retention.isEmpty()) {
			// A provider that keeps keys for good never sees a second key for a payment.
			return 0;
		}
		Instant since = this.context.now().minus(retention.get());
		int found = sweepPayments(since);
		for (Check check : this.checks) {
			found += check.sweep(since);
		}
		return found;
	}

	private int sweepPayments(Instant since) {
		int found = 0;
		for (Payment payment : this.payments.findExtraChargeCandidates(since, Limit.of(BATCH))) {
			String kept = (payment.status() == PaymentStatus.SUCCEEDED || payment.status() == PaymentStatus.AUTHORIZED
					|| payment.status() == PaymentStatus.VOIDED) ? payment.providerReference() : null;
			Optional<List<ExtraCharge>> extras = this.gateway.reverseExtraCharges(payment.chargeRequest(), kept);
			for (ExtraCharge extra : extras.orElse(List.of())) {
				if (extra.reversal() == ExtraCharge.Reversal.ALREADY_REVERSED) {
					continue;
				}
				found++;
				log.error(
						"Payment {} ({}) has an extra charge {} at the provider: {}; a second charge is a bug "
								+ "(docs/design.md section 5)",
						payment.id(), payment.status(), extra.providerReference(), switch (extra.reversal()) {
							case CANCELED -> "canceled";
							case REFUNDED -> "refunded in full";
							case NOT_REVERSED -> "not reversed yet, the next sweep tries again";
							case ALREADY_REVERSED -> "already reversed";
						});
				this.metrics.duplicate("charge", switch (extra.reversal()) {
					case CANCELED -> "canceled";
					case REFUNDED -> "refunded";
					case NOT_REVERSED, ALREADY_REVERSED -> "not_reversed";
				});
			}
		}
		return found;
	}

	/**
	 * One more check the sweep runs after its own over payments, contributed by an
	 * operation built on payments (refunds: more than one provider refund for one
	 * refund). The sweep knows no such operation; it runs every check it is given, in
	 * order.
	 */
	public interface Check {

		/**
		 * Checks what was created since {@code since} against the provider; logs and
		 * counts what it finds.
		 * @param since the start of the provider's key retention
		 * @return how many extras this check found and acted on
		 */
		int sweep(Instant since);

	}

}
