-- Provider webhook events applied to payments, one row per (provider, event id): the primary key
-- makes a redelivered event a no-op. The row is written in the same transaction as the effect it
-- records (for a PENDING payment: the fenced completion of the payment and its idempotency record).
CREATE TABLE provider_webhook_events (
    provider    varchar(32)  NOT NULL,
    event_id    varchar(255) NOT NULL,
    event_type  varchar(255) NOT NULL,
    payment_id  uuid,
    effect      varchar(16)  NOT NULL,
    received_at timestamptz  NOT NULL,
    CONSTRAINT pk_provider_webhook_events PRIMARY KEY (provider, event_id),
    CONSTRAINT ck_provider_webhook_events_effect CHECK (effect IN ('APPLIED', 'IGNORED'))
);

-- A webhook settles a payment through the idempotency record that holds it; find that record by
-- its resource while it is IN_PROGRESS (a small partial index: completed records are not in it).
CREATE INDEX ix_idempotency_records_in_progress_resource ON idempotency_records (resource_id)
    WHERE status = 'IN_PROGRESS';
