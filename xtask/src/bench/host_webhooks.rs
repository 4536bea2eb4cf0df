//! The host's webhooks' delay: from the service's `done` webhook reaching a server (the variation's end, as vstage
//! learns it) to the `variation.done` event reaching the host's receiver, with the result's images kept in
//! between; on one server (SQLite), and on two sharing one PostgreSQL database, where either may deliver.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, bail};
use vstage_postgres_cluster::Cluster;

use super::Report;
use super::fan_out::{DiscardCluster, signed_delivery};
use super::proxy_http::start_serve;
use super::report::{Measure, quantile};
use crate::project::Project;
use crate::vstage_process::VstageProcess;

/// Variations measured, one at a time, after `WARM_UP` that are not.
const VARIATIONS: usize = 40;
const WARM_UP: usize = 3;
/// How long an event has to reach the receiver before the group fails.
const ARRIVAL_TIMEOUT: Duration = Duration::from_secs(30);
/// The service's webhooks are signed with it.
const SERVICE_SECRET: &str = "whs_bench_host_webhooks";
/// The host's webhooks are signed with it.
const HOST_SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

pub fn measure(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    let (receiver, arrivals) = host_receiver()?;
    let envs = [("VSTAGE_WEBHOOK_SECRET", SERVICE_SECRET), ("VSTAGE_HOST_WEBHOOK_SECRET", HOST_SECRET)];
    let args = ["--host-webhook-url", receiver.as_str()];

    let one = start_serve(project, &args, &envs, "host-webhooks-serve-data")?;
    let alone = delays(&[&one], &arrivals)?;
    drop(one);
    add_quantiles(report, &alone, "one server, SQLite");

    // Declared first, so dropped last: the servers stop before their database does, on error too.
    let cluster = DiscardCluster(project.target().join("bench").join("postgres"));
    let database = Cluster::shared(&cluster.0)?.fresh_database("bench_host_webhooks")?;
    let shared = [args[0], args[1], "--database", &database];
    let first = start_serve(project, &shared, &envs, "host-webhooks-serve-data-0")?;
    let second = start_serve(project, &shared, &envs, "host-webhooks-serve-data-1")?;
    let shared = delays(&[&first, &second], &arrivals)?;
    drop((first, second));
    add_quantiles(report, &shared, "two servers, PostgreSQL, either delivering");
    Ok(())
}

fn add_quantiles(report: &mut Report, delays: &[f64], setup: &str) {
    for (name, q) in [("p50", 0.5), ("p95", 0.95)] {
        let figure = format!("variation end to the host's receiver, {name} ({setup})");
        report.add(figure, Measure::millis(quantile(delays, q)), None);
    }
}

/// One event's arrival at the receiver: the variation it reports, and when its request was read.
struct Arrival {
    variation: String,
    at: Instant,
}

/// The host's backend: a listener on loopback that answers 204 to every request and sends what each
/// `variation.done` reports, with when it arrived; its address.
fn host_receiver() -> anyhow::Result<(String, mpsc::Receiver<Arrival>)> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let url = format!("http://{}/hooks/vstage", listener.local_addr()?);
    let (sender, arrivals) = mpsc::channel();
    std::thread::spawn(move || {
        for connection in listener.incoming().flatten() {
            let sender = sender.clone();
            std::thread::spawn(move || {
                let _ = answer(connection, &sender);
            });
        }
    });
    Ok((url, arrivals))
}

/// Reads requests from one connection (the server may keep it open), answering each with 204.
fn answer(connection: TcpStream, sender: &mpsc::Sender<Arrival>) -> anyhow::Result<()> {
    let mut reader = BufReader::new(connection.try_clone()?);
    let mut writer = connection;
    loop {
        let mut length = 0;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line)? == 0 {
                return Ok(());
            }
            if line == "\r\n" {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().context("a Content-Length")?;
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body)?;
        let at = Instant::now();
        let payload: serde_json::Value = serde_json::from_slice(&body)?;
        if payload["type"] == "variation.done" {
            let variation = payload["data"]["variation_id"].as_str().unwrap_or_default().to_string();
            let _ = sender.send(Arrival { variation, at });
        }
        writer.write_all(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n")?;
    }
}

/// Each variation's delay (ms) from its `done` webhook posted to `servers[0]` to its event at the receiver.
fn delays(servers: &[&VstageProcess], arrivals: &mpsc::Receiver<Arrival>) -> anyhow::Result<Vec<f64>> {
    let image = sample_image(servers[0].addr())?;
    let mut delays = Vec::with_capacity(VARIATIONS);
    for index in 0..WARM_UP + VARIATIONS {
        let variation = format!("var_bench_{}_{index}", servers.len());
        let posted = post_done(servers[0].addr(), &variation, &image)?;
        let deadline = posted + ARRIVAL_TIMEOUT;
        let arrived = loop {
            match arrivals.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(Arrival { variation: of, at }) if of == variation => break at,
                Ok(_) => {}
                Err(_) => bail!("{variation}'s event did not reach the host's receiver in {ARRIVAL_TIMEOUT:?}"),
            }
        };
        if index >= WARM_UP {
            delays.push(arrived.duration_since(posted).as_secs_f64() * 1000.0);
        }
    }
    println!("    {VARIATIONS} variations' events over {} server(s)", servers.len());
    Ok(delays)
}

/// The address of one of the embedded sandbox's sample photos, which the server keeps as the result's image.
fn sample_image(addr: &str) -> anyhow::Result<String> {
    let (status, body) = http(addr, &format!("GET /api/samples HTTP/1.0\r\nHost: {addr}\r\n\r\n"))?;
    anyhow::ensure!(status.contains(" 200 "), "GET /api/samples answered {status}");
    let samples: serde_json::Value = serde_json::from_str(&body)?;
    samples[0]["url"].as_str().map(str::to_string).context("no sample photo in /api/samples")
}

/// Posts a signed `done` webhook for `variation`, its result `image`; when the request started.
fn post_done(addr: &str, variation: &str, image: &str) -> anyhow::Result<Instant> {
    let timestamp = SystemTime::now().duration_since(UNIX_EPOCH)?.as_millis();
    let body = format!(
        r#"{{"event_type":"done","render_id":"rnd_{variation}","variation_id":"{variation}","variation_type":"staging","timestamp":{timestamp},"result":{{"url":"{image}"}}}}"#
    );
    let request = signed_delivery(addr, &body, SERVICE_SECRET)?;
    let posted = Instant::now();
    let (status, answer) = http(addr, &request)?;
    anyhow::ensure!(status.contains(" 200 "), "the done webhook was refused: {status} {answer}");
    Ok(posted)
}

/// One request on a new connection, read to its end: the status line and the body.
fn http(addr: &str, request: &str) -> anyhow::Result<(String, String)> {
    let mut connection = TcpStream::connect(addr)?;
    connection.write_all(request.as_bytes())?;
    let mut answer = String::new();
    connection.read_to_string(&mut answer)?;
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    Ok((head.lines().next().unwrap_or_default().to_string(), body.to_string()))
}
