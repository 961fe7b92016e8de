-- Merchant events (docs/events.md): the outbox. A row is inserted by the same statement or transaction as
-- the change it reports (the engine's fenced completion of a payment, refund, capture or void; a provider
-- event's effect), so it exists exactly when that change committed. Rows are removed by the event
-- retention job after payonce.events.retention; their deliveries and attempts go with them.
CREATE TABLE merchant_events (
    id           uuid         NOT NULL,
    -- The feed's order and cursor: assigned at insert, unique, never reused.
    seq          bigint       GENERATED ALWAYS AS IDENTITY,
    client_id    varchar(64)  NOT NULL,
    type         varchar(64)  NOT NULL,
    resource_id  uuid         NOT NULL,
    -- The resource's receipt as it was when the change committed (the same JSON GET shows).
    payload      text         NOT NULL,
    created_at   timestamptz  NOT NULL DEFAULT statement_timestamp(),
    -- false until the dispatcher wrote one delivery per endpoint that wanted the event.
    fanned_out   boolean      NOT NULL DEFAULT false,
    CONSTRAINT pk_merchant_events PRIMARY KEY (id),
    CONSTRAINT uk_merchant_events_seq UNIQUE (seq),
    CONSTRAINT ck_merchant_events_type CHECK (type ~ '^[a-z_]+\.[a-z_]+$')
);

CREATE INDEX ix_merchant_events_client_seq ON merchant_events (client_id, seq);
CREATE INDEX ix_merchant_events_to_fan_out ON merchant_events (seq) WHERE NOT fanned_out;
CREATE INDEX ix_merchant_events_created_at ON merchant_events (created_at);

-- A client's webhook endpoints. The signing secret is Standard Webhooks' whsec_ form; during a rotation the
-- previous secret also signs until previous_secret_expires_at.
CREATE TABLE webhook_endpoints (
    id                         uuid          NOT NULL,
    client_id                  varchar(64)   NOT NULL,
    url                        varchar(2048) NOT NULL,
    event_types                text[]        NOT NULL,
    secret                     varchar(128)  NOT NULL,
    previous_secret            varchar(128),
    previous_secret_expires_at timestamptz,
    status                     varchar(16)   NOT NULL,
    disabled_reason            varchar(32),
    -- The first failed attempt since the last delivered one; null while the endpoint answers.
    failing_since              timestamptz,
    created_at                 timestamptz   NOT NULL DEFAULT statement_timestamp(),
    updated_at                 timestamptz   NOT NULL DEFAULT statement_timestamp(),
    CONSTRAINT pk_webhook_endpoints PRIMARY KEY (id),
    CONSTRAINT ck_webhook_endpoints_status CHECK (status IN ('ENABLED', 'DISABLED')),
    CONSTRAINT ck_webhook_endpoints_disabled_reason CHECK (disabled_reason IN ('client', 'failing'))
);

CREATE INDEX ix_webhook_endpoints_client ON webhook_endpoints (client_id);

-- One event to one endpoint. Claimed by the dispatcher with FOR UPDATE SKIP LOCKED on next_attempt_at.
CREATE TABLE event_deliveries (
    id              uuid         NOT NULL,
    event_id        uuid         NOT NULL,
    endpoint_id     uuid         NOT NULL,
    status          varchar(16)  NOT NULL,
    attempts        integer      NOT NULL DEFAULT 0,
    next_attempt_at timestamptz  NOT NULL,
    delivered_at    timestamptz,
    created_at      timestamptz  NOT NULL DEFAULT statement_timestamp(),
    CONSTRAINT pk_event_deliveries PRIMARY KEY (id),
    CONSTRAINT uk_event_deliveries_event_endpoint UNIQUE (event_id, endpoint_id),
    CONSTRAINT fk_event_deliveries_event FOREIGN KEY (event_id) REFERENCES merchant_events (id) ON DELETE CASCADE,
    CONSTRAINT fk_event_deliveries_endpoint FOREIGN KEY (endpoint_id) REFERENCES webhook_endpoints (id)
        ON DELETE CASCADE,
    CONSTRAINT ck_event_deliveries_status CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED'))
);

CREATE INDEX ix_event_deliveries_due ON event_deliveries (next_attempt_at) WHERE status = 'PENDING';
CREATE INDEX ix_event_deliveries_endpoint ON event_deliveries (endpoint_id);

-- Every delivery attempt: when, the answer's status (null if none came), latency, and the kind of error.
CREATE TABLE event_delivery_attempts (
    id           bigint       GENERATED ALWAYS AS IDENTITY,
    delivery_id  uuid         NOT NULL,
    attempted_at timestamptz  NOT NULL DEFAULT statement_timestamp(),
    http_status  integer,
    latency_ms   bigint       NOT NULL,
    error_kind   varchar(32),
    CONSTRAINT pk_event_delivery_attempts PRIMARY KEY (id),
    CONSTRAINT fk_event_delivery_attempts_delivery FOREIGN KEY (delivery_id) REFERENCES event_deliveries (id)
        ON DELETE CASCADE
);

CREATE INDEX ix_event_delivery_attempts_delivery ON event_delivery_attempts (delivery_id);
