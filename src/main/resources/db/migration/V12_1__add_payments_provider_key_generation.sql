-- The provider idempotency key of a payment is derived from its id and this generation
-- (1: "payonce-payment-<id>", n > 1: "payonce-payment-<id>-g<n>"). A provider that saves the
-- first answer to a key (Stripe saves even a 500) would answer a key whose first attempt failed
-- the same way forever; the generation moves on only after a lookup proved that the provider has
-- no charge for the payment under any key (PaymentReconciler), so a new key can never charge twice.
ALTER TABLE payments
    ADD COLUMN provider_key_generation integer NOT NULL DEFAULT 1,
    ADD CONSTRAINT ck_payments_provider_key_generation CHECK (provider_key_generation >= 1);
