-- The photo each render was made from (the address its creation named), so that a kept result can name its
-- original in its content credentials; a creation under way remembers it for a delivery that names the creation
-- before its answer is recorded.
CREATE TABLE render_photos (
    render_id TEXT PRIMARY KEY,
    address   TEXT NOT NULL
);
ALTER TABLE creations ADD COLUMN photo TEXT;
