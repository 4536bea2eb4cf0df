-- Each subject's own allowance, and the ledger of charges and refunds.
CREATE TABLE allowances (
    subject       TEXT PRIMARY KEY,
    staging       INTEGER,
    image_editing INTEGER,
    set_at        INTEGER NOT NULL
);
CREATE TABLE ledger (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    reservation TEXT NOT NULL,
    subject     TEXT NOT NULL,
    kind        TEXT NOT NULL,
    amount      INTEGER NOT NULL,
    render_ids  TEXT NOT NULL DEFAULT '',
    at          INTEGER NOT NULL,
    what        TEXT NOT NULL
);
CREATE INDEX ledger_by_subject ON ledger (subject, kind, at);
CREATE INDEX ledger_by_time ON ledger (at);
CREATE INDEX ledger_by_reservation ON ledger (reservation);
