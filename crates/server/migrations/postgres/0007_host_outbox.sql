-- The host's webhooks, written in the transaction of what they report and delivered from here: at least once, in
-- order per render and receiver, claimed by one server at a time for a lease.

CREATE TABLE host_outbox (
    seq         BIGSERIAL PRIMARY KEY,
    id          TEXT NOT NULL,
    target      TEXT NOT NULL,
    render_id   TEXT NOT NULL,
    kind        TEXT NOT NULL,
    payload     TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    attempts    BIGINT NOT NULL DEFAULT 0,
    next_at     BIGINT NOT NULL,
    lease_until BIGINT NOT NULL DEFAULT 0,
    outcome     TEXT NOT NULL DEFAULT 'pending',
    settled_at  BIGINT,
    last_error  TEXT NOT NULL DEFAULT '',
    UNIQUE (id, target)
);
CREATE INDEX host_outbox_due ON host_outbox (next_at) WHERE outcome = 'pending';
CREATE INDEX host_outbox_by_render ON host_outbox (target, render_id, seq) WHERE outcome = 'pending';
