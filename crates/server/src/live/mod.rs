//! Live updates: the service's webhooks received and verified (`webhooks`), stored as events and streamed to each
//! subject's browsers with resume (`events`).

pub mod events;
pub mod webhooks;
