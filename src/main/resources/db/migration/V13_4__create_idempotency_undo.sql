-- Undoes the one statement that calls it (docs/design.md section 4): raising an error aborts
-- the statement, so nothing it wrote stays. The engine calls it from the claim in one
-- statement when the record was inserted but the operation's claim update (a refund's
-- reservation) matched no row, and from the completion in one statement when an earlier write
-- wrote but a later one matched no row. Its SQLSTATE, PYU01 (a class of Payonce's own), tells
-- the engine that the statement was undone on purpose, not that the database failed.
CREATE FUNCTION idempotency_undo(what varchar) RETURNS boolean
    LANGUAGE plpgsql VOLATILE AS
$$
BEGIN
    RAISE EXCEPTION 'undone: %', what USING ERRCODE = 'PYU01';
END
$$;
