-- The photo each render was made from (the address its creation named), so that a kept result can name its
-- original in its content credentials; a creation under way remembers it for a delivery that names the creation
-- before its answer is recorded.
CREATE TABLE render_photos (
    render_id TEXT PRIMARY KEY,
    address   TEXT NOT NULL
);
ALTER TABLE creations ADD COLUMN photo TEXT;
-- The content credentials' signer a server made at first start, one for every server on the database (the first
-- kept wins): its certificate chain, its private key and the local authority's root, as PEM.
CREATE TABLE content_signer (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    chain   TEXT NOT NULL,
    key     TEXT NOT NULL,
    root    TEXT NOT NULL
);
-- Settled deliveries of the host's webhooks are forgotten after a while (sent after 30 days, given up after 90),
-- found by when they settled.
CREATE INDEX host_outbox_settled ON host_outbox (settled_at) WHERE outcome <> 'pending';
