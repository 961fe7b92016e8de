-- The claim-time check of a client and its API key (docs/design.md section 12) in one round
-- trip instead of two. The function runs the same two statements Clients.holdActive ran, in
-- the same order and for the same reason: the first takes the client's row FOR KEY SHARE,
-- waiting for a rotation or disable that holds it and then reading its committed state; the
-- second must see the keys that rotation committed, and does, because a VOLATILE function
-- takes a fresh snapshot for each statement it runs (READ COMMITTED), exactly as a new
-- statement from the client would. The lock is the caller's: it is held until the claim
-- transaction ends.
CREATE FUNCTION client_still_authorized(p_client_id varchar, p_key_digest varchar) RETURNS boolean
    LANGUAGE plpgsql VOLATILE AS
$$
DECLARE
    active boolean;
BEGIN
    SELECT disabled_at IS NULL INTO active FROM clients WHERE id = p_client_id FOR KEY SHARE;
    IF active IS NOT TRUE THEN
        RETURN false;
    END IF;
    RETURN EXISTS (SELECT 1 FROM api_keys
                   WHERE key_digest = p_key_digest AND client_id = p_client_id AND revoked_at IS NULL);
END;
$$;
