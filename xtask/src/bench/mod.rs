//! `cargo xtask bench`: measures the project's figures and writes `target/bench/report.md`.
//! Each figure lives in its own module and adds rows to one report: figure, value, reference, ratio.

mod imaging;
mod mask_editor;
mod proxy_http;
mod report;
mod sandbox_http;
mod studio;
mod widget_size;
mod wrk;

use crate::project::Project;
use crate::setup::{self, Purpose};

pub use report::Report;

pub fn run(project: &Project) -> anyhow::Result<()> {
    setup::ensure(project, Purpose::Bench)?;
    let mut report = Report::default();
    widget_size::measure(project, &mut report)?;
    sandbox_http::measure(project, &mut report)?;
    proxy_http::measure(project, &mut report)?;
    studio::measure(project, &mut report)?;
    imaging::measure(project, &mut report)?;
    mask_editor::measure(project, &mut report)?;

    let path = project.target().join("bench").join("report.md");
    std::fs::create_dir_all(path.parent().expect("has a parent"))?;
    let markdown = report.to_markdown();
    std::fs::write(&path, &markdown)?;
    println!("\n{markdown}\nwritten to {}", path.display());
    Ok(())
}
