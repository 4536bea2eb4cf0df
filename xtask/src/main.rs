//! `cargo xtask`: the only commands a newcomer needs (see the README's quick start).
//! setup installs the tools, run builds and serves the studio, dev is the widget's edit-and-reload loop, test runs
//! every suite, bench prints the figures, size-diff compares two widget builds, dist builds a release.

mod bench;
mod chunk_groups;
mod dev;
mod dist;
mod figures;
mod first_load;
mod precompress;
mod project;
mod run;
mod screen_chunks;
mod server;
mod setup;
mod short_imports;
mod size_diff;
mod split_loader;
mod tally;
mod test;
mod tidy;
mod vstage_process;
mod wasm_sizes;
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
    /// Install what building and testing need (wasm32 target, wasm-bindgen, wasm-opt, trunk, Chromium).
    Setup,
    /// Build the widget and serve the studio with the embedded sandbox.
    Run {
        /// Address for `vstage serve`.
        #[arg(long, default_value = "127.0.0.1:8080")]
        listen: SocketAddr,
    },
    /// The widget's dev loop: `vstage serve` (embedded sandbox) for /api, `trunk serve` rebuilding on each change.
    Dev {
        /// trunk serve's port, where the studio opens (127.0.0.1).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Where the dev server keeps its renders and uploads (default: target/vstage-dev-data).
        #[arg(long)]
        data_dir: Option<std::path::PathBuf>,
    },
    /// Build a release: the server (release profile) and the widget in target/dist/vstage-VERSION-TARGET/, with the
    /// systemd unit, the container recipe and an example configuration, and its .tar.gz.
    Dist,
    /// Trunk's post_build hook (Trunk.toml): splits the release build into chunks, names and compresses its files.
    #[command(hide = true)]
    SplitWidget,
    /// Lints and every test suite; ends with one line `N passed, N failed`. Given a suite, that suite alone (no
    /// lints): the quick loop.
    Test { suite: Option<test::Suite> },
    /// Compare two builds of the widget function by function (wasm-split's modules, with their names): BASE is a
    /// copy of an earlier build's target/widget/split.
    SizeDiff {
        base: std::path::PathBuf,
        /// The other build's split folder (default: this build's, target/widget/split).
        #[arg(long)]
        now: Option<std::path::PathBuf>,
        /// Add the modules this first screen needs (its `view`: renders, new-render, render, board, ...).
        #[arg(long)]
        screen: Option<String>,
    },
    /// Measure the figures and write target/bench/report.md, each beside the last recorded run's
    /// (docs/bench-figures.json) with how it moved.
    Bench {
        /// Keep this run's figures as the recorded ones (a group run alone replaces only its own).
        #[arg(long)]
        record: bool,
        /// Only these groups of figures (widget, sandbox, proxy, bodies, instances, studio, imaging, mask, results, dev); all
        /// when none is named.
        only: Vec<bench::Group>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = project::Project::locate().and_then(|project| match cli.command {
        Command::Setup => setup::ensure(&project, setup::Purpose::Test),
        Command::Run { listen } => run::run(&project, listen),
        Command::Dev { port, data_dir } => dev::run(&project, port, data_dir),
        Command::Dist => dist::run(&project),
        Command::SplitWidget => widget::hook(&project),
        Command::Test { suite: None } => test::run(&project),
        Command::Test { suite: Some(suite) } => test::run_suite(&project, suite),
        Command::Bench { only, record } => bench::run(&project, &only, record),
        Command::SizeDiff { base, now, screen } => size_diff::run(&project, &base, now, screen.as_deref()),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("\nxtask: {error:#}");
            ExitCode::FAILURE
        }
    }
}
