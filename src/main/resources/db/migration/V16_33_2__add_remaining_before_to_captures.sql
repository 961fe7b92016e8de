-- What the authorization had left when a capture was claimed (its reservation's view: amount - captured - in
-- flight), kept so that every attempt under the capture's provider idempotency key sends the same parameters,
-- which a provider that captures once uses to decide whether the rest of the hold is released
-- (docs/design.md section 15). Captures claimed before this column have none, and are sent what their
-- payment had left apart from them, as before.
ALTER TABLE captures ADD COLUMN remaining_before bigint;
ALTER TABLE captures ADD CONSTRAINT ck_captures_remaining_before CHECK (remaining_before IS NULL OR remaining_before >= amount);
