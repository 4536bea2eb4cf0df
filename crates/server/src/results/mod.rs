//! A render's finished results as the server hands them on: fetched from wherever the service put them
//! (`fetch.rs`), kept in this server's storage and served from it (`kept.rs`) at signed links (`links.rs`), and all
//! of a render's or a board's sent as one ZIP streamed entry by entry (`zip.rs`).

pub mod fetch;
pub mod kept;
pub mod links;
pub mod zip;
