//! Load with wrk (2 threads, 32 connections) and its figures: requests per second, p50 and p99 latency.
//! Shared by the benchmarks of the sandbox and of the proxy.

use std::io::{Read, Write};
use std::net::TcpStream;

use anyhow::{Context, bail};

use super::Report;
use super::report::{Measure, quantile};
use crate::project::{self, Project};

#[derive(Debug, Clone, Copy)]
pub struct Figures {
    pub requests_per_second: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    /// Requests completed in the whole run.
    pub requests: f64,
}

impl Figures {
    /// The median of each figure over several runs (at least one).
    pub fn median(runs: &[Figures]) -> Figures {
        let median = |figure: fn(&Figures) -> f64| quantile(&runs.iter().map(figure).collect::<Vec<_>>(), 0.5);
        Figures {
            requests_per_second: median(|f| f.requests_per_second),
            p50_ms: median(|f| f.p50_ms),
            p99_ms: median(|f| f.p99_ms),
            requests: median(|f| f.requests),
        }
    }

    /// The spread of each figure over several runs (at least one): its interquartile range relative to its
    /// median, the noise of a figure taken as the median of these runs.
    pub fn spread(runs: &[Figures]) -> Figures {
        let spread = |figure: fn(&Figures) -> f64| relative_spread(&runs.iter().map(figure).collect::<Vec<_>>());
        Figures {
            requests_per_second: spread(|f| f.requests_per_second),
            p50_ms: spread(|f| f.p50_ms),
            p99_ms: spread(|f| f.p99_ms),
            requests: spread(|f| f.requests),
        }
    }

    /// Three rows: requests/s, p50, p99; each against `reference` when given, with its noise from `spread` when
    /// given (`spread`).
    pub fn add_to(&self, report: &mut Report, name: &str, reference: Option<&Figures>, spread: Option<&Figures>) {
        let rows: [(&str, Measure, Option<Measure>, Option<f64>); 3] = [
            (
                "requests/s",
                Measure::per_second(self.requests_per_second),
                reference.map(|r| Measure::per_second(r.requests_per_second)),
                spread.map(|s| s.requests_per_second),
            ),
            (
                "p50",
                Measure::millis(self.p50_ms),
                reference.map(|r| Measure::millis(r.p50_ms)),
                spread.map(|s| s.p50_ms),
            ),
            (
                "p99",
                Measure::millis(self.p99_ms),
                reference.map(|r| Measure::millis(r.p99_ms)),
                spread.map(|s| s.p99_ms),
            ),
        ];
        for (figure, value, reference, noise) in rows {
            let row = report.add(format!("{name}, {figure}"), value, reference);
            if let Some(noise) = noise {
                row.noise(noise);
            }
        }
    }
}

/// The interquartile range of `values` relative to their median (0 when the median is 0); `values` must not be
/// empty.
pub fn relative_spread(values: &[f64]) -> f64 {
    let median = quantile(values, 0.5);
    if median == 0.0 {
        return 0.0;
    }
    ((quantile(values, 0.75) - quantile(values, 0.25)) / median).abs()
}

/// Runs wrk for `duration` (`10s`) on `http://{addr}{path}` with extra `headers` and an optional Lua `script`.
pub fn run(
    project: &Project,
    duration: &str,
    addr: &str,
    path: &str,
    headers: &[String],
    script: Option<&std::path::Path>,
) -> anyhow::Result<Figures> {
    let mut command = wrk(project, duration, headers);
    command.arg("--latency");
    if let Some(script) = script {
        command.arg("-s").arg(script);
    }
    command.arg(format!("http://{addr}{path}"));
    let (status, output) = project::status_and_output(&format!("wrk {addr}{path}"), &mut command)?;
    if !status.success() {
        bail!("wrk failed on {path}");
    }
    if output.contains("Non-2xx") {
        bail!("the server answered errors during the run of {path}; see above");
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
        requests: requests(&output)?,
    })
}

/// The calls completed by a light load (one thread, 4 connections) on `http://{addr}{path}` for `duration`: for a
/// server slowed down by instrumentation, where only the count matters.
pub fn count_calls(project: &Project, addr: &str, path: &str, duration: &str) -> anyhow::Result<f64> {
    let mut command = project.command("wrk");
    command.args(["-t1", "-c4", &format!("-d{duration}"), &format!("http://{addr}{path}")]);
    let (status, output) = project::status_and_output(&format!("wrk (light) {addr}{path}"), &mut command)?;
    if !status.success() || output.contains("Non-2xx") {
        bail!("wrk failed on {path}, or the server answered errors; see above");
    }
    requests(&output)
}

/// wrk's `N requests in ...`.
fn requests(output: &str) -> anyhow::Result<f64> {
    output
        .lines()
        .find_map(|line| line.trim().split_once(" requests in ")?.0.parse().ok())
        .context("no `N requests in` in wrk's output")
}

/// A short run whose figures are not kept: the server's connections, pools and caches are warm afterwards.
pub fn warm_up(project: &Project, addr: &str, path: &str, headers: &[String]) -> anyhow::Result<()> {
    let mut command = wrk(project, "2s", headers);
    command.arg(format!("http://{addr}{path}"));
    let (status, _) = project::status_and_output(&format!("warming up {addr}{path}"), &mut command)?;
    if !status.success() {
        bail!("wrk failed on {path}");
    }
    Ok(())
}

/// wrk with the bench's load (2 threads, 32 connections) for `duration` and `headers`; the URL comes last.
fn wrk(project: &Project, duration: &str, headers: &[String]) -> std::process::Command {
    let mut command = project.command("wrk");
    command.args(["-t2", "-c32", &format!("-d{duration}")]);
    for header in headers {
        command.arg("-H").arg(header);
    }
    command
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

/// Whether a server accepts connections on `addr` within `within` (it may still be starting).
pub fn accepts_within(addr: &str, within: std::time::Duration) -> bool {
    let deadline = std::time::Instant::now() + within;
    while TcpStream::connect(addr).is_err() {
        if std::time::Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    true
}

/// One JSON POST over a plain connection with `key` (the benches need a render to read).
pub fn post_json(addr: &str, path: &str, key: &str, body: &str) -> anyhow::Result<serde_json::Value> {
    let mut stream = TcpStream::connect(addr)?;
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Api-Key {key}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
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
    use super::{Figures, parse_duration_or_number};

    #[test]
    fn medians_are_taken_figure_by_figure() {
        let run = |requests_per_second, p50_ms| Figures { requests_per_second, p50_ms, p99_ms: 1.0, requests: 10.0 };
        let median = Figures::median(&[run(3.0, 0.1), run(1.0, 0.3), run(2.0, 0.2)]);
        assert_eq!((median.requests_per_second, median.p50_ms), (2.0, 0.2));
    }

    #[test]
    fn spreads_are_interquartile_ranges_relative_to_the_median() {
        let run = |requests_per_second| Figures { requests_per_second, p50_ms: 1.0, p99_ms: 0.0, requests: 10.0 };
        let spread = Figures::spread(&[run(100.0), run(80.0), run(120.0), run(90.0), run(110.0)]);
        assert!((spread.requests_per_second - 0.2).abs() < 1e-12, "{spread:?}");
        assert_eq!((spread.p50_ms, spread.p99_ms), (0.0, 0.0), "no spread, and none of a median of 0");
    }

    #[test]
    fn wrk_values_are_read_in_milliseconds() {
        assert_eq!(parse_duration_or_number("850.00us"), Some(0.85));
        assert_eq!(parse_duration_or_number("1.50ms"), Some(1.5));
        assert_eq!(parse_duration_or_number("2.00s"), Some(2000.0));
        assert_eq!(parse_duration_or_number("12345.67"), Some(12345.67));
        assert_eq!(parse_duration_or_number("fast"), None);
    }
}
