//! A render's finished results as the server hands them on: fetched from wherever the service put them
//! (`fetch.rs`), kept in this server's storage and served from it (`kept.rs`) at signed links (`links.rs`). The
//! proxy builds on these; the ZIP downloads (`crate::downloads`) build on the proxy.

pub mod credentials;
pub mod fetch;
pub mod kept;
pub mod links;
pub mod provenance;
