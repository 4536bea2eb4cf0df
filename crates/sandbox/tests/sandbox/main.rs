//! The sandbox over real HTTP, one test binary (each binary would link axum, SQLite and the codecs again): accounts,
//! the key check, where photos are fetched from, processing, renders, the legacy v1 API and webhooks, public clients
//! of the real service replayed against it (`replay/`), with the support they share.

mod account;
mod auth;
mod direct_sync;
mod fetching;
mod leniency;
mod multi_view;
mod period;
mod processing;
mod renders;
mod replay;
mod support;
mod v1;
mod webhooks;
