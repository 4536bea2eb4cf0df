-- vstage serve's tables in PostgreSQL, as the SQLite migrations leave them (crates/server/migrations/sqlite/).
-- Applied once by the first server to start; numbered in vstage_schema.

CREATE TABLE owners (
    seq     BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind    TEXT NOT NULL,
    id      TEXT NOT NULL,
    subject TEXT NOT NULL,
    UNIQUE (kind, id)
);
CREATE INDEX owners_by_subject ON owners (kind, subject, seq);

CREATE TABLE deliveries_seen (
    digest      BYTEA PRIMARY KEY,
    received_at BIGINT NOT NULL
);
CREATE INDEX deliveries_seen_by_time ON deliveries_seen (received_at);

-- The last event id handed out. Taking the next one locks this row until the transaction ends, so ids become
-- visible in order, and the newest id survives the log being emptied.
CREATE TABLE event_ids (
    newest BIGINT NOT NULL
);
INSERT INTO event_ids (newest) VALUES (0);

CREATE TABLE events (
    id          BIGINT PRIMARY KEY,
    -- '' until the render or analysis it is about is known to belong to someone
    subject     TEXT NOT NULL,
    resource    TEXT NOT NULL,
    event_type  TEXT NOT NULL,
    data        TEXT NOT NULL,
    received_at BIGINT NOT NULL
);
CREATE INDEX events_by_subject ON events (subject, id);
CREATE INDEX events_by_resource ON events (resource);
CREATE INDEX events_by_time ON events (received_at);

CREATE TABLE uploads (
    name      TEXT PRIMARY KEY,
    subject   TEXT NOT NULL,
    bytes     BIGINT NOT NULL,
    stored_at BIGINT NOT NULL
);
CREATE INDEX uploads_by_subject ON uploads (subject);

CREATE TABLE board_renders (
    subject   TEXT NOT NULL,
    render_id TEXT NOT NULL,
    label     TEXT NOT NULL,
    position  BIGINT NOT NULL,
    PRIMARY KEY (subject, render_id)
);
CREATE INDEX board_renders_in_order ON board_renders (subject, position);

CREATE TABLE kept_results (
    render_id    TEXT NOT NULL,
    variation_id TEXT NOT NULL,
    file         TEXT NOT NULL,
    image_index  BIGINT NOT NULL,
    role         TEXT NOT NULL,
    subject      TEXT NOT NULL,
    bytes        BIGINT NOT NULL,
    kept_at      BIGINT NOT NULL,
    -- removed by its owner or the retention period: never copied again
    removed      BOOLEAN NOT NULL,
    PRIMARY KEY (render_id, variation_id, file)
);
CREATE INDEX kept_results_by_subject ON kept_results (subject, removed);
CREATE INDEX kept_results_by_time ON kept_results (removed, kept_at);
