-- The payment simulator's own ledger: what the "provider" believes it charged. Written in the
-- simulator's own transaction, so it survives a crash of the request that called it.
CREATE TABLE simulated_provider_charges (
    provider_reference       varchar(64)  NOT NULL,
    provider_idempotency_key varchar(255) NOT NULL,
    amount                   bigint       NOT NULL,
    currency                 varchar(3)   NOT NULL,
    payment_method           varchar(64)  NOT NULL,
    outcome                  varchar(16)  NOT NULL,
    decline_code             varchar(64),
    created_at               timestamptz  NOT NULL,
    CONSTRAINT pk_simulated_provider_charges PRIMARY KEY (provider_reference),
    CONSTRAINT uk_simulated_provider_charges_idempotency_key UNIQUE (provider_idempotency_key),
    CONSTRAINT ck_simulated_provider_charges_outcome CHECK (outcome IN ('SUCCEEDED', 'DECLINED'))
);
