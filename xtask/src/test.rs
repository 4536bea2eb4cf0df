//! `cargo xtask test`: set-up beside fmt and the builds the tests need, with clippy linting our crates as they
//! compile (native and wasm32); then the sandbox's contract tests (schemathesis), the native tests (nextest) and
//! the widget's wasm-bindgen tests in headless Chromium, while the release widget builds beside them; then the
//! browser end-to-end tests on that widget. One closing `N passed, N failed`.

use std::path::PathBuf;
use std::time::Instant;

use vstage_postgres_cluster::Cluster;

use crate::project::{self, LintingCargo, Project};
use crate::setup::{self, CHROMEDRIVER, CHROMIUM, Purpose, PythonTool};
use crate::tally::{self, Counts};
use crate::vstage_process::VstageProcess;
use crate::{figures, server, widget};

/// How one step ended and how long it took. Lints and builds are not tests: they add to `failed` only when they
/// fail.
struct Step {
    name: &'static str,
    ok: bool,
    counts: Counts,
    seconds: f64,
}

impl Step {
    fn new(name: &'static str, ok: bool, counts: Counts) -> Self {
        Step { name, ok, counts, seconds: 0.0 }
    }
}

/// Runs one step and keeps its duration for the closing summary.
fn timed(step: impl FnOnce() -> Step) -> Step {
    let started = Instant::now();
    let mut step = step();
    step.seconds = started.elapsed().as_secs_f64();
    step
}

pub fn run(project: &Project) -> anyhow::Result<()> {
    let started = Instant::now();
    let mut steps = Vec::new();
    let cargo = match LintingCargo::locate(project).and_then(|cargo| setup::wasm_target(project).map(|()| cargo)) {
        Ok(cargo) => cargo,
        Err(error) => {
            eprintln!("{error:#}");
            steps.push(Step::new("clippy", false, Counts::default()));
            return summarise(project, &steps, started);
        }
    };
    // The builds need none of the tools, and the tools' installs none of the builds: on a bare machine they go on
    // side by side, each filling the stretches where the other keeps one core busy (a long crate, a link), and
    // sharing the cores through the project's jobserver.
    std::thread::scope(|scope| {
        let setup = scope.spawn(|| timed(|| setup_step(project)));
        steps.push(timed(|| lint("cargo fmt --check", project.cargo().args(["fmt", "--all", "--check"]))));
        for (name, packages) in
            [("clippy and build (server crates)", SERVER_CRATES), ("clippy and build (mask, xtask)", OTHER_NATIVE)]
        {
            steps.push(timed(|| lint(name, cargo.command().args(["test", "--locked"]).args(packages).args(BUILD_ALL))));
        }
        steps.push(timed(|| lint("clippy and build (wasm32)", cargo.command().args(WASM_PACKAGES).args(BUILD_ALL))));
        steps.insert(0, setup.join().unwrap_or_else(|_| Step::new(SETUP_STEP, false, Counts::default())));
    });
    if !steps[0].ok {
        return summarise(project, &steps, started);
    }
    // The release widget is built while the tests below run: they wait on servers and browsers much of the time,
    // leaving a core idle, and only the end-to-end tests need it. Its cargo build has a target folder of its own
    // (`wasm-release`), so neither waits for the other's lock. The contract tests go first: they wait on the
    // sandbox and leave a core or more to the widget's dependencies; its last crates compile one at a time, beside
    // the native tests, which take whatever is left. The other way round, a core stood idle for a minute of a fresh
    // run on 2 cores.
    std::thread::scope(|scope| {
        let widget = scope.spawn(|| timed(|| build_widget_aside(project)));
        steps.push(timed(|| contract_tests(&cargo)));
        steps.push(timed(|| nextest(&cargo, "native tests (server crates)", "native", SERVER_CRATES)));
        steps.push(timed(|| without_content_credentials(&cargo)));
        steps.push(timed(|| nextest(&cargo, "native tests (mask, xtask)", "native", OTHER_NATIVE)));
        steps.push(timed(|| wasm_tests(&cargo)));
        let widget = widget.join().unwrap_or_else(|_| Step::new(WIDGET_STEP, false, Counts::default()));
        let widget_built = widget.ok;
        steps.push(widget);
        if widget_built {
            steps.push(timed(|| nextest(&cargo, "browser end-to-end tests", "e2e", SERVER_CRATES)));
        }
    });
    discard_cluster(project);
    summarise(project, &steps, started)
}

/// One suite of `cargo xtask test`, run alone with `cargo xtask test SUITE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Suite {
    /// The server's unit tests and its handlers called in-process (`crates/server/src`, `testing/`).
    App,
    /// The server started as a process (`crates/server/tests/serve/`): start-up, signals, several servers, the CLI.
    Serve,
    /// The sandbox's own tests and the public clients replayed against it.
    Sandbox,
    /// Every native test of the server's crates (`app`, `serve`, `sandbox`, the wire's).
    Native,
    /// The widget's and the mask model's tests in headless Chromium.
    Widget,
    /// The release widget built, then the end-to-end tests in Chromium.
    Browser,
    /// schemathesis against the sandbox.
    Contract,
}

/// `cargo xtask test SUITE`: the set-up, then that suite alone, with the same closing lines.
pub fn run_suite(project: &Project, suite: Suite) -> anyhow::Result<()> {
    let started = Instant::now();
    let cargo = LintingCargo::locate(project)?;
    let mut steps = vec![timed(|| setup_step(project))];
    if steps[0].ok {
        let native = |name, selection: &[&str]| timed(|| nextest(&cargo, name, "native", selection));
        match suite {
            Suite::App => {
                steps.push(native("the server's own tests", &[SERVER_ALONE, &["--lib"]].concat()));
                steps.push(timed(|| without_content_credentials(&cargo)));
            }
            Suite::Serve => {
                steps.push(native("the server as a process", &[SERVER_ALONE, &["--test", "serve"]].concat()))
            }
            Suite::Sandbox => steps.push(native("the sandbox's tests", &["-p", "vstage-sandbox"])),
            Suite::Native => {
                steps.push(native("native tests (server crates)", SERVER_CRATES));
                steps.push(timed(|| without_content_credentials(&cargo)));
            }
            Suite::Widget => steps.push(timed(|| wasm_tests(&cargo))),
            Suite::Contract => steps.push(timed(|| contract_tests(&cargo))),
            Suite::Browser => {
                steps.push(timed(|| build_widget_aside(project)));
                if steps[1].ok {
                    steps.push(timed(|| nextest(&cargo, "browser end-to-end tests", "e2e", SERVER_CRATES)));
                }
            }
        }
    }
    discard_cluster(project);
    summarise(project, &steps, started)
}

const SETUP_STEP: &str = "setup (tools)";

fn setup_step(project: &Project) -> Step {
    match setup::ensure(project, Purpose::Test) {
        Ok(()) => Step::new(SETUP_STEP, true, Counts::default()),
        Err(error) => {
            eprintln!("{error:#}");
            Step::new(SETUP_STEP, false, Counts::default())
        }
    }
}

/// The server's crates, built and tested natively apart from the rest: with the server's features turned on as
/// its tests turn them on (crates/server/Cargo.toml), this selection resolves each dependency's features as the
/// server built alone does (`cargo xtask run` and `dev`), so that build finds them compiled. Built together with
/// the widget, they would take the features the widget's native build adds (leptos') and be compiled again. With
/// content credentials, as everything that checks or ships builds the server (`server::CONTENT_CREDENTIALS`).
const SERVER_CRATES: &[&str] = &[
    "-p",
    "vstage-api",
    "-p",
    "vstage-imaging",
    "-p",
    "vstage-sandbox",
    "-p",
    "vstage-server",
    "-p",
    "vstage-postgres-cluster",
    "--features",
    server::CONTENT_CREDENTIALS,
];
/// The server's own tests, with content credentials.
const SERVER_ALONE: &[&str] = &["-p", "vstage-server", "--features", server::CONTENT_CREDENTIALS];
/// The rest of the workspace natively: the mask model's tests and xtask's (its tidy checks among them). The
/// widget's unit tests run in the browser with its other tests: built natively for them alone, leptos and all, it
/// took about three minutes of a fresh run on 2 cores.
const OTHER_NATIVE: &[&str] = &["-p", "vstage-mask", "-p", "xtask"];
/// Every target (tests, benches, binaries) compiled for the test profile and not run.
const BUILD_ALL: [&str; 2] = ["--all-targets", "--no-run"];
/// The crates whose tests run in the browser; clippy checks them (and `vstage-api`, which they build on) as
/// wasm32. The same selection as the widget tests', so that those find everything built.
const WASM_PACKAGES: [&str; 8] =
    ["test", "--locked", "--target", "wasm32-unknown-unknown", "-p", "vstage-widget", "-p", "vstage-mask"];
const WIDGET_STEP: &str = "widget build (trunk, release)";

/// `trunk build --release` with its output in a file (it runs beside other steps), shown when it fails.
fn build_widget_aside(project: &Project) -> Step {
    let log = project.target().join("widget-build.log");
    match widget::build_into_log(project, &log) {
        Ok(()) => Step::new(WIDGET_STEP, true, Counts::default()),
        Err(error) => {
            eprintln!("{error:#}");
            Step::new(WIDGET_STEP, false, Counts::default())
        }
    }
}

/// The private PostgreSQL cluster the native and browser tests share (`Cluster::shared`), started by the first
/// test that needs it.
fn postgres_dir(project: &Project) -> PathBuf {
    project.target().join("postgres")
}

/// The tests' cluster outlives them (pg_ctl daemonizes the server) and keeps every database they made: after the
/// run nothing is left running, nor kept on disk.
fn discard_cluster(project: &Project) {
    if let Err(error) = Cluster::discard(&postgres_dir(project)) {
        eprintln!("    could not remove the tests' PostgreSQL cluster: {error:#}");
    }
}

/// The closing summary: a line per step with its counts and time, the wall and CPU time of the whole and this
/// machine's speed (`figures`), then `N passed, N failed`; exits non-zero on any failure.
fn summarise(project: &Project, steps: &[Step], started: Instant) -> anyhow::Result<()> {
    let mut total = Counts::default();
    println!("\n==> summary");
    for step in steps {
        let counts = if step.ok || step.counts.failed > 0 {
            step.counts
        } else {
            Counts { passed: step.counts.passed, failed: 1 }
        };
        println!(
            "    {:<34} {:<6} {:>4} passed, {} failed {:>8}",
            step.name,
            if step.ok { "ok" } else { "FAILED" },
            counts.passed,
            counts.failed,
            minutes(step.seconds)
        );
        total += counts;
    }
    println!("    {:<34} {:>39}", "all steps", minutes(started.elapsed().as_secs_f64()));
    // how to read them, and this machine's own: docs/benchmarks.md ("Build and test times")
    println!("    figures: {}", figures::wall_and_cpu(started));
    match figures::machine_speed(&project.target().join("reference-build")) {
        Ok(speed) => println!("    this machine: {speed}"),
        Err(error) => println!("    this machine: {error:#}"),
    }
    println!("{} passed, {} failed", total.passed, total.failed);
    if total.failed > 0 || steps.iter().any(|step| !step.ok) {
        std::process::exit(1);
    }
    Ok(())
}

/// 754.2 s -> "12m 34s".
fn minutes(seconds: f64) -> String {
    let seconds = seconds.round() as u64;
    format!("{}m {:02}s", seconds / 60, seconds % 60)
}

fn lint(name: &'static str, command: &mut std::process::Command) -> Step {
    let ok = project::status(name, command).is_ok_and(|status| status.success());
    Step::new(name, ok, Counts::default())
}

/// A nextest profile of `.config/nextest.toml` over these packages; its JUnit report gives the counts.
fn nextest(cargo: &LintingCargo, name: &'static str, profile: &str, packages: &[&str]) -> Step {
    let project = cargo.project;
    let junit = project.target().join("nextest").join(profile).join("junit.xml");
    let _ = std::fs::remove_file(&junit);
    let mut nextest = cargo.command();
    nextest
        .args(["nextest", "run", "--locked", "--no-fail-fast", "--profile", profile])
        .args(packages)
        .env("CHROMIUM", CHROMIUM)
        .env("CHROMEDRIVER", CHROMEDRIVER)
        .env("VSTAGE_MOTO_SERVER", PythonTool::MOTO.binary_in(project))
        .env("VSTAGE_STANDARDWEBHOOKS_PYTHON", PythonTool::STANDARD_WEBHOOKS.binary_in(project))
        .env("VSTAGE_AXE", setup::axe_script(project))
        .env("VSTAGE_ESBUILD", setup::esbuild_bin(project))
        .env("VSTAGE_POSTGRES_DIR", postgres_dir(project));
    // setup found them, so the tests need not look again
    if let Ok(bin) = Cluster::binaries() {
        nextest.env("VSTAGE_POSTGRES_BIN", bin);
    }
    let ok = project::status(name, &mut nextest).is_ok_and(|status| status.success());
    let counts = tally::from_junit(&junit).unwrap_or_else(|error| {
        eprintln!("    {name}: {error:#}");
        Counts::default()
    });
    Step::new(name, ok, counts)
}

/// The server as a newcomer's first `cargo xtask run` builds it, without content credentials: its own tests built
/// through clippy (so that build stays clean), and those of them that say what such a build does
/// (`crates/server/src/results/credentials/not_built.rs`) run. Its dependencies are the other builds' own (the
/// server's Cargo.toml turns on what the feature's crates would): only the server's crate compiles again.
fn without_content_credentials(cargo: &LintingCargo) -> Step {
    let selection = ["-p", "vstage-server", "--lib", "-E", "test(/::not_built::/)"];
    nextest(cargo, "server without content credentials", "native", &selection)
}

/// The widget's and the mask model's `#[wasm_bindgen_test]`s, run by wasm-bindgen-test-runner in headless
/// Chromium (webdriver.json), with a sandbox running for the client's tests (`tests/widget/api_client.rs`).
fn wasm_tests(cargo: &LintingCargo) -> Step {
    let name = "widget tests (headless Chromium)";
    let accounts: Vec<String> = (1..=8).map(|n| format!("wasm-client-{n}")).collect();
    let accounts: Vec<&str> = accounts.iter().map(String::as_str).collect();
    let sandbox = match test_sandbox(cargo, &["--processing-ms", "50"], &accounts) {
        Ok(sandbox) => sandbox,
        Err(error) => {
            eprintln!("{error:#}");
            return Step::new(name, false, Counts::default());
        }
    };
    let result = project::status_and_output(
        name,
        cargo
            .command()
            .args(WASM_PACKAGES)
            .arg("--no-fail-fast")
            .env("CHROMEDRIVER", CHROMEDRIVER)
            .env("VSTAGE_TEST_SANDBOX", &sandbox.url),
    );
    drop(sandbox);
    match result {
        Ok((status, output)) => Step::new(name, status.success(), tally::from_libtest(&output)),
        Err(error) => {
            eprintln!("{error:#}");
            Step::new(name, false, Counts::default())
        }
    }
}

/// schemathesis, with all its checks, against the sandbox's `/openapi.json`. Each API operation tested counts as
/// one test; each unique failure as one failed. The stateful phase is left out: it follows inferred links with
/// values of its own making and reports them as lost resources, so its verdicts change from run to run.
fn contract_tests(cargo: &LintingCargo) -> Step {
    let project = cargo.project;
    let name = "contract tests (schemathesis)";
    let run = || -> anyhow::Result<Step> {
        let sandbox =
            test_sandbox(cargo, &["--sync-timeout-s", "5", "--photo-limit", "1000000000"], &["schemathesis"])?;
        let config = project.root.join("crates/sandbox/openapi/schemathesis.toml");
        let (status, output) = project::status_and_output(
            name,
            project
                .command(PythonTool::SCHEMATHESIS.binary_in(project))
                .arg("--config-file")
                .arg(config)
                .args(["run", &format!("{}/openapi.json", sandbox.url), "--checks", "all", "--max-examples", "30"])
                .args(["--phases", "examples,coverage,fuzzing", "--seed", "1", "--no-color"])
                .args(["--max-response-time", "15", "--request-timeout", "30"])
                .args(["-H", "Authorization: Api-Key schemathesis"]),
        )?;
        let tested = output
            .lines()
            .find_map(|line| line.trim().strip_prefix("Tested: "))
            .and_then(|n| n.trim().parse::<u64>().ok())
            .unwrap_or(0);
        let failed = output
            .lines()
            .find_map(|line| line.split(" found ").nth(1))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or(0);
        let counts = if status.success() {
            Counts { passed: tested, failed: 0 }
        } else {
            Counts { passed: 0, failed: failed.max(1) }
        };
        Ok(Step::new(name, status.success() && tested > 0, counts))
    };
    run().unwrap_or_else(|error| {
        eprintln!("{error:#}");
        Step::new(name, false, Counts::default())
    })
}

/// The debug `vstage sandbox` (the native tests' build, so usually nothing to compile) with these options and
/// accounts.
fn test_sandbox(cargo: &LintingCargo, options: &[&str], accounts: &[&str]) -> anyhow::Result<VstageProcess> {
    let project = cargo.project;
    project::run("building the sandbox", cargo.command().args(["build", "--locked", "--tests"]).args(SERVER_CRATES))?;
    let binary = project.target().join("debug").join("vstage");
    let mut args: Vec<String> = options.iter().map(|o| o.to_string()).collect();
    for account in accounts {
        args.extend(["--api-key".to_string(), account.to_string()]);
    }
    VstageProcess::start(project, &binary, "sandbox", &args, &[])
}
