-- Deliveries seen, forgotten by age.
CREATE INDEX deliveries_seen_by_time ON deliveries_seen (received_at);
