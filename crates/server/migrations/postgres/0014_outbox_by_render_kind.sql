-- A render's events in the outbox by kind, whatever became of them: a render is reported created once to each
-- receiver (`outbox::enqueue` looks for one before it writes another), as SQLite's 0019_outbox_by_render_kind.sql.
-- An index only: a server of the release before writes to the outbox as it did.
CREATE INDEX host_outbox_by_render_kind ON host_outbox (render_id, kind, target);
