-- The event log trimmed by age.
CREATE INDEX events_by_time ON events (received_at);
