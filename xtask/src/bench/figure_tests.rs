//! The browser suite's ignored figure tests (`figures::`, `first_screens::`, `dev_loop::figure_`), run by nextest
//! against the release server, each writing its figure to a JSON-lines file that the report reads back.

use anyhow::Context;

use super::Report;
use super::report::BrowserFigure;
use super::sandbox_http::release_binary;
use crate::project::{self, Project};
use crate::setup::{CHROMEDRIVER, CHROMIUM};

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
            .args(["--features", crate::server::CONTENT_CREDENTIALS])
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
