-- Every statement that changes or removes an API key or a client notifies the channel
-- payonce_api_keys from inside its own transaction: PostgreSQL delivers the notification to
-- the listening instances only after that transaction commits, and never if it rolls back.
-- Each instance then forgets its cached API keys (docs/design.md section 12). Statement-level,
-- so a change by hand in psql notifies too, and a rotation notifies once however many keys it
-- revokes. Inserts do not notify: a new key was never cached (unknown keys are not).
CREATE FUNCTION notify_api_key_change() RETURNS trigger
    LANGUAGE plpgsql AS
$$
BEGIN
    PERFORM pg_notify('payonce_api_keys', TG_TABLE_NAME);
    RETURN NULL;
END;
$$;

CREATE TRIGGER tr_api_keys_notify_change
    AFTER UPDATE OR DELETE OR TRUNCATE ON api_keys
    FOR EACH STATEMENT EXECUTE FUNCTION notify_api_key_change();

CREATE TRIGGER tr_clients_notify_change
    AFTER UPDATE OR DELETE OR TRUNCATE ON clients
    FOR EACH STATEMENT EXECUTE FUNCTION notify_api_key_change();
