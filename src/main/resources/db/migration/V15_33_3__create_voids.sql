-- Voids of a manual payment's authorization (docs/design.md section 15): a void holds the payment row
-- (payments.void_in_flight) from its claim to its fenced completion, which moves the payment to VOIDED or
-- lets it go; it is claimed only while no capture is in flight, and no capture is claimed while it is.
-- Voids are never deleted.
CREATE TABLE voids (
    id                       uuid         NOT NULL,
    payment_id               uuid         NOT NULL,
    client_id                varchar(64)  NOT NULL,
    status                   varchar(16)  NOT NULL,
    provider_reference       varchar(255),
    decline_code             varchar(64),
    provider_key_generation  integer      NOT NULL DEFAULT 1,
    provider_key_replayed_at timestamptz,
    created_at               timestamptz  NOT NULL,
    updated_at               timestamptz  NOT NULL,
    version                  bigint       NOT NULL,
    CONSTRAINT pk_voids PRIMARY KEY (id),
    CONSTRAINT fk_voids_payment FOREIGN KEY (payment_id) REFERENCES payments (id),
    CONSTRAINT ck_voids_status CHECK (status IN ('PENDING', 'SUCCEEDED', 'DECLINED', 'FAILED')),
    CONSTRAINT ck_voids_provider_key_generation CHECK (provider_key_generation >= 1)
);

CREATE INDEX ix_voids_payment_id ON voids (payment_id);

-- The payment simulator's void ledger, deduplicated by the void's provider idempotency key.
CREATE TABLE simulated_provider_voids (
    provider_reference       varchar(64)  NOT NULL,
    provider_idempotency_key varchar(255) NOT NULL,
    charge_reference         varchar(64)  NOT NULL,
    outcome                  varchar(16)  NOT NULL,
    decline_code             varchar(64),
    created_at               timestamptz  NOT NULL,
    CONSTRAINT pk_simulated_provider_voids PRIMARY KEY (provider_reference),
    CONSTRAINT uk_simulated_provider_voids_idempotency_key UNIQUE (provider_idempotency_key),
    CONSTRAINT ck_simulated_provider_voids_outcome CHECK (outcome IN ('SUCCEEDED', 'DECLINED'))
);
