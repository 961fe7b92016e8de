-- Webhook events run as the engine's webhook_event operation (docs/design.md, "Webhooks"): the engine's
-- records dedupe deliveries; this table stays as the lasting ledger of each event's effect. Refund events
-- settle refunds, so a row names the refund as well as its payment.
ALTER TABLE provider_webhook_events ADD COLUMN refund_id uuid;
