-- A disclosed variation's kept files outlive the results' retention: the sweep asks, per variation, whether a
-- disclosure names it.
CREATE INDEX disclosures_by_variation ON disclosures (render_id, variation_id);
