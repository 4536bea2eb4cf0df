//! The sandbox over real HTTP, one test binary (each binary would link axum, SQLite and the codecs again): accounts,
//! the key check, where photos are fetched from, processing, renders, the legacy v1 API and webhooks, with the support
//! they share.

mod account;
mod auth;
mod fetching;
mod processing;
mod renders;
mod support;
mod v1;
mod webhooks;
