-- Exactly the statements Payonce issues for one replay in steady state: authentication only,
-- because a completed record, once read, is replayed from the in-process cache until it
-- expires. The first replay of a key on an instance also runs the claim attempt below, which
-- finds the completed record and reads it; it is kept here as the uncached path and is not part
-- of the steady-state reference unless BENCH_REPLAY_UNCACHED is set (it is not, by default).
-- Variables as in new-payment.sql.
\set t random(1, 2)
\set i random(1, :replay_keys)
SELECT c.id FROM api_keys k JOIN clients c ON c.id = k.client_id
  WHERE k.key_digest = :digest AND k.revoked_at IS NULL AND c.disabled_at IS NULL;
