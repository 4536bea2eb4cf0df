//! `cargo xtask test`: set-up, then fmt, clippy (native and wasm32), native tests (nextest), the widget's
//! wasm-bindgen tests in headless Chromium and the browser end-to-end tests; one closing `N passed, N failed`.

use anyhow::Context;

use crate::project::{self, Project};
use crate::run::build_widget;
use crate::setup::{self, CHROMEDRIVER, CHROMIUM, Purpose};
use crate::tally::{self, Counts};

/// How one step ended. Lints are not tests: they add to `failed` only when they fail.
struct Step {
    name: &'static str,
    ok: bool,
    counts: Counts,
}

pub fn run(project: &Project) -> anyhow::Result<()> {
    setup::ensure(project, Purpose::Test)?;
    let mut steps = vec![
        lint("cargo fmt --check", project.cargo().args(["fmt", "--all", "--check"])),
        lint(
            "clippy (native)",
            project.cargo().args(["clippy", "--locked", "--workspace", "--all-targets", "--", "-D", "warnings"]),
        ),
        lint(
            "clippy (wasm32)",
            project.cargo().args([
                "clippy",
                "--locked",
                "--target",
                "wasm32-unknown-unknown",
                "-p",
                "vstage",
                "-p",
                "vstage-api",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ]),
        ),
        nextest(project, "native tests", "native"),
        wasm_tests(project),
    ];
    steps.push(match build_widget(project) {
        Ok(()) => nextest(project, "browser end-to-end tests", "e2e"),
        Err(error) => {
            eprintln!("{error:#}");
            Step {
                name: "browser end-to-end tests (widget build failed)",
                ok: false,
                counts: Counts { passed: 0, failed: 1 },
            }
        }
    });

    let mut total = Counts::default();
    println!("\n==> summary");
    for step in &steps {
        let counts = if step.ok || step.counts.failed > 0 {
            step.counts
        } else {
            Counts { passed: step.counts.passed, failed: 1 }
        };
        println!(
            "    {:<34} {:<6} {} passed, {} failed",
            step.name,
            if step.ok { "ok" } else { "FAILED" },
            counts.passed,
            counts.failed
        );
        total += counts;
    }
    println!("{} passed, {} failed", total.passed, total.failed);
    if total.failed > 0 || steps.iter().any(|step| !step.ok) {
        std::process::exit(1);
    }
    Ok(())
}

fn lint(name: &'static str, command: &mut std::process::Command) -> Step {
    let ok = project::status(name, command).is_ok_and(|status| status.success());
    Step { name, ok, counts: Counts::default() }
}

/// A nextest profile of `.config/nextest.toml`; its JUnit report gives the counts.
fn nextest(project: &Project, name: &'static str, profile: &str) -> Step {
    let junit = project.target().join("nextest").join(profile).join("junit.xml");
    let _ = std::fs::remove_file(&junit);
    let ok = project::status(
        name,
        project
            .cargo()
            .args(["nextest", "run", "--locked", "--workspace", "--no-fail-fast", "--profile", profile])
            .env("CHROMIUM", CHROMIUM)
            .env("CHROMEDRIVER", CHROMEDRIVER),
    )
    .is_ok_and(|status| status.success());
    let counts = tally::from_junit(&junit).unwrap_or_else(|error| {
        eprintln!("    {name}: {error:#}");
        Counts::default()
    });
    Step { name, ok, counts }
}

/// The widget's `#[wasm_bindgen_test]`s, run by wasm-bindgen-test-runner in headless Chromium (webdriver.json),
/// with a sandbox running for the client's tests (`tests/api_client.rs`).
fn wasm_tests(project: &Project) -> Step {
    let name = "widget tests (headless Chromium)";
    let sandbox = match TestSandbox::start(project) {
        Ok(sandbox) => sandbox,
        Err(error) => {
            eprintln!("{error:#}");
            return Step { name, ok: false, counts: Counts::default() };
        }
    };
    let result = project::status_and_output(
        name,
        project
            .cargo()
            .args(["test", "--locked", "-p", "vstage", "--target", "wasm32-unknown-unknown", "--no-fail-fast"])
            .env("CHROMEDRIVER", CHROMEDRIVER)
            .env("VSTAGE_TEST_SANDBOX", &sandbox.url),
    );
    drop(sandbox);
    match result {
        Ok((status, output)) => Step { name, ok: status.success(), counts: tally::from_libtest(&output) },
        Err(error) => {
            eprintln!("{error:#}");
            Step { name, ok: false, counts: Counts::default() }
        }
    }
}

/// `vstage sandbox` on a free loopback port with the accounts `wasm-client-1` to `wasm-client-8`, stopped on drop.
struct TestSandbox {
    url: String,
    process: std::process::Child,
}

impl TestSandbox {
    fn start(project: &Project) -> anyhow::Result<Self> {
        use std::io::{BufRead, BufReader};
        project::run(
            "building the sandbox for the widget tests",
            project.cargo().args(["build", "--locked", "-p", "vstage-server"]),
        )?;
        let mut command = project.command(project.target().join("debug").join("vstage"));
        command.args(["sandbox", "--listen", "127.0.0.1:0", "--processing-ms", "50"]);
        for account in 1..=8 {
            command.arg("--api-key").arg(format!("wasm-client-{account}"));
        }
        let mut process = command.stdout(std::process::Stdio::piped()).spawn()?;
        let stdout = process.stdout.take().context("the sandbox's output")?;
        let mut first_line = String::new();
        BufReader::new(stdout).read_line(&mut first_line)?;
        let url = first_line
            .strip_prefix("vstage listening on ")
            .and_then(|rest| rest.split_whitespace().next())
            .with_context(|| format!("the sandbox did not start: {first_line:?}"))?
            .to_string();
        println!("    sandbox for the widget tests at {url}");
        Ok(TestSandbox { url, process })
    }
}

impl Drop for TestSandbox {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}
