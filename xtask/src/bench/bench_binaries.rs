//! Figures a crate's own bench binary measures and prints, one JSON line each (`{"figure", "ms",
//! "reference_ms"}`): the sandbox's imaging on a 12-megapixel photo beside ImageMagick (Debian's `convert`,
//! `crates/imaging/benches/imaging.rs`), and keeping a 12-megapixel result with its content credentials beside
//! keeping it without (`crates/server/benches/keeping.rs`).

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

pub fn imaging(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    let title = "imaging beside ImageMagick (12 MP)";
    figures(project, report, title, ("vstage-imaging", "imaging"), |figure, with_reference| match with_reference {
        true => format!("imaging: {figure} (reference: ImageMagick)"),
        false => format!("imaging: {figure}"),
    })
}

pub fn keeping(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    let title = "keeping a result with content credentials (12 MP)";
    figures(project, report, title, ("vstage-server", "keeping"), |figure, _| format!("content credentials: {figure}"))
}

/// Runs `bench` of `package` and adds each figure it prints, named by `name`.
fn figures(
    project: &Project,
    report: &mut Report,
    title: &str,
    (package, bench): (&str, &str),
    name: fn(&str, bool) -> String,
) -> anyhow::Result<()> {
    let (status, output) = project::status_and_output(
        title,
        // the server's bench needs its content credentials; the imaging crate has no such feature
        project.cargo().args(["bench", "--locked", "-p", package, "--bench", bench]).args(match package {
            "vstage-server" => &["--features", crate::server::CONTENT_CREDENTIALS][..],
            _ => &[],
        }),
    )?;
    anyhow::ensure!(status.success(), "the {bench} benchmark failed; see above");
    for line in output.lines().filter(|line| line.starts_with('{')) {
        let figure: Figure = serde_json::from_str(line).with_context(|| format!("an unreadable figure: {line}"))?;
        let reference = figure.reference_ms.map(Measure::millis);
        report.add(name(&figure.figure, reference.is_some()), Measure::millis(figure.ms), reference);
    }
    Ok(())
}
