-- A render's charge is found by the render it made, to give it back when the render failed.

CREATE INDEX ledger_by_render ON ledger (render_ids) WHERE amount > 0;
