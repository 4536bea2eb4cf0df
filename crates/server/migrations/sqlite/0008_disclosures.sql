-- The records of results chosen for a listing, with the profile they follow.
CREATE TABLE disclosures (
    id                TEXT PRIMARY KEY,
    subject           TEXT NOT NULL,
    created_at        INTEGER NOT NULL,
    render_id         TEXT NOT NULL,
    variation_id      TEXT NOT NULL,
    image_index       INTEGER NOT NULL,
    variation_type    TEXT NOT NULL,
    style             TEXT NOT NULL,
    furniture_removed INTEGER NOT NULL,
    profile           TEXT NOT NULL,
    lang              TEXT NOT NULL,
    photo_file        TEXT NOT NULL,
    original_file     TEXT NOT NULL
);
CREATE INDEX disclosures_by_subject ON disclosures (subject, created_at);
CREATE INDEX disclosures_by_time ON disclosures (created_at);
