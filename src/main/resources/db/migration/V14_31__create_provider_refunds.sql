-- Money moved outside Payonce (docs/design.md section 10): refunds the provider made of a payment's charge
-- without Payonce (its dashboard, or its API without Payonce's refund id), one row per provider refund id,
-- whatever order and however often its events come. A PENDING or SUCCEEDED row holds its amount in
-- payments.external_refunded_amount, which a reservation subtracts from what remains refundable; a row that
-- moves to FAILED gives it back. Statuses move only forwards (PENDING -> SUCCEEDED -> FAILED).
CREATE TABLE provider_refunds (
    provider           varchar(32)  NOT NULL,
    provider_reference varchar(255) NOT NULL,
    payment_id         uuid         NOT NULL,
    amount             bigint       NOT NULL,
    currency           varchar(3)   NOT NULL,
    status             varchar(16)  NOT NULL,
    created_at         timestamptz  NOT NULL,
    updated_at         timestamptz  NOT NULL,
    CONSTRAINT pk_provider_refunds PRIMARY KEY (provider, provider_reference),
    CONSTRAINT fk_provider_refunds_payment FOREIGN KEY (payment_id) REFERENCES payments (id),
    CONSTRAINT ck_provider_refunds_amount CHECK (amount >= 1),
    CONSTRAINT ck_provider_refunds_status CHECK (status IN ('PENDING', 'SUCCEEDED', 'FAILED'))
);

CREATE INDEX ix_provider_refunds_payment_id ON provider_refunds (payment_id);

-- Not bounded together with refunded_amount + refunds_in_flight: a refund made outside Payonce may take
-- what Payonce has in flight (that refund then fails at the provider), and the provider's word is recorded.
ALTER TABLE payments ADD COLUMN external_refunded_amount bigint NOT NULL DEFAULT 0;
ALTER TABLE payments ADD CONSTRAINT ck_payments_external_refunds CHECK (
    external_refunded_amount >= 0 AND external_refunded_amount <= amount);

-- A payment Payonce answered DECLINED whose PaymentIntent the provider later reports succeeded: the money was
-- taken, so an operator must act (docs/design.md section 10). Set once; the status stays DECLINED.
ALTER TABLE payments ADD COLUMN succeeded_after_decline_at timestamptz;

-- Events about a charge name it by its provider reference.
CREATE INDEX ix_payments_provider_reference ON payments (provider_reference);
