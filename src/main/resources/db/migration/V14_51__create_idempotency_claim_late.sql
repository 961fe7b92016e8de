-- Undoes a claim in one statement that ran past its deadline (docs/design.md section 11,
-- "A claim never commits after its 503"): the engine calls it as the statement's last step
-- when more time has passed since the statement arrived than the deadline derived from the
-- driver's socket timeout, so that a claim whose client may already have been told 503
-- aborts instead of committing. Its SQLSTATE is lock_not_available (55P03), the one a
-- lock_timeout raises, so that both end the request the same way: 503, nothing claimed.
CREATE FUNCTION idempotency_claim_late() RETURNS boolean
    LANGUAGE plpgsql VOLATILE AS
$$
BEGIN
    RAISE EXCEPTION 'the claim ran past its deadline; nothing of it was written' USING ERRCODE = '55P03';
END
$$;
