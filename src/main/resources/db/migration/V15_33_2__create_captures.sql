-- Captures of a manual payment's authorization (docs/design.md section 15). A capture reserves its amount on
-- the payment row (payments.captures_in_flight, V15_33_1) with one conditional UPDATE in its claim, so
-- captured + in flight never exceeds the amount, whatever the concurrency; its fenced completion moves the
-- reservation to captured_amount or gives it back. Captures are never deleted. A void in flight holds the
-- payment (void_in_flight): no capture is claimed while it runs, and it is claimed only while no capture is.
ALTER TABLE payments ADD COLUMN void_in_flight boolean NOT NULL DEFAULT false;
CREATE TABLE captures (
    id                       uuid         NOT NULL,
    payment_id               uuid         NOT NULL,
    client_id                varchar(64)  NOT NULL,
    amount                   bigint       NOT NULL,
    currency                 varchar(3)   NOT NULL,
    status                   varchar(16)  NOT NULL,
    provider_reference       varchar(255),
    decline_code             varchar(64),
    provider_key_generation  integer      NOT NULL DEFAULT 1,
    provider_key_replayed_at timestamptz,
    created_at               timestamptz  NOT NULL,
    updated_at               timestamptz  NOT NULL,
    version                  bigint       NOT NULL,
    CONSTRAINT pk_captures PRIMARY KEY (id),
    CONSTRAINT fk_captures_payment FOREIGN KEY (payment_id) REFERENCES payments (id),
    CONSTRAINT ck_captures_amount CHECK (amount BETWEEN 1 AND 99999999999),
    CONSTRAINT ck_captures_status CHECK (status IN ('PENDING', 'SUCCEEDED', 'DECLINED', 'FAILED')),
    CONSTRAINT ck_captures_provider_key_generation CHECK (provider_key_generation >= 1)
);

CREATE INDEX ix_captures_payment_created_id ON captures (payment_id, created_at, id);

-- The payment simulator's capture ledger: deduplicated by the capture's provider idempotency key, written in
-- the simulator's own transaction, like its charges and refunds.
CREATE TABLE simulated_provider_captures (
    provider_reference       varchar(64)  NOT NULL,
    provider_idempotency_key varchar(255) NOT NULL,
    charge_reference         varchar(64)  NOT NULL,
    amount                   bigint       NOT NULL,
    outcome                  varchar(16)  NOT NULL,
    decline_code             varchar(64),
    created_at               timestamptz  NOT NULL,
    CONSTRAINT pk_simulated_provider_captures PRIMARY KEY (provider_reference),
    CONSTRAINT uk_simulated_provider_captures_idempotency_key UNIQUE (provider_idempotency_key),
    CONSTRAINT ck_simulated_provider_captures_outcome CHECK (outcome IN ('SUCCEEDED', 'DECLINED'))
);

-- What the simulator's captures took of a charge, and when a void released it: the one row a capture's or
-- void's single statement updates, so that concurrent ones are judged one after the other.
ALTER TABLE simulated_provider_charges ADD COLUMN captured_total bigint NOT NULL DEFAULT 0;
ALTER TABLE simulated_provider_charges ADD COLUMN voided_at timestamptz;

CREATE INDEX ix_simulated_provider_captures_charge ON simulated_provider_captures (charge_reference);
