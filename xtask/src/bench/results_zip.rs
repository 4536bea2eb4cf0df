//! The results ZIPs: a render's (`GET /api/renders/{id}/results.zip`, 2 results) then a board's
//! (`GET /api/board/results.zip`, 30 full-size results of a 12-megapixel photo in two renders): how much the
//! server's peak resident memory grows while it streams them, in a server started afresh over the same data,
//! beside the size of the ZIP. Streamed, the growth is about an image or two; built in memory, it would be the
//! whole ZIP.

use std::time::Instant;

use anyhow::{Context, bail};

use super::Report;
use super::proxy_http::memory_kib;
use super::report::Measure;
use super::sandbox_http::release_binary;
use crate::project::Project;
use crate::vstage_process::VstageProcess;

/// The board's results, in two renders (a render has 20 at most).
const RESULTS: u32 = 30;

pub fn measure(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    let bench = project.target().join("bench");
    let data = bench.join("results-zip-data");
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&bench)?;
    let photo = twelve_megapixels()?;
    let args = ["--data-dir", &data.display().to_string(), "--skip-check", "widget"].map(String::from);
    let server = VstageProcess::start(project, &release_binary(project)?, "serve", &args, &[])?;

    let uploaded = ureq::post(format!("{}/api/uploads", server.url))
        .header("Content-Type", "image/png")
        .send(&photo[..])
        .context("uploading the photo")?
        .body_mut()
        .read_to_string()?;
    let url = json_field(&uploaded, "url")?;
    println!("    creating renders with 2 and {RESULTS} results (the sandbox takes a while on 12 megapixels)");
    let few = create_render(&server, &url, 2)?;
    let board = [create_render(&server, &url, 20)?, create_render(&server, &url, RESULTS - 20)?];
    let renders: Vec<_> = board.iter().map(|id| serde_json::json!({"render_id": id, "label": "house.png"})).collect();
    ureq::post(format!("{}/api/board/renders", server.url))
        .header("Content-Type", "application/json")
        .send(serde_json::json!({ "renders": renders }).to_string().as_bytes())
        .context("putting the renders on the board")?;
    // A new process over the same data, so that the memory figures are the downloads', not the processing's. Its
    // public address is the first one's, which the sandbox's result addresses carry.
    let first_url = server.url.clone();
    drop(server);
    let mut again = args.to_vec();
    again.extend(["--public-url".to_string(), first_url]);
    let server = VstageProcess::start(project, &release_binary(project)?, "serve", &again, &[])?;

    // The small ZIP first: what a first download costs whatever its size (buffers, pools, threads); then the
    // large one, whose further growth is what its size costs.
    let start = memory_kib(server.pid(), "VmHWM")?;
    let (few_bytes, _) = download(&server, &format!("renders/{few}/results.zip"))?;
    let after_few = memory_kib(server.pid(), "VmHWM")?;
    let (many_bytes, seconds) = download(&server, "board/results.zip")?;
    let after_many = memory_kib(server.pid(), "VmHWM")?;
    if many_bytes < u64::from(RESULTS) * 100_000 {
        bail!("the ZIP is only {many_bytes} bytes for {RESULTS} full-size results");
    }
    let first = after_few.saturating_sub(start) * 1024;
    let further = after_many.saturating_sub(after_few) * 1024;
    println!("    ZIPs of {few_bytes} and {many_bytes} bytes; peak memory grew by {first}, then by {further} bytes");
    report.add(format!("board ZIP of {RESULTS} full-size results: size"), Measure::bytes(many_bytes), None);
    report
        .add("results ZIP: the server's peak memory growth on a first, 2-result download", Measure::bytes(first), None)
        .noise(super::proxy_http::MEMORY_NOISE);
    report
        .add(
            format!("board ZIP: further peak memory growth for the {RESULTS}-result one (reference: its size)"),
            Measure::bytes(further),
            Some(Measure::bytes(many_bytes)),
        )
        .noise(super::proxy_http::MEMORY_NOISE);
    report.add(
        format!("board ZIP: time to download the {RESULTS}-result one"),
        Measure::millis(seconds * 1000.0),
        None,
    );
    Ok(())
}

/// A render of `photo` with `count` enhancement results, waited for: its id.
fn create_render(server: &VstageProcess, photo: &str, count: u32) -> anyhow::Result<String> {
    let body = serde_json::json!({
        "image_url": photo,
        "variation_count": count,
        "config": {"type": "enhancement"},
        "wait_for_completion": true,
    });
    let created = ureq::post(format!("{}/api/v2/renders", server.url))
        .header("Content-Type", "application/json")
        .send(body.to_string().as_bytes())
        .context("creating a render")?
        .body_mut()
        .with_config()
        .limit(16 << 20)
        .read_to_string()?;
    json_field(&created, "id")
}

/// Downloads a ZIP (`path` under `/api`), counting its bytes without keeping them: the size and the seconds it
/// took.
fn download(server: &VstageProcess, path: &str) -> anyhow::Result<(u64, f64)> {
    let started = Instant::now();
    let mut answer = ureq::get(format!("{}/api/{path}", server.url)).call()?;
    let mut reader = answer.body_mut().with_config().limit(u64::MAX).reader();
    let bytes = std::io::copy(&mut reader, &mut std::io::sink())?;
    Ok((bytes, started.elapsed().as_secs_f64()))
}

/// A 4000x3000 PNG of gradients with fine grain everywhere, so that its results are full-size JPEGs of a few
/// megabytes (a flat picture would compress to almost nothing).
fn twelve_megapixels() -> anyhow::Result<Vec<u8>> {
    let (width, height) = (4000u32, 3000u32);
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut grain = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % 6) as u32
    };
    let mut pixels = Vec::with_capacity((width * height * 3) as usize);
    for y in 0..height {
        for x in 0..width {
            pixels.push(((x * 200 / width) + grain()) as u8);
            pixels.push(((y * 200 / height) + grain()) as u8);
            pixels.push((((x + y) * 100 / (width + height)) + 60 + grain()) as u8);
        }
    }
    let mut png = Vec::new();
    let mut encoder = png::Encoder::new(&mut png, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_compression(png::Compression::Balanced);
    encoder.write_header()?.write_image_data(&pixels)?;
    Ok(png)
}

fn json_field(body: &str, field: &str) -> anyhow::Result<String> {
    let value: serde_json::Value = serde_json::from_str(body).with_context(|| format!("not JSON: {body}"))?;
    value[field].as_str().map(str::to_string).with_context(|| format!("no {field} in {body}"))
}
