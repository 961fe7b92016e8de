-- Payments are never deleted. Amounts are integer minor units of an ISO 4217 currency (docs/design.md section 2).
CREATE TABLE payments (
    id                 uuid         NOT NULL,
    client_id          varchar(64)  NOT NULL,
    order_id           varchar(64)  NOT NULL,
    amount             bigint       NOT NULL,
    currency           varchar(3)   NOT NULL,
    payment_method     varchar(64)  NOT NULL,
    status             varchar(16)  NOT NULL,
    provider_reference varchar(255),
    decline_code       varchar(64),
    created_at         timestamptz  NOT NULL,
    updated_at         timestamptz  NOT NULL,
    version            bigint       NOT NULL,
    CONSTRAINT pk_payments PRIMARY KEY (id),
    CONSTRAINT ck_payments_amount CHECK (amount BETWEEN 1 AND 99999999999),
    CONSTRAINT ck_payments_currency CHECK (currency ~ '^[A-Z]{3}$'),
    CONSTRAINT ck_payments_status CHECK (status IN ('PENDING', 'SUCCEEDED', 'DECLINED', 'FAILED'))
);

CREATE INDEX ix_payments_client_id ON payments (client_id, created_at);
