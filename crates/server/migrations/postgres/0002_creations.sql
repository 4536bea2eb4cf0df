-- Creations sent to the service, by the token our receiver's address carries for them: a delivery about a render
-- or analysis whose owner was never recorded (the server that sent it stopped first) names its creator here.

CREATE TABLE creations (
    token      TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    subject    TEXT NOT NULL,
    started_at BIGINT NOT NULL
);
CREATE INDEX creations_by_time ON creations (started_at);
