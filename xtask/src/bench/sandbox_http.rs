//! The sandbox's HTTP figures: requests per second and p50/p99 latency of `GET /v2/renders/{id}` and
//! `POST /v2/renders`, measured with wrk against the release build on loopback.

use std::io::{Read, Write};
use std::net::TcpStream;

use anyhow::{Context, bail};

use super::Report;
use super::report::Measure;
use crate::project::{self, Project};
use crate::sandbox::SandboxProcess;

const KEY: &str = "bench-key";
/// A 1x1 PNG: processing it costs nothing, so the figures are the HTTP and store path's.
const PHOTO: &str = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC";

pub fn measure(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    project::run(
        "building the server (release)",
        project.cargo().args(["build", "--release", "--locked", "-p", "vstage-server"]),
    )?;
    let data = project.target().join("bench").join("sandbox-data");
    let _ = std::fs::remove_dir_all(&data);
    let args = ["--api-key", KEY, "--photo-limit", "1000000000", "--processing-ms", "10", "--data-dir"];
    let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    args.push(data.display().to_string());
    let sandbox = SandboxProcess::start(project, &project.target().join("release").join("vstage"), &args)?;
    let body = format!(r#"{{"image_url":"{PHOTO}","variation_count":1,"config":{{"type":"enhancement"}}}}"#);
    let created = post_json(sandbox.addr(), "/v2/renders", &body)?;
    let id = created["id"].as_str().context("the created render has an id")?.to_string();

    let get = wrk(project, sandbox.addr(), &format!("/v2/renders/{id}"), None)?;
    add(report, "sandbox GET /v2/renders/{id}", get);
    let script = project.target().join("bench").join("post-render.lua");
    std::fs::write(
        &script,
        format!("wrk.method = \"POST\"\nwrk.body = '{body}'\nwrk.headers[\"Content-Type\"] = \"application/json\"\n"),
    )?;
    let post = wrk(project, sandbox.addr(), "/v2/renders", Some(&script))?;
    add(report, "sandbox POST /v2/renders", post);
    Ok(())
}

struct Figures {
    requests_per_second: f64,
    p50_ms: f64,
    p99_ms: f64,
}

fn add(report: &mut Report, name: &str, figures: Figures) {
    report.add(format!("{name}, requests/s"), Measure::per_second(figures.requests_per_second), None);
    report.add(format!("{name}, p50"), Measure::millis(figures.p50_ms), None);
    report.add(format!("{name}, p99"), Measure::millis(figures.p99_ms), None);
}

/// 10 seconds, 2 threads, 32 connections.
fn wrk(project: &Project, addr: &str, path: &str, script: Option<&std::path::Path>) -> anyhow::Result<Figures> {
    let mut command = project.command("wrk");
    command.args(["-t2", "-c32", "-d10s", "--latency", "-H"]).arg(format!("Authorization: Api-Key {KEY}"));
    if let Some(script) = script {
        command.arg("-s").arg(script);
    }
    command.arg(format!("http://{addr}{path}"));
    let (status, output) = project::status_and_output(&format!("wrk {path}"), &mut command)?;
    if !status.success() {
        bail!("wrk failed on {path}");
    }
    if output.contains("Non-2xx") {
        bail!("the sandbox answered errors during the run of {path}; see above");
    }
    let number_after = |label: &str| -> anyhow::Result<f64> {
        let line = output
            .lines()
            .find(|l| l.trim_start().starts_with(label))
            .with_context(|| format!("no `{label}` in wrk's output"))?;
        let value = line.trim_start()[label.len()..].trim();
        parse_duration_or_number(value).with_context(|| format!("cannot read `{line}`"))
    };
    Ok(Figures {
        requests_per_second: number_after("Requests/sec:")?,
        p50_ms: number_after("50%")?,
        p99_ms: number_after("99%")?,
    })
}

/// `123.4` as is; `1.23ms`, `850.00us`, `1.2s` in milliseconds.
fn parse_duration_or_number(value: &str) -> Option<f64> {
    let split = value.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(value.len());
    let number: f64 = value[..split].parse().ok()?;
    Some(match &value[split..] {
        "us" => number / 1000.0,
        "ms" | "" => number,
        "s" => number * 1000.0,
        _ => return None,
    })
}

/// One JSON POST over a plain connection (the bench needs one render to read).
fn post_json(addr: &str, path: &str, body: &str) -> anyhow::Result<serde_json::Value> {
    let mut stream = TcpStream::connect(addr)?;
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Api-Key {KEY}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    let mut response = String::new();
    stream.read_to_string(&mut response)?;
    let (head, payload) = response.split_once("\r\n\r\n").context("an HTTP answer")?;
    if !head.starts_with("HTTP/1.1 200") {
        bail!("creating the bench's render failed: {head}");
    }
    Ok(serde_json::from_str(payload)?)
}

#[cfg(test)]
mod tests {
    use super::parse_duration_or_number;

    #[test]
    fn wrk_values_are_read_in_milliseconds() {
        assert_eq!(parse_duration_or_number("850.00us"), Some(0.85));
        assert_eq!(parse_duration_or_number("1.50ms"), Some(1.5));
        assert_eq!(parse_duration_or_number("2.00s"), Some(2000.0));
        assert_eq!(parse_duration_or_number("12345.67"), Some(12345.67));
        assert_eq!(parse_duration_or_number("fast"), None);
    }
}
