//! The `vstage` binary: reads the command line (with the environment and the configuration file) and runs the
//! server or the standalone sandbox.
//! Everything else lives in the library (`lib.rs`), so tests can reach it too.

use std::process::ExitCode;

use vstage_server::cli::LogFormat;
use vstage_server::config_file::{self, Refusal};

/// A faster allocator for the many small buffers of proxying (see the proxy figures in `cargo xtask bench`).
#[global_allocator]
static ALLOCATOR: vstage_server::allocator::MiMalloc = vstage_server::allocator::MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    // the command line, the environment and the configuration file, in that order
    let cli = match config_file::parse(std::env::args_os()) {
        Ok(cli) => cli,
        Err(Refusal::CommandLine(error)) => error.exit(),
        Err(Refusal::Setting(sentence)) => {
            eprintln!("vstage: {sentence}");
            return ExitCode::from(2);
        }
    };
    let log_format = cli.log_format;
    let log = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,tower_http=warn,c2pa=warn".into()),
        )
        .with_writer(std::io::stderr)
        // colour codes only where a person reads them: a file or a pipe gets plain text
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()));
    match log_format {
        LogFormat::Text => log.init(),
        LogFormat::Json => log.json().flatten_event(true).init(),
    }
    match vstage_server::run(cli).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // the sentence with its causes, as a line of the chosen format
            match log_format {
                LogFormat::Text => eprintln!("vstage: {error:#}"),
                LogFormat::Json => tracing::error!(error = format!("{error:#}"), "vstage stopped"),
            }
            ExitCode::FAILURE
        }
    }
}
