-- The claim-time check of a client and its API key (docs/design.md section 12) in one round
-- trip instead of two. The function runs the same two statements Clients.holdActive ran, in
-- the same order and for the same reason: the first takes the client's row FOR KEY SHARE,
-- waiting for a rotation or disable that holds it and then reading its committed state; the
-- second must see the keys that rotation committed, and does, because a VOLATILE function
-- takes a fresh snapshot for each statement it runs (READ COMMITTED), exactly as a new
-- statement from the client would. The lock is the caller's: it is held until the claim
-- transaction ends.
-- Correct only at READ COMMITTED, which every engine transaction declares: at REPEATABLE READ
-- the second statement would read the snapshot taken before the lock wait, and a key revoked
-- during the wait would still read as active. So the function refuses to answer at any other
-- level (SQLSTATE 55000, object_not_in_prerequisite_state): the claim fails closed (503,
-- nothing claimed or charged). The check reads a setting: no extra round trip.
CREATE FUNCTION client_still_authorized(p_client_id varchar, p_key_digest varchar) RETURNS boolean
    LANGUAGE plpgsql VOLATILE AS
$$
DECLARE
    active boolean;
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'client_still_authorized needs READ COMMITTED, this transaction runs at %',
            current_setting('transaction_isolation')
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    SELECT disabled_at IS NULL INTO active FROM clients WHERE id = p_client_id FOR KEY SHARE;
    IF active IS NOT TRUE THEN
        RETURN false;
    END IF;
    RETURN EXISTS (SELECT 1 FROM api_keys
                   WHERE key_digest = p_key_digest AND client_id = p_client_id AND revoked_at IS NULL);
END;
$$;
