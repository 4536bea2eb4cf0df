//! A render's finished results as the server hands them on: fetched from wherever the service put them
//! (`fetch.rs`), and all of a render's sent as one ZIP streamed entry by entry (`zip.rs`).

pub mod fetch;
pub mod zip;
