-- Uploaded photos, whose they are and their size (each subject's quota).
CREATE TABLE uploads (
    name      TEXT PRIMARY KEY,
    subject   TEXT NOT NULL,
    bytes     INTEGER NOT NULL,
    stored_at INTEGER NOT NULL
);
CREATE INDEX uploads_by_subject ON uploads (subject);
