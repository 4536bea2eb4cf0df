//! Live updates: the service's webhooks received and verified (`webhooks`, whose refusals `verification`
//! reports to the operator), stored as events and streamed to each subject's browsers with resume (`events`).

pub mod events;
pub mod verification;
pub mod webhooks;
