//! The `vstage` binary: parses the command line and runs the server or the standalone sandbox.
//! Everything else lives in the library (`lib.rs`), so tests can reach it too.

use std::process::ExitCode;

use clap::Parser;
use vstage_server::cli::Cli;

/// A faster allocator for the many small buffers of proxying (see the proxy figures in `cargo xtask bench`).
#[global_allocator]
static ALLOCATOR: vstage_server::allocator::MiMalloc = vstage_server::allocator::MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info,tower_http=warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    match vstage_server::run(Cli::parse()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("vstage: {error:#}");
            ExitCode::FAILURE
        }
    }
}
