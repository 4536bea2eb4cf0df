//! The widget's size as a visitor downloads it: the release build's wasm and JS, raw and gzip -9.
//! Builds the widget first so the figure is always of the current code.

use std::io::Write;

use anyhow::{Context, bail};
use flate2::Compression;
use flate2::write::GzEncoder;

use super::Report;
use super::report::Measure;
use crate::project::Project;
use crate::run::build_widget;

pub fn measure(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    build_widget(project)?;
    for extension in ["wasm", "js"] {
        let mut raw = 0u64;
        let mut gzipped = 0u64;
        let mut files = 0;
        for entry in std::fs::read_dir(project.dist()).context("no dist/ after the build")? {
            let path = entry?.path();
            if path.extension().and_then(|e| e.to_str()) == Some(extension) {
                let bytes = std::fs::read(&path)?;
                raw += bytes.len() as u64;
                gzipped += gzip_best(&bytes)?;
                files += 1;
            }
        }
        if files == 0 {
            bail!("dist/ has no .{extension} file; the widget build did not produce one");
        }
        report.add(format!("widget .{extension}, raw"), Measure::bytes(raw), None);
        report.add(format!("widget .{extension}, gzip -9"), Measure::bytes(gzipped), None);
    }
    Ok(())
}

/// The size after gzip at its best compression (level 9, as `gzip -9`).
fn gzip_best(bytes: &[u8]) -> anyhow::Result<u64> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(bytes)?;
    Ok(encoder.finish()?.len() as u64)
}
