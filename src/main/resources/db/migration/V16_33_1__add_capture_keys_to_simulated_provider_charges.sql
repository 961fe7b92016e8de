-- The simulator's ledger: the provider idempotency keys of the captures a charge took, on the charge's own row, so
-- that the capture statement's check "this key took nothing yet" is re-checked against the newest row version when
-- it waited for that row's lock (PostgreSQL re-checks the target row after a lock wait, not a subquery on another
-- table). Every existing charge took its captures before this column: none of them is waiting to be re-sent.
ALTER TABLE simulated_provider_charges ADD COLUMN capture_keys text[] NOT NULL DEFAULT '{}';
