-- What each render stands charged for, per kind: its creation's charge (added = 0), and each call that added
-- variations to it (added = 1; photos 0 when the addition cost nothing), with the ids of the variations the service
-- made for it (NULL until its answer is seen). Whether a charge stands is the ledger's sum for its reservation and kind. Filled from the ledger's named renders (a bulk creation's renders: one photo each).
CREATE TABLE render_charges (
    render_id   TEXT NOT NULL,
    reservation TEXT NOT NULL,
    kind        TEXT NOT NULL,
    photos      BIGINT NOT NULL,
    added       SMALLINT NOT NULL,
    variations  TEXT,
    PRIMARY KEY (render_id, reservation, kind)
);
CREATE INDEX render_charges_by_reservation ON render_charges (reservation);
INSERT INTO render_charges (render_id, reservation, kind, photos, added)
SELECT named.render_id, ledger.reservation, ledger.kind,
       CASE WHEN position(',' IN ledger.render_ids) = 0 THEN ledger.amount ELSE 1 END, 0
FROM ledger, unnest(string_to_array(ledger.render_ids, ',')) AS named (render_id)
WHERE ledger.amount > 0 AND ledger.render_ids <> '' AND named.render_id <> ''
ON CONFLICT DO NOTHING;
