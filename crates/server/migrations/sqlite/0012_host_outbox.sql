-- The host's webhooks waiting to be delivered (storage/outbox.rs), as PostgreSQL's 0007_host_outbox.sql.
CREATE TABLE host_outbox (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    id          TEXT NOT NULL,
    target      TEXT NOT NULL,
    render_id   TEXT NOT NULL,
    kind        TEXT NOT NULL,
    payload     TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    next_at     INTEGER NOT NULL,
    lease_until INTEGER NOT NULL DEFAULT 0,
    outcome     TEXT NOT NULL DEFAULT 'pending',
    settled_at  INTEGER,
    last_error  TEXT NOT NULL DEFAULT '',
    UNIQUE (id, target)
);
CREATE INDEX host_outbox_due ON host_outbox (next_at) WHERE outcome = 'pending';
CREATE INDEX host_outbox_by_render ON host_outbox (target, render_id, seq) WHERE outcome = 'pending';
