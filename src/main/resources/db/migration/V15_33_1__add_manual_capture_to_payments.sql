-- Authorize now, capture later (docs/design.md section 15). A payment made with capture_method 'manual' moves
-- to AUTHORIZED instead of SUCCEEDED when the provider approves it; its hold lapses at authorization_expires_at
-- (counted from the payment's creation, so never after the provider's own). Every existing payment was
-- captured at once.
ALTER TABLE payments ADD COLUMN capture_method varchar(16) NOT NULL DEFAULT 'automatic';
ALTER TABLE payments ADD COLUMN authorization_expires_at timestamptz;
ALTER TABLE payments ADD CONSTRAINT ck_payments_capture_method CHECK (
    (capture_method = 'automatic' AND authorization_expires_at IS NULL)
    OR (capture_method = 'manual' AND authorization_expires_at IS NOT NULL));
-- What captures took and what captures in flight reserve, written only by the capture module's conditional
-- statements on this row; the CHECK is the last line of defence, never the way a refusal is found.
ALTER TABLE payments ADD COLUMN captured_amount bigint NOT NULL DEFAULT 0;
ALTER TABLE payments ADD COLUMN captures_in_flight bigint NOT NULL DEFAULT 0;
ALTER TABLE payments ADD CONSTRAINT ck_payments_captures CHECK (
    captured_amount >= 0 AND captures_in_flight >= 0 AND captured_amount + captures_in_flight <= amount);
ALTER TABLE payments DROP CONSTRAINT ck_payments_status;
ALTER TABLE payments ADD CONSTRAINT ck_payments_status CHECK (
    status IN ('PENDING', 'AUTHORIZED', 'SUCCEEDED', 'DECLINED', 'FAILED', 'VOIDED'));

-- The simulator's ledger keeps whether a charge was only authorized.
ALTER TABLE simulated_provider_charges ADD COLUMN capture_method varchar(16) NOT NULL DEFAULT 'automatic';
