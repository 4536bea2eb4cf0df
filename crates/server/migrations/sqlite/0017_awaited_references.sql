-- A bulk creation whose renders have references of their own (not one for all) cannot name them to a delivery
-- that comes before its answer: such a render awaits its references, until the answer records them or `until`
-- (ms) passes, and the host's webhooks about it wait with it (their references are filled in as they are sent).
ALTER TABLE creations ADD COLUMN references_differ INTEGER NOT NULL DEFAULT 0;
CREATE TABLE awaited_references (
    render_id TEXT PRIMARY KEY,
    until     INTEGER NOT NULL
);
CREATE INDEX awaited_references_by_time ON awaited_references (until);
