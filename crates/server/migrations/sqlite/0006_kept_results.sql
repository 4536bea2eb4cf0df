-- The results kept in storage, per render, variation and file.
CREATE TABLE kept_results (
    render_id    TEXT NOT NULL,
    variation_id TEXT NOT NULL,
    file         TEXT NOT NULL,
    image_index  INTEGER NOT NULL,
    role         TEXT NOT NULL,
    subject      TEXT NOT NULL,
    bytes        INTEGER NOT NULL,
    kept_at      INTEGER NOT NULL,
    -- 1 once removed by its owner or the retention period: never copied again
    removed      INTEGER NOT NULL,
    PRIMARY KEY (render_id, variation_id, file)
);
CREATE INDEX kept_results_by_subject ON kept_results (subject, removed);
CREATE INDEX kept_results_by_time ON kept_results (removed, kept_at);
