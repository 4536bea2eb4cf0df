-- Who owns each render and analysis, the webhook deliveries seen (to drop repeats), and the live-event log.
CREATE TABLE owners (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    kind    TEXT NOT NULL,
    id      TEXT NOT NULL,
    subject TEXT NOT NULL,
    UNIQUE (kind, id)
);
CREATE INDEX owners_by_subject ON owners (kind, subject, seq);
CREATE TABLE deliveries_seen (
    digest      BLOB PRIMARY KEY,
    received_at INTEGER NOT NULL
);
CREATE TABLE events (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    -- '' until the render or analysis it is about is known to belong to someone
    subject     TEXT NOT NULL,
    resource    TEXT NOT NULL,
    event_type  TEXT NOT NULL,
    data        TEXT NOT NULL,
    received_at INTEGER NOT NULL
);
CREATE INDEX events_by_subject ON events (subject, id);
CREATE INDEX events_by_resource ON events (resource);
