-- Refunds of a payment (docs/design.md section 8). The payment row carries what is refunded and what is
-- reserved by refunds in flight; a refund reserves its amount with one conditional UPDATE of this row in
-- its claim transaction, so refunded + in flight never exceeds the amount, whatever the concurrency.
-- The CHECK is the last line of defence behind that statement, never the way a refusal is detected.
ALTER TABLE payments ADD COLUMN refunded_amount bigint NOT NULL DEFAULT 0;
ALTER TABLE payments ADD COLUMN refunds_in_flight bigint NOT NULL DEFAULT 0;
ALTER TABLE payments ADD CONSTRAINT ck_payments_refunds CHECK (
    refunded_amount >= 0 AND refunds_in_flight >= 0 AND refunded_amount + refunds_in_flight <= amount);

-- Refunds are never deleted. Amounts are minor units of the payment's currency.
CREATE TABLE refunds (
    id                 uuid         NOT NULL,
    payment_id         uuid         NOT NULL,
    client_id          varchar(64)  NOT NULL,
    amount             bigint       NOT NULL,
    currency           varchar(3)   NOT NULL,
    reason             varchar(32),
    status             varchar(16)  NOT NULL,
    provider_reference varchar(255),
    decline_code       varchar(64),
    created_at         timestamptz  NOT NULL,
    updated_at         timestamptz  NOT NULL,
    version            bigint       NOT NULL,
    CONSTRAINT pk_refunds PRIMARY KEY (id),
    CONSTRAINT fk_refunds_payment FOREIGN KEY (payment_id) REFERENCES payments (id),
    CONSTRAINT ck_refunds_amount CHECK (amount BETWEEN 1 AND 99999999999),
    CONSTRAINT ck_refunds_status CHECK (status IN ('PENDING', 'SUCCEEDED', 'DECLINED', 'FAILED')),
    CONSTRAINT ck_refunds_reason CHECK (reason IN ('duplicate', 'fraudulent', 'requested_by_customer'))
);

CREATE INDEX ix_refunds_payment_id ON refunds (payment_id, created_at);

-- The payment simulator's refund ledger: deduplicated by the refund's provider idempotency key, written in
-- the simulator's own transaction, like its charges.
CREATE TABLE simulated_provider_refunds (
    provider_reference       varchar(64)  NOT NULL,
    provider_idempotency_key varchar(255) NOT NULL,
    charge_reference         varchar(64)  NOT NULL,
    amount                   bigint       NOT NULL,
    currency                 varchar(3)   NOT NULL,
    outcome                  varchar(16)  NOT NULL,
    decline_code             varchar(64),
    created_at               timestamptz  NOT NULL,
    CONSTRAINT pk_simulated_provider_refunds PRIMARY KEY (provider_reference),
    CONSTRAINT uk_simulated_provider_refunds_idempotency_key UNIQUE (provider_idempotency_key),
    CONSTRAINT ck_simulated_provider_refunds_outcome CHECK (outcome IN ('SUCCEEDED', 'DECLINED'))
);

CREATE INDEX ix_simulated_provider_refunds_charge ON simulated_provider_refunds (charge_reference);
