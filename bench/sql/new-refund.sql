-- The statements Payonce issues for one new refund, read off PostgreSQL's statement log on
-- 2026-12-02: the service ran the jar as bench/run.sh does against a scratch database set with
-- ALTER DATABASE ... SET log_statement = 'all', made payments and refunds, and the log was read
-- for one warm refund of 100 minor units (docs/design.md section 4): 3 round trips, as here.
-- 1. The claim, one auto-committed statement: the transaction's lock_timeout, the client check
--    (section 12) and the refundable-amount precheck as the guard's conditions; the record's
--    INSERT; the payment's refunds_in_flight reserved under its row lock; the refund's INSERT.
-- 2. The simulated provider's one auto-committed ledger statement (the refund joined to its
--    charge).
-- 3. The fenced completion, one auto-committed statement: the record locked for this attempt,
--    the refund's versioned UPDATE, the payment's in-flight amount moved to refunded_amount, the
--    record's UPDATE with the stored response (the real one's size: headers 140 characters,
--    body 276).
-- Not here, as in new-payment.sql: authentication (the API key cache holds the key), Hikari's
-- validation of a connection idle for more than half a second (an empty statement, which a
-- loaded pool does not send), and the key cache's periodic pg_notify probe (not per request).
-- Payonce passes the payment's id, the refund's id and the key as parameters; pgbench cannot
-- hold a string, so they are computed in the statements from numbers: the payment refunded is
-- one of the REFUND_TARGETS payments bench/run.sh creates with ids ...-<t, 12 digits> and charges
-- rt_<t>, walked like lua/new-refunds.lua walks its list (a client's consecutive refunds go to
-- different payments and no two clients share one).
-- Variables: -D digest, -D client as in new-payment.sql; -D clients=<pgbench's -c>,
-- -D targets=<REFUND_TARGETS>, -D k=0 (each client's refund counter).
\set n random(1, 2000000000)
\set m random(1, 2000000000)
\set k :k + 1
\set t (:k * :clients + :client_id) % :targets + 1
WITH guard AS (SELECT bound.lock_timeout IS NOT NULL AS g, (client_still_authorized(:client, :digest)) IS TRUE AS g0, (EXISTS (SELECT 1 FROM payments
    WHERE id = ('00000000-0000-4000-8000-' || lpad(:t::text, 12, '0'))::uuid AND client_id = :client AND status = 'SUCCEEDED'
      AND amount - refunded_amount - refunds_in_flight - external_refunded_amount
        >= COALESCE(CAST(100 AS bigint), 1))) IS TRUE AS p FROM (SELECT set_config('lock_timeout', '5000ms', true) AS lock_timeout) AS bound),
claimed AS (INSERT INTO idempotency_records
    (scope, idempotency_key, operation, request_fingerprint, status, locked_until, attempt, resource_id, created_at)
    SELECT :client, 'pgr-' || :client_id::text || '-' || :n::text || '-' || :m::text, 'refund', md5(:n::text) || md5(:m::text), 'IN_PROGRESS', statement_timestamp() + 30000000 * INTERVAL '1 microsecond', 1, md5(:n::text || :m::text)::uuid, now()
    FROM guard WHERE g AND g0 AND p
    ON CONFLICT (scope, idempotency_key) DO NOTHING
    RETURNING resource_id),
updated AS (UPDATE payments SET refunds_in_flight = payments.refunds_in_flight + target.reserve FROM (SELECT id, COALESCE(CAST(100 AS bigint), amount - refunded_amount - refunds_in_flight - external_refunded_amount) AS reserve
    FROM payments
    WHERE id = ('00000000-0000-4000-8000-' || lpad(:t::text, 12, '0'))::uuid AND client_id = :client AND status = 'SUCCEEDED'
    FOR UPDATE) AS target WHERE (payments.id = target.id AND target.reserve > 0
  AND payments.refunded_amount + payments.refunds_in_flight + payments.external_refunded_amount
    + target.reserve <= payments.amount) AND EXISTS (SELECT 1 FROM claimed) RETURNING reserve, currency, provider_reference),
created AS (INSERT INTO refunds (id, payment_id, client_id, amount, currency, reason, status, provider_reference, decline_code, created_at, updated_at, provider_key_generation, provider_key_replayed_at, version)
    SELECT md5(:n::text || :m::text)::uuid, ('00000000-0000-4000-8000-' || lpad(:t::text, 12, '0'))::uuid, :client, updated.reserve, updated.currency, 'requested_by_customer', 'PENDING', NULL, NULL, now(), now(), 1, NULL, 0
    FROM claimed, updated RETURNING 1)
SELECT guard.*, EXISTS (SELECT 1 FROM claimed) AS claimed, EXISTS (SELECT 1 FROM created) AS created, u.reserve, u.currency, u.provider_reference,
       CASE WHEN EXISTS (SELECT 1 FROM claimed) AND (SELECT count(*) FROM updated) <> 1
            THEN idempotency_undo('the claim update did not update exactly one row') END AS undone,
       CASE WHEN clock_timestamp() > statement_timestamp() + INTERVAL '5000000 microseconds'
            THEN idempotency_claim_late() END AS late
FROM guard LEFT JOIN (SELECT reserve, currency, provider_reference FROM updated LIMIT 1) AS u ON TRUE;
INSERT INTO simulated_provider_refunds
    (provider_reference, provider_idempotency_key, charge_reference, amount, currency, outcome, decline_code, created_at)
SELECT 'pgr_' || :n::text || '_' || :m::text, 'payonce-refund-' || md5(:n::text || :m::text)::uuid, 'rt_' || :t::text, 100, 'ILS',
       CASE WHEN c.payment_method IS NULL OR c.payment_method = 'pm_card_refundFail' THEN 'DECLINED' ELSE 'SUCCEEDED' END,
       CASE WHEN c.payment_method IS NULL THEN 'charge_not_found'
            WHEN c.payment_method = 'pm_card_refundFail' THEN 'refund_failed' END,
       now()
FROM (SELECT 1) AS one
LEFT JOIN simulated_provider_charges c ON c.provider_reference = 'rt_' || :t::text
ON CONFLICT (provider_idempotency_key) DO NOTHING
RETURNING provider_reference, outcome, decline_code;
WITH held AS (SELECT 1 FROM idempotency_records
    WHERE scope = :client AND idempotency_key = 'pgr-' || :client_id::text || '-' || :n::text || '-' || :m::text AND status = 'IN_PROGRESS' AND attempt = 1
    FOR UPDATE),
w0 AS (UPDATE refunds SET status = 'SUCCEEDED', provider_reference = 'pgr_' || :n::text || '_' || :m::text, decline_code = NULL, provider_key_generation = 1,
    provider_key_replayed_at = NULL, updated_at = now(), version = version + 1 WHERE (id = md5(:n::text || :m::text)::uuid AND version = 0) AND EXISTS (SELECT 1 FROM held) RETURNING 1),
w1 AS (UPDATE payments SET refunds_in_flight = refunds_in_flight - 100,
    refunded_amount = refunded_amount + 100, updated_at = now() WHERE (id = ('00000000-0000-4000-8000-' || lpad(:t::text, 12, '0'))::uuid AND refunds_in_flight >= 100) AND EXISTS (SELECT 1 FROM w0) RETURNING 1),
done AS (UPDATE idempotency_records
    SET status = 'COMPLETED', locked_until = NULL, response_status = 201,
        response_headers = CAST('{"Content-Type":"application/json","Location":"/payments/00000000-0000-4000-8000-000000000000/refunds/00000000-0000-4000-8000-000000000000"}' AS jsonb),
        response_body = repeat('x', 276), completed_at = now(), expires_at = statement_timestamp() + 86400000000 * INTERVAL '1 microsecond'
    WHERE scope = :client AND idempotency_key = 'pgr-' || :client_id::text || '-' || :n::text || '-' || :m::text AND status = 'IN_PROGRESS' AND attempt = 1
      AND EXISTS (SELECT 1 FROM w1) RETURNING 1)
SELECT EXISTS (SELECT 1 FROM held) AS held, EXISTS (SELECT 1 FROM done) AS done,
       CASE WHEN EXISTS (SELECT 1 FROM w0) AND NOT EXISTS (SELECT 1 FROM done)
            THEN idempotency_undo('a later write of the completion matched no row') END AS undone;
