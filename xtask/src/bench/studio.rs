//! The studio's figures in headless Chromium: the ignored `figures::` tests of the browser suite, run against the
//! real server in its release build (as a listing site runs it; the tests' own build is a debug one) with the
//! widget built from the sources as they are (once a run, `widget_size::build_once`), each writing its figure to
//! a JSON-lines file.
//! The widget's own figures (`figures::widget_*`, its time to ready and to its first screen) belong to the widget
//! group.

use super::Report;
use super::figure_tests::browser_figures;
use crate::project::Project;

pub fn measure(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    super::widget_size::build_once(project)?;
    browser_figures(project, report, "binary(browser) & test(/^figures::/) & !test(/^figures::widget_/)")
}
