-- Creations under way, so that an event naming one finds its subject.
CREATE TABLE creations (
    token      TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    subject    TEXT NOT NULL,
    started_at INTEGER NOT NULL
);
CREATE INDEX creations_by_time ON creations (started_at);
