//! The studio's figures in headless Chromium: the ignored `figures::` tests of the browser suite, run against the
//! real server in its release build (as a listing site runs it; the tests' own build is a debug one) with the
//! widget built from the sources as they are (once a run, `widget_size::build_once`), each writing its figure to
//! a JSON-lines file.
//! The widget's own figures (`figures::widget_*`, its time to ready and to its first screen) belong to the widget
//! group.

use anyhow::Context;

use super::Report;
use super::report::BrowserFigure;
use super::sandbox_http::release_binary;
use crate::project::{self, Project};
use crate::setup::{CHROMEDRIVER, CHROMIUM};

pub fn measure(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    super::widget_size::build_once(project)?;
    browser_figures(project, report, "binary(browser) & test(/^figures::/) & !test(/^figures::widget_/)")
}

/// Runs the browser suite's ignored figure tests that `filter` (a nextest filter) picks, and reports their figures.
pub fn browser_figures(project: &Project, report: &mut Report, filter: &str) -> anyhow::Result<()> {
    let file = project.target().join("bench").join("studio-figures.jsonl");
    let _ = std::fs::remove_file(&file);
    let server = release_binary(project)?;
    project::run(
        "figures in headless Chromium",
        project
            .cargo()
            .args(["nextest", "run", "--locked", "-p", "vstage-server", "--profile", "e2e", "--run-ignored", "only"])
            .args(["-E", filter])
            .env("VSTAGE_FIGURES", &file)
            .env("VSTAGE_PROGRAM", &server)
            .env("CHROMIUM", CHROMIUM)
            .env("CHROMEDRIVER", CHROMEDRIVER),
    )?;
    let text = std::fs::read_to_string(&file).context("the figures tests wrote no figures")?;
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        let figure = BrowserFigure::parse(line)?;
        let (value, reference) = (figure.measure()?, figure.reference()?);
        match reference {
            Some(budget) if figure.budget => {
                let parts = figure
                    .files
                    .iter()
                    .map(|part| Ok((part.file.clone(), figure.in_unit(part.bytes)?)))
                    .collect::<anyhow::Result<Vec<_>>>()?;
                report.add_budgeted(figure.figure, value, budget, parts);
            }
            _ => {
                report.add(figure.figure, value, reference);
            }
        }
    }
    Ok(())
}
