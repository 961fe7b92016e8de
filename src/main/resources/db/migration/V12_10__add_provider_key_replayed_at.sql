-- When a call under the current provider key generation was first answered from what the provider saved
-- under the key (Stripe: "Idempotent-Replayed: true" on a 5xx). Such a replay proves that the one request
-- under the key that executed has ended, and that no later request under the key will execute: a charge
-- or refund it made exists from before this moment. So a lookup that finds nothing proves there is none
-- once the lookup's settle time has passed since this moment (Stripe's PaymentIntent search: the search
-- settle time; a refund list reads Stripe's own writes: at once), however often clients retry in between,
-- and only then may the next generation be used (docs/design.md section 5). NULL: no such replay seen for
-- the current generation; a new generation starts NULL.
ALTER TABLE payments
    ADD COLUMN provider_key_replayed_at timestamptz;

-- Refunds get provider key generations for the same reason as payments (V12_1): "payonce-refund-<id>" for
-- generation 1, "payonce-refund-<id>-g<n>" after.
ALTER TABLE refunds
    ADD COLUMN provider_key_generation integer NOT NULL DEFAULT 1,
    ADD COLUMN provider_key_replayed_at timestamptz,
    ADD CONSTRAINT ck_refunds_provider_key_generation CHECK (provider_key_generation >= 1);
