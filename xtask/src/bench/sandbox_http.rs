//! The sandbox's HTTP figures: requests per second and p50/p99 latency of `GET /v2/renders/{id}` and
//! `POST /v2/renders`, measured with wrk against the release build on loopback.

use anyhow::Context;

use super::Report;
use super::wrk;
use crate::project::{self, Project};
use crate::vstage_process::VstageProcess;

pub const KEY: &str = "bench-key";
/// A 1x1 PNG: processing it costs nothing, so the figures are the HTTP and store path's.
const PHOTO: &str = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC";

pub fn measure(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    let sandbox = start_sandbox(project, "sandbox-data")?;
    let id = create_render(&sandbox)?;
    let auth = [format!("Authorization: Api-Key {KEY}")];
    wrk::run(project, "10s", sandbox.addr(), &format!("/v2/renders/{id}"), &auth, None)?.add_to(
        report,
        "sandbox GET /v2/renders/{id}",
        None,
        None,
    );
    let script = project.target().join("bench").join("post-render.lua");
    std::fs::write(
        &script,
        format!(
            "wrk.method = \"POST\"\nwrk.body = '{}'\nwrk.headers[\"Content-Type\"] = \"application/json\"\n",
            render_body()
        ),
    )?;
    wrk::run(project, "10s", sandbox.addr(), "/v2/renders", &auth, Some(&script))?.add_to(
        report,
        "sandbox POST /v2/renders",
        None,
        None,
    );
    Ok(())
}

/// The release `vstage` binary, built if needed.
pub fn release_binary(project: &Project) -> anyhow::Result<std::path::PathBuf> {
    project::run(
        "building the server (release)",
        project
            .cargo()
            .args(["build", "--release", "--locked", "-p", "vstage-server"])
            .args(["--features", crate::server::CONTENT_CREDENTIALS]),
    )?;
    Ok(project.target().join("release").join("vstage"))
}

/// A fresh `vstage sandbox` with the bench's key, fast processing and no photo limit to speak of.
pub fn start_sandbox(project: &Project, data_name: &str) -> anyhow::Result<VstageProcess> {
    let data = project.target().join("bench").join(data_name);
    let _ = std::fs::remove_dir_all(&data);
    let mut args: Vec<String> =
        ["--api-key", KEY, "--photo-limit", "1000000000", "--processing-ms", "10", "--data-dir"]
            .iter()
            .map(|a| a.to_string())
            .collect();
    args.push(data.display().to_string());
    VstageProcess::start(project, &release_binary(project)?, "sandbox", &args, &[])
}

/// A one-variation enhancement of a 1x1 photo.
pub fn render_body() -> String {
    format!(r#"{{"image_url":"{PHOTO}","variation_count":1,"config":{{"type":"enhancement"}}}}"#)
}

/// Creates one render on `sandbox` and returns its id.
pub fn create_render(sandbox: &VstageProcess) -> anyhow::Result<String> {
    let created = wrk::post_json(sandbox.addr(), "/v2/renders", KEY, &render_body())?;
    Ok(created["id"].as_str().context("the created render has an id")?.to_string())
}
