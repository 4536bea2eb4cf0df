-- Each subject's listing board: its renders in order, under the agent's labels.
CREATE TABLE board_renders (
    subject   TEXT NOT NULL,
    render_id TEXT NOT NULL,
    label     TEXT NOT NULL,
    position  INTEGER NOT NULL,
    PRIMARY KEY (subject, render_id)
);
CREATE INDEX board_renders_in_order ON board_renders (subject, position);
