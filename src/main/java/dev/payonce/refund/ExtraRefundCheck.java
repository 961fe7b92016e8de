package dev.payonce.refund;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.data.domain.Limit;
import org.springframework.stereotype.Component;

import dev.payonce.payment.ExtraChargeSweep;
import dev.payonce.provider.PaymentGateway;
import dev.payonce.provider.ProviderMetrics;

/**
 * The refunds' part of the safety net against a second charge or refund
 * ({@link ExtraChargeSweep}, docs/design.md section 5, "Extra charges"): a refund sent
 * under more than one provider key generation, or FAILED, with more than one provider
 * refund carrying its id. A refund cannot be taken back, so it is logged at ERROR and
 * counted ({@code payonce.provider.duplicates}, {@code action=reported}) once per
 * instance, for the merchant to settle with the customer. Reads at most
 * {@link ExtraChargeSweep#BATCH} refunds a run, oldest first.
 */
@Component
class ExtraRefundCheck implements ExtraChargeSweep.Check {

	private static final Logger log = LoggerFactory.getLogger(ExtraRefundCheck.class);

	private final Refunds refunds;

	private final PaymentGateway gateway;

	private final RefundCalls calls;

	private final ProviderMetrics metrics;

	/** Provider refund ids already reported by this instance. */
	private final Set<String> reported = ConcurrentHashMap.newKeySet();

	ExtraRefundCheck(Refunds refunds, PaymentGateway gateway, RefundCalls calls, ProviderMetrics metrics) {
		this.refunds = refunds;
		this.gateway = gateway;
		this.calls = calls;
		this.metrics = metrics;
	}

	@Override
	public int sweep(Instant since) {
		int found = 0;
		for (Refund refund : this.refunds.findExtraRefundCandidates(since, Limit.of(ExtraChargeSweep.BATCH))) {
			List<String> providerRefunds = this.gateway.providerRefunds(this.calls.refundRequest(refund))
				.orElse(List.of());
			if (providerRefunds.size() < 2 || !this.reported.addAll(providerRefunds)) {
				continue;
			}
			found++;
			log.error(
					"Refund {} has {} refunds at the provider ({}): refunded more than once, a bug "
							+ "(docs/design.md section 5); a refund cannot be taken back, settle it with the customer",
					refund.id(), providerRefunds.size(), String.join(", ", providerRefunds));
			this.metrics.duplicate("refund", "reported");
		}
		return found;
	}

}
