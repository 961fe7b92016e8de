-- Records carry their operation (docs/design.md section 3). The primary key stays (client, key):
-- one key names one operation per client, and the same key sent to another operation is a key reuse.
-- Every record written before operations existed is a payment's.
ALTER TABLE idempotency_records ADD COLUMN operation varchar(32) NOT NULL DEFAULT 'payment';
ALTER TABLE idempotency_records ALTER COLUMN operation DROP DEFAULT;
ALTER TABLE idempotency_records
    ADD CONSTRAINT ck_idempotency_records_operation CHECK (operation ~ '^[a-z_]{1,32}$');

-- The reconciler takes over stale leases one operation at a time.
DROP INDEX ix_idempotency_records_lease;
CREATE INDEX ix_idempotency_records_lease ON idempotency_records (operation, locked_until) WHERE status = 'IN_PROGRESS';
