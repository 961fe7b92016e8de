-- Exactly the statements Payonce issues for one replay: authentication, then the claim
-- attempt that finds the completed record and reads it. Variables as in new-payment.sql, plus
-- -D replay_keys=<how many keys of replay_run exist per thread> -D replay_run=<run id>.
\set t random(1, 2)
\set i random(1, :replay_keys)
BEGIN READ ONLY;
SELECT c.id FROM api_keys k JOIN clients c ON c.id = k.client_id
  WHERE k.key_digest = :digest AND k.revoked_at IS NULL AND c.disabled_at IS NULL;
COMMIT;
BEGIN;
INSERT INTO idempotency_records (client_id, idempotency_key, request_fingerprint, status, locked_until, attempt, resource_id, created_at)
  VALUES (:client, 'new-' || :replay_run::text || '-' || :t::text || '-' || :i::text, repeat('0', 64), 'IN_PROGRESS', now() + interval '30 seconds', 1, gen_random_uuid(), now())
  ON CONFLICT (client_id, idempotency_key) DO NOTHING;
SELECT request_fingerprint, status, locked_until, attempt, resource_id, response_status, response_headers, response_body, expires_at
  FROM idempotency_records WHERE client_id = :client AND idempotency_key = 'new-' || :replay_run::text || '-' || :t::text || '-' || :i::text;
COMMIT;
