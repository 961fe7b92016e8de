package dev.payonce.provider;

import org.springframework.stereotype.Component;

import dev.payonce.idempotency.ReconciliationProperties;

/**
 * What every {@link ProviderOperation} uses besides its own resource: the provider, its
 * meters, the clock and scope of {@link OperationContext}, and the reconciliation window
 * ({@code payonce.reconciliation.*}). One bean, so an operation's constructor names its
 * own collaborators only.
 *
 * @param gateway the payment provider
 * @param metrics the provider-call and final-status meters
 * @param context the clock and after-commit hooks
 * @param reconciliation the reconciler's settings, for the give-up window
 */
@Component
public record ProviderServices(PaymentGateway gateway, ProviderMetrics metrics, OperationContext context,
		ReconciliationProperties reconciliation) {

}
