package io.payonce.client;

import java.util.Objects;
import java.util.Optional;

/**
 * What to refund (the {@code RefundRequest} schema): an amount, or all that remains, and
 * an optional reason. As for payments, every call with one key sends the same request.
 *
 * @param amount minor units of the payment's currency, 1 to 99 999 999 999, or empty for
 * all that remains refundable
 * @param reason why, or empty
 */
public record RefundRequest(Optional<Long> amount, Optional<RefundReason> reason) {

	/**
	 * Checks the amount and the reason.
	 * @throws IllegalArgumentException if the amount is out of range or the reason is
	 * {@link RefundReason#UNRECOGNIZED}
	 */
	public RefundRequest {
		Objects.requireNonNull(amount, "amount");
		Objects.requireNonNull(reason, "reason");
		amount.ifPresent((value) -> {
			if (value < 1 || value > PaymentRequest.MAX_AMOUNT) {
				throw new IllegalArgumentException(
						"amount is 1 to " + PaymentRequest.MAX_AMOUNT + " minor units, got " + value);
			}
		});
		if (reason.orElse(null) == RefundReason.UNRECOGNIZED) {
			throw new IllegalArgumentException("UNRECOGNIZED is not a reason to send");
		}
	}

	/**
	 * Refund all that remains refundable.
	 * @return the request
	 */
	public static RefundRequest all() {
		return new RefundRequest(Optional.empty(), Optional.empty());
	}

	/**
	 * Refund an amount.
	 * @param amount minor units of the payment's currency
	 * @return the request
	 */
	public static RefundRequest of(long amount) {
		return new RefundRequest(Optional.of(amount), Optional.empty());
	}

	/**
	 * This request with a reason.
	 * @param reason why
	 * @return a new request
	 */
	public RefundRequest withReason(RefundReason reason) {
		return new RefundRequest(this.amount, Optional.of(reason));
	}

}
