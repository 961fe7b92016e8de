package dev.payonce.payment.web;

import java.time.Duration;
import java.util.Currency;
import java.util.Optional;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import dev.payonce.provider.AmountLimits;
import dev.payonce.provider.ChargeRequest;
import dev.payonce.provider.GatewayResult;
import dev.payonce.provider.PaymentGateway;
import dev.payonce.provider.RefundRequest;

/**
 * A provider that only states what it takes (its mode, its amounts) and refuses every
 * call: for checks that run before anything is sent.
 *
 * @param fixedMode the mode it states, or {@code null} for either
 * @param limits the amounts it takes per currency
 */
record StatedGateway(PaymentGateway.@Nullable Mode fixedMode,
		Function<Currency, AmountLimits> limits) implements PaymentGateway {

	static StatedGateway ofMode(PaymentGateway.@Nullable Mode mode) {
		return new StatedGateway(mode, (currency) -> AmountLimits.ANY);
	}

	static StatedGateway withLimits(Function<Currency, AmountLimits> limits) {
		return new StatedGateway(null, limits);
	}

	@Override
	public Optional<Mode> mode() {
		return Optional.ofNullable(this.fixedMode);
	}

	@Override
	public AmountLimits amountLimits(Currency currency) {
		return this.limits.apply(currency);
	}

	@Override
	public GatewayResult charge(ChargeRequest request) {
		throw new UnsupportedOperationException("a check before the call never charges");
	}

	@Override
	public GatewayResult lookup(ChargeRequest request) {
		throw new UnsupportedOperationException("a check before the call never looks up");
	}

	@Override
	public GatewayResult refund(RefundRequest request) {
		throw new UnsupportedOperationException("a check before the call never refunds");
	}

	@Override
	public GatewayResult lookupRefund(RefundRequest request) {
		throw new UnsupportedOperationException("a check before the call never looks up");
	}

	@Override
	public Duration worstCaseCallDuration() {
		return Duration.ZERO;
	}

}
