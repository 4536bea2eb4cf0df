-- What each render stands charged for, per kind: its creation's charge (added = 0), and each call that added
-- variations to it (added = 1; photos 0 when the addition cost nothing), with the ids of the variations the service
-- made for it (NULL until its answer is seen). Whether a charge stands is the ledger's sum for its reservation and kind. Filled from the ledger's named renders (a bulk creation's renders: one photo each).
CREATE TABLE render_charges (
    render_id   TEXT NOT NULL,
    reservation TEXT NOT NULL,
    kind        TEXT NOT NULL,
    photos      INTEGER NOT NULL,
    added       INTEGER NOT NULL,
    variations  TEXT,
    PRIMARY KEY (render_id, reservation, kind)
);
CREATE INDEX render_charges_by_reservation ON render_charges (reservation);
WITH RECURSIVE named (reservation, kind, photos, render_id, rest) AS (
    SELECT reservation, kind, CASE WHEN instr(render_ids, ',') = 0 THEN amount ELSE 1 END, '', render_ids || ','
    FROM ledger WHERE amount > 0 AND render_ids <> ''
    UNION ALL
    SELECT reservation, kind, photos, substr(rest, 1, instr(rest, ',') - 1), substr(rest, instr(rest, ',') + 1)
    FROM named WHERE rest <> ''
)
INSERT OR IGNORE INTO render_charges (render_id, reservation, kind, photos, added)
SELECT render_id, reservation, kind, photos, 0 FROM named WHERE render_id <> '';
