//! `cargo xtask bench`: measures the project's figures and writes `target/bench/report.md`.
//! Each figure lives in its own module and adds rows to one report: figure, value, reference, ratio.

mod allowance_check;
mod attacks;
mod bench_binaries;
mod body_memory;
mod fan_out;
mod figure_tests;
mod host_webhooks;
mod instructions;
mod mask_editor;
mod proxy_http;
mod recorded;
mod report;
mod results_zip;
mod sandbox_http;
mod studio;
mod widget_size;
mod wrk;

use anyhow::Context;

use crate::project::Project;
use crate::setup::{self, Purpose};

pub use report::Report;

/// The groups of figures, in the order they are measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Group {
    Widget,
    Sandbox,
    Proxy,
    /// The server's peak memory for the largest body of each kind.
    Bodies,
    /// What a slow reader and one token's calls can take at the defaults.
    Attacks,
    /// The time an allowance check adds to a creation, on SQLite and PostgreSQL.
    Allowance,
    // Two `vstage serve` sharing one PostgreSQL database: the live-event fan-out delay across them.
    Instances,
    /// A variation's end to the host's webhook receiver, on one server and across two.
    HostWebhooks,
    Studio,
    Imaging,
    Mask,
    Results,
    /// Keeping a 12 MP result with its content credentials (C2PA), beside keeping it without.
    Credentials,
    /// The widget's dev loop (`cargo xtask dev`): a text saved to shown on screen.
    Dev,
}

/// One group's measurement, adding its rows to the report.
type Measurement = fn(&Project, &mut Report) -> anyhow::Result<()>;

/// The dev loop's figure, a browser test that starts `cargo xtask dev` and edits a locale file.
fn dev_loop(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    figure_tests::browser_figures(project, report, "binary(browser) & test(/^dev_loop::figure_/)")
}

/// Measures the groups named (all when none is), writes the report beside the last recorded figures, and with
/// `record` keeps this run's figures as the recorded ones (`recorded::FILE`; a group run alone replaces its own, a
/// whole run all).
pub fn run(project: &Project, only: &[Group], record: bool) -> anyhow::Result<()> {
    setup::ensure(project, Purpose::Bench)?;
    // Every group writes its scratch files here, a group run alone on a new clone first of all.
    let bench = project.target().join("bench");
    std::fs::create_dir_all(&bench).with_context(|| format!("cannot create {}", bench.display()))?;
    let mut report = Report::default();
    let measures: [(Group, Measurement); 14] = [
        (Group::Widget, widget_size::measure),
        (Group::Sandbox, sandbox_http::measure),
        (Group::Proxy, proxy_http::measure),
        (Group::Bodies, body_memory::measure),
        (Group::Attacks, attacks::measure),
        (Group::Allowance, allowance_check::measure),
        (Group::Instances, fan_out::measure),
        (Group::HostWebhooks, host_webhooks::measure),
        (Group::Studio, studio::measure),
        (Group::Imaging, bench_binaries::imaging),
        (Group::Mask, mask_editor::measure),
        (Group::Results, results_zip::measure),
        (Group::Credentials, bench_binaries::keeping),
        (Group::Dev, dev_loop),
    ];
    for (group, measure) in measures {
        if only.is_empty() || only.contains(&group) {
            measure(project, &mut report)?;
        }
    }

    let recorded_path = project.root.join(recorded::FILE);
    let last = recorded::Recorded::read(&recorded_path)?;
    let path = bench.join("report.md");
    let markdown = report.to_markdown(&last);
    std::fs::write(&path, &markdown)?;
    println!("\n{markdown}\nwritten to {}", path.display());
    for figure in report.over_budget() {
        println!("over budget: {figure}");
    }
    if record {
        let commit = crate::project::output_line(project.command("git").args(["describe", "--always", "--dirty"]))
            .unwrap_or_else(|| "unknown".into());
        std::fs::write(&recorded_path, last.after(report.figures(&commit), only.is_empty()).to_json())?;
        println!("figures recorded in {}", recorded_path.display());
    }
    Ok(())
}
