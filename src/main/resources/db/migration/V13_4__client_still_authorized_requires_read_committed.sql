-- client_still_authorized (V13_3) is correct only at READ COMMITTED: its second statement must
-- take a fresh snapshot after the first one's lock wait. Payonce checks the sessions' level at
-- start-up, but a later ALTER DATABASE / ALTER ROLE ... SET default_transaction_isolation reaches
-- every connection the pool opens afterwards; at REPEATABLE READ a key revoked while a claim
-- waited on the client's row would still read as active. So the function refuses to answer at
-- any other level (SQLSTATE 55000, object_not_in_prerequisite_state): the claim fails closed
-- (503, nothing claimed or charged) instead of authorising on a stale snapshot. The check reads a
-- setting: no extra round trip.
CREATE OR REPLACE FUNCTION client_still_authorized(p_client_id varchar, p_key_digest varchar) RETURNS boolean
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
