//! The mask editor's figures in headless Chromium: the ignored wasm-bindgen test `tests/mask_figures.rs`, built
//! as the widget ships (the `wasm-release` profile, left whole), printing one `vstage-figure {json}` line per figure.

use anyhow::bail;

use super::Report;
use super::report::{BrowserFigure, Measure};
use crate::project::{self, Project};
use crate::setup::CHROMEDRIVER;

pub fn measure(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    let (status, output) = project::status_and_output(
        "the mask editor's figures (headless Chromium)",
        project
            .cargo()
            .args(["test", "--locked", "-p", "vstage-widget", "--target", "wasm32-unknown-unknown"])
            .args(["--profile", "wasm-release", "--test", "mask_figures", "--", "--include-ignored", "--nocapture"])
            .env("CHROMEDRIVER", CHROMEDRIVER)
            // Whole: a split build's module imports wasm-split's loader, which only the widget's build makes.
            .env("VSTAGE_UNSPLIT", "1"),
    )?;
    if !status.success() {
        bail!("the mask editor's figures failed");
    }
    let mut found = 0;
    let mut by_name = std::collections::HashMap::new();
    for line in output.lines().filter_map(|line| line.split_once("vstage-figure ").map(|(_, json)| json)) {
        let figure = BrowserFigure::parse(line)?;
        let value = figure.measure()?;
        by_name.insert(figure.figure.clone(), figure.value);
        found += 1;
        // the model (and the model with its canvas update) beside the JavaScript canvas: the ratio's goal is 1.0
        let reference = ["mask segment, vstage model + canvas update: ", "mask segment, vstage model: "]
            .iter()
            .find_map(|prefix| figure.figure.strip_prefix(prefix))
            .and_then(|which| by_name.get(&format!("mask segment, canvas-2D JavaScript: {which}")).copied());
        report.add(figure.figure, value, reference.map(Measure::millis));
    }
    if found == 0 {
        bail!("the mask editor's figures test printed no figures");
    }
    Ok(())
}
