-- One row per (client, idempotency key): the claim, its lease and, once completed, the stored response.
-- See docs/design.md sections 3 and 4. The engine is generic: resource_id names what the operation created
-- (for POST /payments, the payment id).
CREATE TABLE idempotency_records (
    client_id           varchar(64)  NOT NULL,
    idempotency_key     varchar(255) NOT NULL,
    request_fingerprint varchar(64)  NOT NULL,
    status              varchar(16)  NOT NULL,
    locked_until        timestamptz,
    attempt             integer      NOT NULL,
    resource_id         uuid         NOT NULL,
    response_status     smallint,
    response_headers    jsonb,
    response_body       text,
    created_at          timestamptz  NOT NULL,
    completed_at        timestamptz,
    expires_at          timestamptz,
    CONSTRAINT uk_idempotency_records_client_key PRIMARY KEY (client_id, idempotency_key),
    CONSTRAINT ck_idempotency_records_status CHECK (status IN ('IN_PROGRESS', 'COMPLETED')),
    CONSTRAINT ck_idempotency_records_attempt CHECK (attempt >= 1),
    CONSTRAINT ck_idempotency_records_in_progress_has_lease CHECK (
        status <> 'IN_PROGRESS' OR (locked_until IS NOT NULL AND response_status IS NULL)),
    CONSTRAINT ck_idempotency_records_completed_has_response CHECK (
        status <> 'COMPLETED' OR (response_status IS NOT NULL AND response_body IS NOT NULL
            AND completed_at IS NOT NULL AND expires_at IS NOT NULL))
);

-- The reconciler looks for stale leases; retention looks for expired completed records.
CREATE INDEX ix_idempotency_records_lease ON idempotency_records (locked_until) WHERE status = 'IN_PROGRESS';
CREATE INDEX ix_idempotency_records_expiry ON idempotency_records (expires_at) WHERE status = 'COMPLETED';
