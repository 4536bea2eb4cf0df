//! The sandbox's imaging on a 12-megapixel photo beside ImageMagick (Debian's `convert`): the bench binary
//! `crates/imaging/benches/imaging.rs` times both and prints one JSON line per figure.

use anyhow::Context;
use serde::Deserialize;

use super::Report;
use super::report::Measure;
use crate::project::{self, Project};

#[derive(Deserialize)]
struct Figure {
    figure: String,
    ms: f64,
    reference_ms: Option<f64>,
}

pub fn measure(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    let (status, output) = project::status_and_output(
        "imaging beside ImageMagick (12 MP)",
        project.cargo().args(["bench", "--locked", "-p", "vstage-imaging", "--bench", "imaging"]),
    )?;
    anyhow::ensure!(status.success(), "the imaging benchmark failed; see above");
    for line in output.lines().filter(|line| line.starts_with('{')) {
        let figure: Figure = serde_json::from_str(line).with_context(|| format!("an unreadable figure: {line}"))?;
        let reference = figure.reference_ms.map(Measure::millis);
        let name = match reference {
            Some(_) => format!("imaging: {} (reference: ImageMagick)", figure.figure),
            None => format!("imaging: {}", figure.figure),
        };
        report.add(name, Measure::millis(figure.ms), reference);
    }
    Ok(())
}
