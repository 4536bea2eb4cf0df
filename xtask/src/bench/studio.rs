//! The studio's figures in headless Chromium: the ignored `figures::` tests of the browser suite, run against the
//! real server with the widget just built (by `widget_size`), each writing its figure to a JSON-lines file.

use anyhow::Context;

use super::Report;
use super::report::BrowserFigure;
use crate::project::{self, Project};
use crate::setup::{CHROMEDRIVER, CHROMIUM};

pub fn measure(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    let file = project.target().join("bench").join("studio-figures.jsonl");
    let _ = std::fs::remove_file(&file);
    project::run(
        "the studio's figures (headless Chromium)",
        project
            .cargo()
            .args(["nextest", "run", "--locked", "-p", "vstage-server", "--profile", "e2e", "--run-ignored", "only"])
            .args(["-E", "binary(browser) & test(/^figures::/)"])
            .env("VSTAGE_FIGURES", &file)
            .env("CHROMIUM", CHROMIUM)
            .env("CHROMEDRIVER", CHROMEDRIVER),
    )?;
    let text = std::fs::read_to_string(&file).context("the figures tests wrote no figures")?;
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        let figure = BrowserFigure::parse(line)?;
        let value = figure.measure()?;
        report.add(figure.figure, value, None);
    }
    Ok(())
}
