-- Each subject's allowance of photos per period (`vstage allowance set`; NULL for the server's default, -1 for
-- none), and the ledger: every charge (a positive amount of photos) and refund (negative), per reservation.

CREATE TABLE allowances (
    subject       TEXT PRIMARY KEY,
    staging       BIGINT,
    image_editing BIGINT,
    set_at        BIGINT NOT NULL
);

CREATE TABLE ledger (
    seq         BIGSERIAL PRIMARY KEY,
    reservation TEXT NOT NULL,
    subject     TEXT NOT NULL,
    kind        TEXT NOT NULL,
    amount      BIGINT NOT NULL,
    render_ids  TEXT NOT NULL DEFAULT '',
    at          BIGINT NOT NULL,
    what        TEXT NOT NULL
);
CREATE INDEX ledger_by_subject ON ledger (subject, kind, at);
CREATE INDEX ledger_by_time ON ledger (at);
CREATE INDEX ledger_by_reservation ON ledger (reservation);
