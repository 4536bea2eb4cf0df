//! The fan-out figure across instances: two `vstage serve` sharing one PostgreSQL database, 1,000 live-event
//! streams split over them, and the delay from a webhook delivered to the first to its arrival on every stream.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, bail};
use hmac::{KeyInit, Mac};
use vstage_postgres_cluster::Cluster;

use super::Report;
use super::proxy_http::{open_stream, start_serve};
use super::report::{Measure, quantile};
use crate::project::Project;

const SERVERS: usize = 2;
const STREAMS_PER_SERVER: usize = 500;
/// Deliveries measured, one at a time, after `WARM_UP` that are not.
const DELIVERIES: usize = 100;
const WARM_UP: usize = 5;
/// How long every stream has to receive a delivery before the group fails.
const ARRIVAL_TIMEOUT: Duration = Duration::from_secs(30);
/// Both servers verify deliveries with it.
const SECRET: &str = "whs_bench_fan_out";
/// Each reader thread only parses lines: a small stack keeps 1,000 of them cheap.
const READER_STACK: usize = 64 * 1024;
/// The setup, as the report's rows name it (`SERVERS` times `STREAMS_PER_SERVER` streams).
const SETUP: &str = "1,000 streams over 2 servers, PostgreSQL";

pub fn measure(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    let total = SERVERS * STREAMS_PER_SERVER;
    // Declared first, so dropped last: the servers stop before their database does, on error too.
    let cluster = DiscardCluster(project.target().join("bench").join("postgres"));
    let database = Cluster::shared(&cluster.0)?.fresh_database("bench_fan_out")?;
    let servers = (0..SERVERS)
        .map(|index| {
            let data = format!("fan-out-serve-data-{index}");
            start_serve(project, &["--database", &database], &[("VSTAGE_WEBHOOK_SECRET", SECRET)], &data)
        })
        .collect::<anyhow::Result<Vec<_>>>()?;

    println!("    opening {total} live-event streams over {SERVERS} servers");
    let (sender, arrivals) = mpsc::channel();
    for (server, serve) in servers.iter().enumerate() {
        for stream in 0..STREAMS_PER_SERVER {
            // open_stream returns once the 200 head is in, and the server subscribes the stream before it.
            let connection = open_stream(serve.addr()).context("opening a live-event stream")?;
            let (stream, sender) = (server * STREAMS_PER_SERVER + stream, sender.clone());
            std::thread::Builder::new()
                .stack_size(READER_STACK)
                .spawn(move || read_events(connection, stream, &sender))
                .context("starting a stream's reader")?;
        }
    }
    // Only the readers send: when every one has ended, receiving says so instead of waiting.
    drop(sender);

    let receiving = servers[0].addr();
    for warm_up in 0..WARM_UP {
        deliver(receiving, &format!("var_warm_up_{warm_up}"), &arrivals, total)?;
    }
    let (mut across, mut local) = (Vec::new(), Vec::new());
    for delivery in 0..DELIVERIES {
        let (posted, arrived) = deliver(receiving, &format!("var_fan_out_{delivery}"), &arrivals, total)?;
        for (stream, at) in arrived.into_iter().enumerate() {
            let delay = at.duration_since(posted).as_secs_f64() * 1000.0;
            if stream < STREAMS_PER_SERVER { local.push(delay) } else { across.push(delay) }
        }
        // Each delivery starts from idle servers, as a lone webhook would.
        std::thread::sleep(Duration::from_millis(10));
    }
    println!(
        "    {DELIVERIES} deliveries: {} arrivals on the other instance, {} on the receiving one",
        across.len(),
        local.len()
    );
    let figure = "event fan-out across instances";
    report.add(format!("{figure}, p50 ({SETUP})"), Measure::millis(quantile(&across, 0.5)), None);
    report.add(format!("{figure}, p95 ({SETUP})"), Measure::millis(quantile(&across, 0.95)), None);
    let figure = "event fan-out on the receiving instance";
    report.add(format!("{figure}, p50 (same setup)"), Measure::millis(quantile(&local, 0.5)), None);
    report.add(format!("{figure}, p95 (same setup)"), Measure::millis(quantile(&local, 0.95)), None);
    drop(servers);
    Ok(())
}

/// One delivery's arrival on one stream (streams `0..STREAMS_PER_SERVER` are on the receiving server).
struct Arrival {
    stream: usize,
    variation: String,
    /// When the read that brought it returned.
    at: Instant,
}

/// Posts one signed `update` delivery about `variation` and waits until every stream has it; returns when the
/// request started and each stream's arrival, by stream.
fn deliver(
    addr: &str,
    variation: &str,
    arrivals: &mpsc::Receiver<Arrival>,
    total: usize,
) -> anyhow::Result<(Instant, Vec<Instant>)> {
    // An `update` rather than a `done`: a `done` would also make the receiving server copy its result images
    // (from an address that does not exist here) meanwhile. Every delivery's bytes differ, so none is a duplicate.
    let timestamp = SystemTime::now().duration_since(UNIX_EPOCH)?.as_millis();
    let body = format!(
        r#"{{"event_type":"update","render_id":"rnd_bench","variation_id":"{variation}","timestamp":{timestamp}}}"#
    );
    let request = signed_delivery(addr, &body, SECRET)?;
    // Connected before the clock starts: the delay is the server's, not the handshake's.
    let mut connection = TcpStream::connect(addr)?;
    let posted = Instant::now();
    connection.write_all(request.as_bytes())?;
    let mut response = String::new();
    connection.read_to_string(&mut response)?;
    if !response.starts_with("HTTP/1.1 200") {
        bail!("the webhook delivery was refused: {}", response.lines().next().unwrap_or_default());
    }

    let mut arrived: Vec<Option<Instant>> = vec![None; total];
    let mut missing = total;
    let deadline = posted + ARRIVAL_TIMEOUT;
    while missing > 0 {
        match arrivals.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(Arrival { stream, variation: of, at }) if of == variation && arrived[stream].is_none() => {
                arrived[stream] = Some(at);
                missing -= 1;
            }
            Ok(_) => {}
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let across = arrived[STREAMS_PER_SERVER..].iter().filter(|at| at.is_none()).count();
                bail!(
                    "{missing} of {total} streams ({across} of them on the other server) did not receive \
                     delivery {variation} within {} s",
                    ARRIVAL_TIMEOUT.as_secs()
                );
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => bail!("every live-event stream has closed"),
        }
    }
    Ok((posted, arrived.into_iter().flatten().collect()))
}

/// The HTTP request of a service webhook `body` to the server at `addr`, signed with `secret` as the service signs
/// (`X-SERVICE-Signature`, hex HMAC-SHA256), on a connection closed after it.
pub(super) fn signed_delivery(addr: &str, body: &str, secret: &str) -> anyhow::Result<String> {
    let mut mac = <hmac::Hmac<sha2::Sha256> as KeyInit>::new_from_slice(secret.as_bytes())?;
    mac.update(body.as_bytes());
    let signature = hex::encode(mac.finalize().into_bytes());
    Ok(format!(
        "POST /api/webhooks/service HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         X-SERVICE-Signature: {signature}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    ))
}

/// A stream's reader: sends the variation id of each event it receives, with the time its read returned, until
/// the stream ends or nobody receives. Events whose id is not above the last one are repeats, and skipped.
fn read_events(mut connection: TcpStream, stream: usize, sender: &mpsc::Sender<Arrival>) {
    let mut pending = String::new();
    let mut buffer = vec![0u8; 4096];
    let mut last_id = i64::MIN;
    loop {
        let read = match connection.read(&mut buffer) {
            Ok(0) | Err(_) => return,
            Ok(read) => read,
        };
        let at = Instant::now();
        pending.push_str(&String::from_utf8_lossy(&buffer[..read]));
        // An event ends with a blank line; a keep-alive comment (`: keep-alive`) has neither id nor data.
        while let Some(end) = pending.find("\n\n") {
            let event: String = pending.drain(..end + 2).collect();
            let field = |name: &str| event.lines().find_map(|line| line.strip_prefix(name)).map(str::trim);
            let Some(id) = field("id:").and_then(|id| id.parse::<i64>().ok()) else { continue };
            if id <= last_id {
                continue;
            }
            last_id = id;
            let data: Option<serde_json::Value> = field("data:").and_then(|data| serde_json::from_str(data).ok());
            let Some(variation) = data.as_ref().and_then(|data| data["variation_id"].as_str()) else { continue };
            let message = Arrival { stream, variation: variation.to_string(), at };
            if sender.send(message).is_err() {
                return;
            }
        }
    }
}

/// Stops and removes the bench's PostgreSQL cluster when the group ends, however it ends.
pub(super) struct DiscardCluster(pub(super) PathBuf);

impl Drop for DiscardCluster {
    fn drop(&mut self) {
        if let Err(error) = Cluster::discard(&self.0) {
            eprintln!("    the bench's PostgreSQL cluster in {} was not removed: {error:#}", self.0.display());
        }
    }
}
