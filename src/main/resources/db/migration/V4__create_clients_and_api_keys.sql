-- Callers and their API keys. A key is stored only as the SHA-256 digest of its secret; the
-- secret is shown once, when it is issued. Clients are disabled, never deleted: their payments
-- and idempotency records keep naming them.
CREATE TABLE clients (
    id          varchar(64)  NOT NULL,
    name        varchar(100) NOT NULL,
    created_at  timestamptz  NOT NULL,
    disabled_at timestamptz,
    CONSTRAINT pk_clients PRIMARY KEY (id)
);

CREATE TABLE api_keys (
    key_digest varchar(64) NOT NULL,
    client_id  varchar(64) NOT NULL,
    key_hint   varchar(20) NOT NULL,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz,
    CONSTRAINT pk_api_keys PRIMARY KEY (key_digest),
    CONSTRAINT fk_api_keys_client FOREIGN KEY (client_id) REFERENCES clients (id)
);

CREATE INDEX ix_api_keys_client_id ON api_keys (client_id);
