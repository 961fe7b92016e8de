-- The statements of a replay whose record is not cached yet: authentication, then the claim
-- attempt that finds the completed record and reads it. -D replay_keys, -D replay_run as
-- bench/run.sh passes them.
\set t random(1, 2)
\set i random(1, :replay_keys)
SELECT c.id FROM api_keys k JOIN clients c ON c.id = k.client_id
  WHERE k.key_digest = :digest AND k.revoked_at IS NULL AND c.disabled_at IS NULL;
BEGIN;
INSERT INTO idempotency_records (scope, idempotency_key, operation, request_fingerprint, status, locked_until, attempt, resource_id, created_at)
  VALUES (:client, 'new-' || :replay_run::text || '-' || :t::text || '-' || :i::text, 'payment', repeat('0', 64), 'IN_PROGRESS', now() + interval '30 seconds', 1, gen_random_uuid(), now())
  ON CONFLICT (scope, idempotency_key) DO NOTHING;
SELECT operation, request_fingerprint, status, locked_until, attempt, resource_id, response_status, response_headers, response_body, expires_at
  FROM idempotency_records WHERE scope = :client AND idempotency_key = 'new-' || :replay_run::text || '-' || :t::text || '-' || :i::text;
COMMIT;
