-- The sweep for extra charges and refunds (docs/design.md section 5, "Extra charges")
-- reads, every few minutes, the final payments and refunds of the last 24 hours that were
-- sent under more than one provider key generation or FAILED: a handful among millions,
-- so each gets a small partial index instead of a scan by creation time.
CREATE INDEX ix_payments_extra_charge_sweep ON payments (created_at)
    WHERE provider_key_generation > 1 OR status = 'FAILED';

CREATE INDEX ix_refunds_extra_refund_sweep ON refunds (created_at)
    WHERE provider_key_generation > 1 OR status = 'FAILED';
