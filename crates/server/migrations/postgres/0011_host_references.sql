-- The host's references (its listing, its photo, a small metadata object) kept with each render as JSON, the
-- listing apart to list by; with a creation under way, for the delivery that adopts its render; and copied into
-- each disclosure record, with the kept copies for screens and lists the listing may show and the address of
-- the photo the render was made from, which the result takes the place of in the listing.
CREATE TABLE render_references (
    render_id TEXT PRIMARY KEY,
    listing_id TEXT,
    reference TEXT NOT NULL
);
CREATE INDEX render_references_by_listing ON render_references (listing_id);
ALTER TABLE creations ADD COLUMN reference TEXT;
ALTER TABLE disclosures ADD COLUMN listing_id TEXT;
ALTER TABLE disclosures ADD COLUMN reference TEXT;
ALTER TABLE disclosures ADD COLUMN optimized_file TEXT;
ALTER TABLE disclosures ADD COLUMN thumbnail_file TEXT;
ALTER TABLE disclosures ADD COLUMN replaces TEXT;
