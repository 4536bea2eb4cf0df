//! The proxy's figures: `GET /v2/renders/{id}` of one sandbox measured directly, through `vstage serve` and through
//! nginx set up as a reverse proxy adding the same header (throughput, latency, each proxy's own CPU time per
//! request, and its instructions per call); then 1,000 live-event streams held by one server.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use super::Report;
use super::instructions::Counted;
use super::report::{Measure, quantile};
use super::sandbox_http::{self, KEY};
use super::wrk;
use crate::project::Project;
use crate::setup::NGINX;
use crate::vstage_process::VstageProcess;

const SSE_CLIENTS: usize = 1000;
/// A process's resident memory moves by several percent from run to run (what the allocator keeps, threads).
pub(super) const MEMORY_NOISE: f64 = 0.10;
/// Rounds of the three (direct, then the two proxies, nginx first in one round and vstage serve in the next), so
/// that a drift of the shared machine favours none, nor does following the heavier direct run; each figure is the
/// median of its rounds, and the two proxies are also compared within each round (run back to back, they share the
/// machine's state of the moment). This machine's speed drifts by tens of percent over a minute: many short rounds
/// compare the two proxies under the same drift more often than a few long ones.
const ROUNDS: usize = 16;
/// How long each wrk run of a round lasts.
const RUN: &str = "4s";

pub fn measure(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    let bench = project.target().join("bench");
    let sandbox = sandbox_http::start_sandbox(project, "proxy-sandbox-data")?;
    let id = sandbox_http::create_render(&sandbox)?;
    let serve = start_serve(project, &["--upstream", &sandbox.url], &[("VSTAGE_API_KEY", KEY)], "proxy-serve-data")?;
    let nginx = Nginx::start(&bench.join("nginx"), sandbox.addr())?;

    let path = format!("/v2/renders/{id}");
    let proxied = format!("/api{path}");
    let key = [format!("Authorization: Api-Key {KEY}")];
    wrk::warm_up(project, sandbox.addr(), &path, &key)?;
    wrk::warm_up(project, &nginx.addr, &proxied, &[])?;
    wrk::warm_up(project, serve.addr(), &proxied, &[])?;
    let (mut direct, mut through_nginx, mut through_vstage) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        direct.push(wrk::run(project, RUN, sandbox.addr(), &path, &key, None)?);
        for turn in 0..2 {
            if (round + turn) % 2 == 0 {
                through_nginx.push(ProxyRun::measure(project, &nginx.addr, &proxied, &nginx.pids()?)?);
            } else {
                through_vstage.push(ProxyRun::measure(project, serve.addr(), &proxied, &[serve.pid()])?);
            }
        }
    }
    let (direct, direct_spread) = (wrk::Figures::median(&direct), wrk::Figures::spread(&direct));
    let nginx_runs = ProxyRun::median(&through_nginx);
    let vstage_runs = ProxyRun::median(&through_vstage);
    let (nginx_figures, vstage_figures) = (nginx_runs.figures, vstage_runs.figures);
    // The references' figures: their moves are shown, never called worse.
    direct.add_to(report, "direct to the sandbox: GET /v2/renders/{id}", None, Some(&direct_spread));
    nginx_figures.add_to(report, "through nginx: GET /api/v2/renders/{id}", None, Some(&nginx_runs.spread));
    report.last_rows(6).iter_mut().for_each(|row| {
        row.neither_better();
    });
    let vstage_name = "through vstage serve (reference: nginx)";
    vstage_figures.add_to(report, vstage_name, Some(&nginx_figures), Some(&vstage_runs.spread));
    report
        .add(
            "proxy's own CPU time per request, vstage serve (reference: nginx)",
            Measure::micros(vstage_runs.cpu),
            Some(Measure::micros(nginx_runs.cpu)),
        )
        .noise(vstage_runs.cpu_spread);
    let ratios = RoundRatios::of(&through_vstage, &through_nginx);
    let round_ratio = "requests/s through vstage serve over through nginx, within a round";
    let ratio_spread = (ratios.upper_quartile - ratios.lower_quartile) / ratios.median;
    report
        .add(format!("{round_ratio}: median of {ROUNDS}"), Measure::count(ratios.median), None)
        .higher_is_better()
        .noise(ratio_spread);
    report
        .add(format!("{round_ratio}: lower quartile"), Measure::count(ratios.lower_quartile), None)
        .higher_is_better()
        .noise(ratio_spread);
    report
        .add(format!("{round_ratio}: upper quartile"), Measure::count(ratios.upper_quartile), None)
        .higher_is_better()
        .noise(ratio_spread);
    report
        .add(
            format!("rounds where vstage serve answered more requests/s than nginx, of {ROUNDS}"),
            Measure::count(ratios.ahead),
            None,
        )
        .neither_better();
    report
        .add("vstage serve: p50 added over direct", Measure::millis(vstage_figures.p50_ms - direct.p50_ms), None)
        .noise(vstage_runs.spread.p50_ms * vstage_figures.p50_ms / (vstage_figures.p50_ms - direct.p50_ms).max(1e-9));
    report
        .add("nginx: p50 added over direct", Measure::millis(nginx_figures.p50_ms - direct.p50_ms), None)
        .neither_better();
    drop((nginx, serve));

    let (vstage_count, nginx_count) = count_instructions(project, &bench, sandbox.addr(), &proxied)?;
    report.add(
        "instructions per proxied call (callgrind, one worker), vstage serve (reference: nginx)",
        Measure::count(vstage_count),
        Some(Measure::count(nginx_count)),
    );
    drop(sandbox);

    live_streams(project, report)
}

/// Instructions per call of `vstage serve` and of nginx (see `instructions`), each with one worker.
fn count_instructions(project: &Project, bench: &Path, sandbox: &str, path: &str) -> anyhow::Result<(f64, f64)> {
    let data = bench.join("counted-serve-data");
    let _ = std::fs::remove_dir_all(&data);
    let dist = bench.join("no-widget");
    let addr = free_addr()?;
    let upstream = format!("http://{sandbox}");
    let args: Vec<OsString> =
        ["serve", "--listen", &addr, "--workers", "1", "--rate-limit", "0", "--upstream", &upstream]
            .iter()
            .map(OsString::from)
            .chain(["--data-dir".into(), data.into(), "--dist".into(), dist.into()])
            .chain(["--skip-check".into(), "widget".into()])
            .collect();
    let binary = sandbox_http::release_binary(project)?;
    let vstage = Counted::start(
        "vstage serve",
        &bench.join("counted-serve"),
        &addr,
        &binary,
        &args,
        &[("VSTAGE_API_KEY", KEY)],
    )?
    .instructions_per_call(project, path)?;

    let dir = bench.join("counted-nginx");
    let _ = std::fs::remove_dir_all(&dir);
    let addr = free_addr()?;
    let config = nginx_config(&dir, sandbox, &addr, "worker_processes 1;\nmaster_process off;")?;
    let args: Vec<OsString> = vec!["-p".into(), dir.clone().into(), "-c".into(), config.into()];
    let nginx =
        Counted::start("nginx", &dir, &addr, Path::new(NGINX), &args, &[])?.instructions_per_call(project, path)?;
    Ok((vstage, nginx))
}

/// One wrk run through a proxy, with the CPU time its processes spent meanwhile.
struct ProxyRun {
    figures: wrk::Figures,
    cpu_micros_per_request: f64,
}

impl ProxyRun {
    fn measure(project: &Project, addr: &str, path: &str, pids: &[u32]) -> anyhow::Result<Self> {
        let before = cpu_nanos(pids)?;
        let figures = wrk::run(project, RUN, addr, path, &[], None)?;
        let spent = cpu_nanos(pids)?.saturating_sub(before);
        Ok(ProxyRun { figures, cpu_micros_per_request: spent as f64 / 1000.0 / figures.requests.max(1.0) })
    }

    /// The median figures of the runs and their median CPU time per request, with their spreads.
    fn median(runs: &[ProxyRun]) -> ProxyFigures {
        let figures: Vec<wrk::Figures> = runs.iter().map(|run| run.figures).collect();
        let cpu: Vec<f64> = runs.iter().map(|run| run.cpu_micros_per_request).collect();
        ProxyFigures {
            figures: wrk::Figures::median(&figures),
            spread: wrk::Figures::spread(&figures),
            cpu: quantile(&cpu, 0.5),
            cpu_spread: wrk::relative_spread(&cpu),
        }
    }
}

/// A proxy's figures over its runs: each the median, with its spread (`wrk::relative_spread`).
struct ProxyFigures {
    figures: wrk::Figures,
    spread: wrk::Figures,
    cpu: f64,
    cpu_spread: f64,
}

/// How the two proxies compare round by round: the spread of the ratios of their requests/s.
#[derive(Debug)]
struct RoundRatios {
    median: f64,
    lower_quartile: f64,
    upper_quartile: f64,
    /// Rounds where vstage serve's ratio is above 1.
    ahead: f64,
}

impl RoundRatios {
    fn of(vstage: &[ProxyRun], nginx: &[ProxyRun]) -> Self {
        let ratios: Vec<f64> = vstage
            .iter()
            .zip(nginx)
            .map(|(vstage, nginx)| vstage.figures.requests_per_second / nginx.figures.requests_per_second)
            .collect();
        RoundRatios {
            median: quantile(&ratios, 0.5),
            lower_quartile: quantile(&ratios, 0.25),
            upper_quartile: quantile(&ratios, 0.75),
            ahead: ratios.iter().filter(|ratio| **ratio > 1.0).count() as f64,
        }
    }
}

/// CPU time (user and system) spent so far by every thread of these processes, in nanoseconds.
fn cpu_nanos(pids: &[u32]) -> anyhow::Result<u64> {
    let mut total = 0;
    for pid in pids {
        for task in std::fs::read_dir(format!("/proc/{pid}/task"))? {
            // Threads that ended since the listing have no figures left to read.
            let Ok(schedstat) = std::fs::read_to_string(task?.path().join("schedstat")) else { continue };
            let on_cpu = schedstat.split_whitespace().next().and_then(|nanos| nanos.parse::<u64>().ok());
            total += on_cpu.context("a /proc schedstat line")?;
        }
    }
    Ok(total)
}

pub(super) fn start_serve(
    project: &Project,
    args: &[&str],
    envs: &[(&str, &str)],
    data: &str,
) -> anyhow::Result<VstageProcess> {
    let data = project.target().join("bench").join(data);
    let _ = std::fs::remove_dir_all(&data);
    let dist = project.target().join("bench").join("no-widget");
    std::fs::create_dir_all(&dist)?;
    let mut all: Vec<String> = [
        "--skip-check",
        "widget",
        "--rate-limit",
        "0",
        "--max-event-streams",
        "100000",
        "--max-connections-per-address",
        "0",
        "--data-dir",
    ]
    .iter()
    .map(|a| a.to_string())
    .collect();
    all.push(data.display().to_string());
    all.push("--dist".into());
    all.push(dist.display().to_string());
    all.extend(args.iter().map(|a| a.to_string()));
    VstageProcess::start(project, &sandbox_http::release_binary(project)?, "serve", &all, envs)
}

/// 1,000 `GET /api/events` streams on one `vstage serve` (embedded sandbox): its memory before and with them,
/// and how long until every stream has the `done` event of one render.
fn live_streams(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    println!("    opening {SSE_CLIENTS} live-event streams");
    // The allocator returns freed memory at once, so resident memory is what is in use (by default it waits,
    // and what start-up freed would still count as idle memory).
    let serve = start_serve(project, &[], &[("MIMALLOC_PURGE_DELAY", "0")], "sse-serve-data")?;
    std::thread::sleep(Duration::from_millis(500));
    let idle = resident_kib(serve.pid())?;
    let mut streams = Vec::with_capacity(SSE_CLIENTS);
    for _ in 0..SSE_CLIENTS {
        streams.push(open_stream(serve.addr()).context("opening a live-event stream")?);
    }
    std::thread::sleep(Duration::from_millis(500));
    let held = resident_kib(serve.pid())?;
    let started = Instant::now();
    wrk::post_json(serve.addr(), "/api/v2/renders", "unused", &sandbox_http::render_body())?;
    for stream in &mut streams {
        wait_for(stream, "event: done")?;
    }
    let all_received = started.elapsed();
    report.add("vstage serve memory, idle", Measure::bytes(idle * 1024), None).noise(MEMORY_NOISE);
    report
        .add(format!("vstage serve memory, {SSE_CLIENTS} event streams open"), Measure::bytes(held * 1024), None)
        .noise(MEMORY_NOISE);
    report
        .add(
            format!("memory per event stream ({SSE_CLIENTS} streams)"),
            Measure::bytes(held.saturating_sub(idle) * 1024 / SSE_CLIENTS as u64),
            None,
        )
        .noise(MEMORY_NOISE);
    report.add(
        format!("render created to `done` on all {SSE_CLIENTS} streams (includes processing)"),
        Measure::millis(all_received.as_secs_f64() * 1000.0),
        None,
    );
    Ok(())
}

pub(super) fn open_stream(addr: &str) -> anyhow::Result<TcpStream> {
    let mut stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(60)))?;
    write!(stream, "GET /api/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n")?;
    let head = wait_for(&mut stream, "\r\n\r\n")?;
    if !head.starts_with("HTTP/1.1 200") {
        bail!("the server refused a stream: {}", head.lines().next().unwrap_or_default());
    }
    Ok(stream)
}

/// Reads until `marker` has arrived; returns what was read.
fn wait_for(stream: &mut TcpStream, marker: &str) -> anyhow::Result<String> {
    let mut seen = Vec::new();
    let mut buffer = [0u8; 4096];
    while !String::from_utf8_lossy(&seen).contains(marker) {
        let read = stream.read(&mut buffer).with_context(|| format!("waiting for {marker:?}"))?;
        if read == 0 {
            bail!("the stream closed before {marker:?}");
        }
        seen.extend_from_slice(&buffer[..read]);
    }
    Ok(String::from_utf8_lossy(&seen).into_owned())
}

/// Resident memory of a process, in KiB.
fn resident_kib(pid: u32) -> anyhow::Result<u64> {
    memory_kib(pid, "VmRSS")
}

/// A memory figure of `/proc/PID/status` (`VmRSS`, or `VmHWM`: the most resident so far), in KiB.
pub fn memory_kib(pid: u32, field: &str) -> anyhow::Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let line = status.lines().find(|l| l.starts_with(&format!("{field}:"))).context("the figure in /proc status")?;
    line.split_whitespace().nth(1).and_then(|kib| kib.parse().ok()).with_context(|| format!("a {field} figure"))
}

/// nginx as a child process: a reverse proxy of `/api/` to the sandbox that adds the key, with keep-alive
/// connections upstream (as one would configure it for production).
struct Nginx {
    addr: String,
    process: Child,
}

impl Nginx {
    fn start(dir: &Path, sandbox: &str) -> anyhow::Result<Self> {
        let _ = std::fs::remove_dir_all(dir);
        let addr = free_addr()?;
        let config = nginx_config(dir, sandbox, &addr, "worker_processes 2;")?;
        let process = Command::new(NGINX)
            .arg("-p")
            .arg(dir)
            .arg("-c")
            .arg(&config)
            .stderr(Stdio::inherit())
            .spawn()
            .with_context(|| format!("cannot start {NGINX}"))?;
        if !wrk::accepts_within(&addr, Duration::from_secs(10)) {
            bail!("nginx did not start; see {}/error.log", dir.display());
        }
        println!("    nginx at http://{addr}");
        Ok(Nginx { addr, process })
    }
}

/// nginx's configuration in `dir` (written there, its path returned): `/api/` on `addr` proxied to `sandbox` with
/// the key added and kept-alive connections upstream (as one would configure it for production); `processes`
/// says how many workers and whether a master runs.
fn nginx_config(dir: &Path, sandbox: &str, addr: &str, processes: &str) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(dir.join("temp"))?;
    let d = dir.display();
    let config = format!(
        "{processes}\ndaemon off;\npid {d}/nginx.pid;\nerror_log {d}/error.log warn;\n\
         events {{ worker_connections 4096; }}\n\
         http {{\n  access_log off;\n  client_body_temp_path {d}/temp/body;\n  proxy_temp_path {d}/temp/proxy;\n\
           fastcgi_temp_path {d}/temp/fastcgi;\n  uwsgi_temp_path {d}/temp/uwsgi;\n  scgi_temp_path {d}/temp/scgi;\n\
           upstream sandbox {{ server {sandbox}; keepalive 64; }}\n\
           server {{\n    listen {addr};\n    location /api/ {{\n      proxy_pass http://sandbox/;\n\
             proxy_http_version 1.1;\n      proxy_set_header Connection \"\";\n\
             proxy_set_header Authorization \"Api-Key {KEY}\";\n    }}\n  }}\n}}\n"
    );
    let path = dir.join("nginx.conf");
    std::fs::write(&path, config)?;
    Ok(path)
}

/// A loopback address with a port nothing listens on, out of the way of the connections' own ports.
pub(super) fn free_addr() -> anyhow::Result<String> {
    Ok(format!("127.0.0.1:{}", vstage_postgres_cluster::unused_loopback_port()))
}

impl Nginx {
    /// The master and its workers.
    fn pids(&self) -> anyhow::Result<Vec<u32>> {
        let master = self.process.id();
        let children = std::fs::read_to_string(format!("/proc/{master}/task/{master}/children"))?;
        let mut pids = vec![master];
        pids.extend(children.split_whitespace().filter_map(|pid| pid.parse::<u32>().ok()));
        Ok(pids)
    }
}

impl Drop for Nginx {
    /// Stops the master with SIGTERM, on which it stops its workers before it exits (killed outright, it left
    /// them running, their master gone, for as long as the machine was up); killed only if it is still there
    /// after 10 s.
    fn drop(&mut self) {
        use nix::sys::signal::{Signal, kill};
        let master = nix::unistd::Pid::from_raw(self.process.id() as i32);
        if kill(master, Signal::SIGTERM).is_ok() {
            let deadline = Instant::now() + Duration::from_secs(10);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = self.process.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::{ProxyRun, RoundRatios};
    use crate::bench::wrk::Figures;

    fn runs(requests_per_second: &[f64]) -> Vec<ProxyRun> {
        let run = |requests_per_second| ProxyRun {
            figures: Figures { requests_per_second, p50_ms: 1.0, p99_ms: 2.0, requests: 1.0 },
            cpu_micros_per_request: 1.0,
        };
        requests_per_second.iter().copied().map(run).collect()
    }

    #[test]
    fn rounds_are_compared_pair_by_pair() {
        // Ratios 0.5, 0.9, 1.0, 1.2, 2.0: the machine's drift moves both proxies of a round together.
        let vstage = runs(&[100.0, 1000.0, 50.0, 600.0, 1800.0]);
        let nginx = runs(&[200.0, 500.0, 50.0, 500.0, 2000.0]);
        let ratios = RoundRatios::of(&vstage, &nginx);
        assert_eq!(ratios.ahead, 2.0);
        assert!((ratios.median - 1.0).abs() < 1e-9, "{ratios:?}");
        assert!((ratios.lower_quartile - 0.9).abs() < 1e-9, "{ratios:?}");
        assert!((ratios.upper_quartile - 1.2).abs() < 1e-9, "{ratios:?}");
    }
}
