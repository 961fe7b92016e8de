/**
 * Adapters of the {@link dev.payonce.provider.PaymentGateway} port, one sub-package a
 * provider. Nothing depends on them; a provider's own types never leave its adapter.
 */
@NullMarked
package dev.payonce.gateway;

import org.jspecify.annotations.NullMarked;
