//! `cargo xtask`: the only commands a newcomer needs (see the README's quick start).
//! setup installs the tools, run builds and serves the studio, test runs every suite, bench prints the figures.

mod bench;
mod precompress;
mod project;
mod run;
mod setup;
mod tally;
mod test;
mod tidy;
mod vstage_process;
mod widget;

use std::net::SocketAddr;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "cargo xtask", about = "vstage's project commands")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Install what building and testing need (wasm32 target, wasm-bindgen, wasm-opt, Chromium).
    Setup,
    /// Build the widget and serve the studio with the embedded sandbox.
    Run {
        /// Address for `vstage serve`.
        #[arg(long, default_value = "127.0.0.1:8080")]
        listen: SocketAddr,
    },
    /// Lints and every test suite; ends with one line `N passed, N failed`.
    Test,
    /// Measure the figures and write target/bench/report.md.
    Bench {
        /// Only these groups of figures (widget, sandbox, proxy, instances, studio, imaging, mask, results); all
        /// when none is named.
        only: Vec<bench::Group>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = project::Project::locate().and_then(|project| match cli.command {
        Command::Setup => setup::ensure(&project, setup::Purpose::Test),
        Command::Run { listen } => run::run(&project, listen),
        Command::Test => test::run(&project),
        Command::Bench { only } => bench::run(&project, &only),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("\nxtask: {error:#}");
            ExitCode::FAILURE
        }
    }
}
