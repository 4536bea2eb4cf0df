//! What an attacker gets from `vstage serve` at its defaults: the connections a slow-reader attack from one address
//! holds before the server refuses it more (beside `--max-connections-per-address`), while another address is still
//! served; and the calls to the service one widget token causes at most in a window, hammering the call that reads
//! the most (beside the bound docs/server.md gives).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use super::Report;
use super::proxy_http::free_addr;
use super::report::Measure;
use super::sandbox_http::release_binary;
use crate::project::Project;
use crate::vstage_process::VstageProcess;

/// `--max-connections-per-address`'s default.
const PER_ADDRESS: usize = 64;
/// Connections the slow reader opens.
const ATTACKERS: usize = 200;
/// `--rate-limit`'s default, and the window the calls are counted over.
const RATE_LIMIT: f64 = 600.0;
const WINDOW: Duration = Duration::from_secs(30);
const WIDGET_SECRET: &str = "bench-widget-secret-0123456789abcdef";

pub fn measure(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    slow_readers(project, report)?;
    calls_per_token(project, report)
}

fn start(project: &Project, name: &str, args: &[&str], envs: &[(&str, &str)]) -> anyhow::Result<VstageProcess> {
    let data = project.target().join("bench").join(name);
    let _ = std::fs::remove_dir_all(&data);
    let dist = data.join("dist");
    std::fs::create_dir_all(&dist)?;
    // A file that does not compress, larger than any socket's buffers.
    let noise: Vec<u8> = (0..8u32 << 20).map(|n| (n.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    std::fs::write(dist.join("noise.wasm"), noise)?;
    let (data_dir, dist_dir) = (data.display().to_string(), dist.display().to_string());
    let mut all = ["--skip-check", "widget", "--data-dir", &data_dir, "--dist", &dist_dir].map(String::from).to_vec();
    all.extend(args.iter().map(|arg| arg.to_string()));
    VstageProcess::start(project, &release_binary(project)?, "serve", &all, envs)
}

/// `ATTACKERS` connections from 127.0.0.1, each asking for a large file and reading nothing after the status line.
fn slow_readers(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    let server = start(project, "attack-slow-readers", &[], &[])?;
    let addr = server.addr().to_string();
    let mut connections = Vec::with_capacity(ATTACKERS);
    for _ in 0..ATTACKERS {
        let mut stream = TcpStream::connect(&addr)?;
        stream.set_read_timeout(Some(Duration::from_secs(30)))?;
        let request = format!("GET /noise.wasm HTTP/1.1\r\nHost: {addr}\r\n\r\n").repeat(4);
        // A refused connection may be closed before it has sent everything.
        let _ = stream.write_all(request.as_bytes());
        connections.push(stream);
    }
    let mut held = 0;
    for stream in &mut connections {
        let mut status = [0u8; 12];
        if stream.read_exact(&mut status).is_ok() && status.starts_with(b"HTTP/1.1 200") {
            held += 1;
        }
    }
    if health_from(&addr, [127, 0, 0, 2])? != 200 {
        bail!("another address was not served during the slow-reader attack");
    }
    report.add(
        format!(
            "connections held by a slow-reader attack of {ATTACKERS} from one address (reference: the per-address cap)"
        ),
        Measure::count(held as f64),
        Some(Measure::count(PER_ADDRESS as f64)),
    );
    drop(connections);
    Ok(())
}

/// `GET /healthz` from the loopback address `from`; its status.
fn health_from(addr: &str, from: [u8; 4]) -> anyhow::Result<u16> {
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None)?;
    socket.bind(&SocketAddr::from((from, 0)).into())?;
    socket.connect(&addr.parse::<SocketAddr>()?.into())?;
    let mut stream: TcpStream = socket.into();
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    write!(stream, "GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n")?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer)?;
    answer.split_whitespace().nth(1).and_then(|code| code.parse().ok()).context("an answer to /healthz")
}

/// One token with 20 renders asks for its list (20 service reads each) from four threads for `WINDOW`; the calls
/// that reached the service meanwhile are read from `/metrics`.
fn calls_per_token(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    let metrics = free_addr()?;
    let args = ["--access", "token", "--metrics-listen", &metrics];
    let server = start(project, "attack-calls", &args, &[("VSTAGE_WIDGET_SECRET", WIDGET_SECRET)])?;
    let token = mint(project)?;
    let samples = ureq::get(format!("{}/api/samples", server.url)).call()?.body_mut().read_to_string()?;
    let samples: serde_json::Value = serde_json::from_str(&samples)?;
    let photo = samples[0]["url"].as_str().context("a sample photo")?.to_string();
    let body = serde_json::json!({"image_url": photo, "variation_count": 1, "config": {"type": "enhancement"}});
    for _ in 0..20 {
        ureq::post(format!("{}/api/v2/renders", server.url))
            .header("Authorization", &format!("Bearer {token}"))
            .header("Content-Type", "application/json")
            .send(body.to_string().as_bytes())
            .context("creating the token's renders")?;
    }
    let before = upstream_calls(&metrics)?;
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                while started.elapsed() < WINDOW {
                    let _ = ureq::get(format!("{}/api/v2/renders?limit=100", server.url))
                        .header("Authorization", &format!("Bearer {token}"))
                        .call();
                }
            });
        }
    });
    let calls = upstream_calls(&metrics)? - before;
    // The last requests end after the window (a request may wait up to 10 s for its calls): the bound is for the
    // time they all took.
    let minutes = started.elapsed().as_secs_f64() / 60.0;
    let bound = RATE_LIMIT / 10.0 + RATE_LIMIT * minutes;
    report.add(
        format!("service calls one token caused in {:.0} s (reference: the documented bound)", minutes * 60.0),
        Measure::count(calls),
        Some(Measure::count(bound)),
    );
    Ok(())
}

fn mint(project: &Project) -> anyhow::Result<String> {
    let output = project
        .command(&release_binary(project)?)
        .env("VSTAGE_WIDGET_SECRET", WIDGET_SECRET)
        .args(["token", "--sub", "attacker", "--ttl", "1h"])
        .output()?;
    anyhow::ensure!(output.status.success(), "vstage token: {}", String::from_utf8_lossy(&output.stderr));
    Ok(String::from_utf8(output.stdout)?.trim().to_string())
}

/// The calls to the service counted so far.
fn upstream_calls(metrics: &str) -> anyhow::Result<f64> {
    let text = ureq::get(format!("http://{metrics}/metrics")).call()?.body_mut().read_to_string()?;
    Ok(text
        .lines()
        .filter(|line| line.starts_with("vstage_upstream_calls_total"))
        .filter_map(|line| line.rsplit(' ').next()?.parse::<f64>().ok())
        .sum())
}
