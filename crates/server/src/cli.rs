//! The command line of the `vstage` binary: `vstage serve` and `vstage sandbox`.
//! Every option has a default that works on a developer's machine.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(name = "vstage", version, about = "The vstage virtual-staging studio: server, proxy and sandbox")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the widget and the /api proxy (with the embedded sandbox unless --upstream is given).
    Serve(ServeArgs),
    /// Run the sandbox alone, for direct use with an `Api-Key` header.
    Sandbox(SandboxArgs),
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on. Port 0 picks a free port (the chosen address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// The built widget (`trunk build` output).
    #[arg(long, default_value = "dist")]
    pub dist: PathBuf,
    /// Where this server and its embedded sandbox keep their data.
    #[arg(long, default_value = "vstage-data")]
    pub data_dir: PathBuf,
    /// The real service's base URL (under which /v2 and /v1 live). Without it, the embedded sandbox is used.
    /// The key is read from the environment variable VSTAGE_API_KEY only, so it never shows in a process list.
    #[arg(long)]
    pub upstream: Option<String>,
}

#[derive(Debug, Args)]
pub struct SandboxArgs {
    #[arg(long, default_value = "127.0.0.1:8787")]
    pub listen: SocketAddr,
    /// An account's API key; repeat for more accounts.
    #[arg(
        long = "api-key",
        env = "VSTAGE_SANDBOX_API_KEYS",
        value_delimiter = ',',
        required = true,
        hide_env_values = true
    )]
    pub api_keys: Vec<String>,
    /// Photos each account may process per period, per kind.
    #[arg(long, default_value_t = vstage_sandbox::SandboxConfig::DEFAULT_PHOTO_LIMIT)]
    pub photo_limit: u64,
    /// Where the sandbox keeps its database and images; without it, everything is in memory.
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// How long one variation takes to process, in milliseconds.
    #[arg(long, default_value_t = vstage_sandbox::SandboxConfig::DEFAULT_PROCESSING_MS)]
    pub processing_ms: u64,
    /// The first delay between webhook retries, in milliseconds; it doubles each time.
    #[arg(long, default_value_t = vstage_sandbox::SandboxConfig::DEFAULT_WEBHOOK_RETRY_MS)]
    pub webhook_retry_ms: u64,
    /// The longest a `wait_for_completion` request waits, in seconds.
    #[arg(long, default_value_t = vstage_sandbox::SandboxConfig::DEFAULT_SYNC_TIMEOUT_S)]
    pub sync_timeout_s: u64,
}
