//! `vstage serve`: the backend-for-frontend between the widget and the image service (or the embedded sandbox).
//! It keeps the API key on the server, forwards an allow-list of calls, receives webhooks, pushes live events,
//! stores uploads and serves the widget's files. This file only names the modules and hands each command to its
//! own (`commands`); ARCHITECTURE.md maps them.

mod access;
mod addresses;
pub mod allocator;
mod allowance;
mod app;
mod board;
mod capabilities;
mod checks;
pub mod cli;
mod commands;
pub mod config_file;
mod disclosure;
mod downloads;
mod error;
mod examples;
mod file_names;
mod health;
mod host_webhooks;
mod inert;
mod live;
mod metrics;
mod proxy;
mod references;
mod report_csv;
mod request_log;
mod results;
mod secret;
mod serving;
mod site;
mod startup;
mod state;
mod storage;
#[cfg(test)]
mod testing;
mod upstream;

pub use access::token;
/// What a kept copy is made of (its provenance and its content credentials), for `benches/keeping.rs`.
pub use results::{credentials, provenance};

use crate::cli::{Cli, Command};

pub async fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Serve(args) => commands::serve::run(*args).await,
        Command::Check(args) => commands::check::run(*args).await,
        Command::Sandbox(args) => commands::sandbox::run(args).await,
        Command::Token(args) => commands::token::run(args),
        Command::Allowance(args) => commands::allowance::run(args).await,
        Command::Usage(args) => commands::usage::run(args).await,
        Command::Deliveries(args) => commands::deliveries::run(args).await,
    }
}
