//! The time an allowance check adds to a creation: `POST /api/v2/renders` through `vstage serve` to a sandbox,
//! one at a time, without an allowance and with one (`--allowance`, whose reservation is a transaction of its own
//! before the call is sent), on SQLite and on PostgreSQL; p50 and p95 of each, and the difference.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Instant;

use anyhow::{Context, bail};
use vstage_postgres_cluster::Cluster;

use super::Report;
use super::fan_out::DiscardCluster;
use super::proxy_http::start_serve;
use super::report::{Measure, quantile};
use super::sandbox_http::{self, KEY};
use crate::project::Project;

/// Creations timed per server, after a few not counted.
const CREATIONS: usize = 200;
const WARM_UP: usize = 10;

pub fn measure(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    let sandbox = sandbox_http::start_sandbox(project, "allowance-sandbox-data")?;
    let upstream = ["--upstream", &sandbox.url];
    let key = [("VSTAGE_API_KEY", KEY)];
    let cluster = DiscardCluster(project.target().join("bench").join("postgres"));
    let database = Cluster::shared(&cluster.0)?.fresh_database("bench_allowance")?;
    for (store, extra) in [("SQLite", vec![]), ("PostgreSQL", vec!["--database", database.as_str()])] {
        let mut timed = Vec::new();
        for allowance in [None, Some("staging=1000000,image-editing=1000000")] {
            let mut args: Vec<&str> = upstream.iter().copied().chain(extra.iter().copied()).collect();
            if let Some(allowance) = allowance {
                args.extend(["--allowance", allowance]);
            }
            let data = format!("allowance-serve-{}-{}", store.to_lowercase(), allowance.is_some());
            let serve = start_serve(project, &args, &key, &data)?;
            timed.push(creation_times(serve.addr())?);
        }
        let (without, with) = (&timed[0], &timed[1]);
        for (name, q) in [("p50", 0.5), ("p95", 0.95)] {
            let (plain, checked) = (quantile(without, q), quantile(with, q));
            report.add(
                format!("creation {name} with an allowance check, {store} (reference: without)"),
                Measure::millis(checked),
                Some(Measure::millis(plain)),
            );
            report.add(
                format!("time an allowance check adds, {name}, {store}"),
                Measure::millis(checked - plain),
                None,
            );
        }
    }
    Ok(())
}

/// Milliseconds each of `CREATIONS` renders took to create through the server at `addr`, one after another on one
/// kept-alive connection.
fn creation_times(addr: &str) -> anyhow::Result<Vec<f64>> {
    let mut stream = TcpStream::connect(addr)?;
    stream.set_nodelay(true)?;
    let body = sandbox_http::render_body();
    let request = format!(
        "POST /api/v2/renders HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut times = Vec::with_capacity(CREATIONS);
    for n in 0..CREATIONS + WARM_UP {
        let started = Instant::now();
        stream.write_all(request.as_bytes())?;
        let status = read_answer(&mut stream)?;
        if status != 200 {
            bail!("creating a render through vstage serve answered HTTP {status}");
        }
        if n >= WARM_UP {
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        }
    }
    Ok(times)
}

/// Reads one answer with a `Content-Length` from `stream`; its status.
fn read_answer(stream: &mut TcpStream) -> anyhow::Result<u16> {
    let mut seen = Vec::new();
    let mut buffer = [0u8; 8192];
    loop {
        let read = stream.read(&mut buffer)?;
        if read == 0 {
            bail!("the server closed the connection mid-answer");
        }
        seen.extend_from_slice(&buffer[..read]);
        let Some(end) = seen.windows(4).position(|w| w == b"\r\n\r\n") else { continue };
        let head = String::from_utf8_lossy(&seen[..end]).to_ascii_lowercase();
        let length: usize = head
            .lines()
            .find_map(|line| line.strip_prefix("content-length:"))
            .and_then(|value| value.trim().parse().ok())
            .context("an answer with a Content-Length")?;
        if seen.len() >= end + 4 + length {
            return head.split_whitespace().nth(1).and_then(|code| code.parse().ok()).context("a status line");
        }
    }
}
