-- A failed render's charge, found by its render.
CREATE INDEX ledger_by_render ON ledger (render_ids) WHERE amount > 0;
