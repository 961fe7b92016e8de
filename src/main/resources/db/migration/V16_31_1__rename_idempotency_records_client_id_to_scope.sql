-- The engine's records are owned by a scope, not by a client (docs/design.md section 3): the payments API
-- uses the calling client's id, a provider's webhook events use webhook:<provider>. The column and the
-- primary key that names it say so. A rename rewrites no row: PostgreSQL changes only the catalog, and
-- renaming the primary key constraint renames its index with it.
ALTER TABLE idempotency_records RENAME COLUMN client_id TO scope;
ALTER TABLE idempotency_records RENAME CONSTRAINT uk_idempotency_records_client_key TO uk_idempotency_records_scope_key;
