-- The refund list's total order (docs/design.md section 8, "Listing refunds"): a page is a range scan of this
-- index from the cursor's (created_at, id), stopping after limit + 1 rows, however many refunds the payment has.
-- It serves every query the old (payment_id, created_at) index served, which it replaces.
CREATE INDEX ix_refunds_payment_created_id ON refunds (payment_id, created_at, id);
DROP INDEX ix_refunds_payment_id;
