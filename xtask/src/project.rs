//! Where things are (the workspace root, cargo's target directory, installed tools) and how child commands are started.
//! Every command runs from the workspace root with the project's tools first on PATH.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::Instant;

use anyhow::{Context, bail};

pub struct Project {
    pub root: PathBuf,
    /// Cargo's target directory, wherever `CARGO_TARGET_DIR` or `build.target-dir` put it.
    target: PathBuf,
    /// One GNU make jobserver for every cargo started here (cargo takes its jobs from one it finds in its
    /// environment, and hands it to rustc and to the cargo Trunk starts), so that builds side by side share the
    /// cores: a fresh `cargo xtask test` on 2 cores took 2,577 s of processor time with each build running its own
    /// two jobs beside the others, 2,194 s with them sharing this one. It holds one token fewer than the machine
    /// has cores: each build runs one job without a token, as make's rule is, so a build alone runs as many jobs
    /// as there are cores, and k builds side by side at most k - 1 more.
    jobs: jobserver::Client,
}

impl Project {
    pub fn locate() -> anyhow::Result<Self> {
        let manifest_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let root = manifest_dir.parent().context("xtask lives one folder below the workspace root")?.to_path_buf();
        let target = target_directory(&root)?;
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let jobs = jobserver::Client::new(cores.saturating_sub(1).max(1)).context("creating a jobserver for cargo")?;
        Ok(Project { root, target, jobs })
    }

    pub fn target(&self) -> PathBuf {
        self.target.clone()
    }

    /// Tools installed for this project only (wasm-opt from npm).
    pub fn tools_dir(&self) -> PathBuf {
        self.target().join("tools")
    }

    pub fn dist(&self) -> PathBuf {
        self.root.join("dist")
    }

    /// `cargo install`'s destination.
    pub fn cargo_bin(&self) -> PathBuf {
        let cargo_home = std::env::var_os("CARGO_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")))
            .unwrap_or_else(|| PathBuf::from(".cargo"));
        cargo_home.join("bin")
    }

    pub fn wasm_opt_bin_dir(&self) -> PathBuf {
        self.tools_dir().join("binaryen").join("node_modules").join(".bin")
    }

    /// PATH with the project's tools first, so the build uses exactly the versions setup installed.
    pub fn path_env(&self) -> OsString {
        let mut paths = vec![self.wasm_opt_bin_dir(), self.cargo_bin()];
        if let Some(existing) = std::env::var_os("PATH") {
            paths.extend(std::env::split_paths(&existing));
        }
        std::env::join_paths(paths).unwrap_or_default()
    }

    /// A command started from the workspace root with the project's PATH, without the variables `cargo run` set
    /// for xtask's own package.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut command = Command::new(program);
        command.current_dir(&self.root).env("PATH", self.path_env());
        for (name, _) in std::env::vars_os() {
            if name.to_str().is_some_and(is_package_variable) {
                command.env_remove(name);
            }
        }
        command
    }

    /// trunk as `cargo xtask setup` installed it, never asking the network whether a newer one exists.
    pub fn trunk(&self) -> Command {
        let mut trunk = self.command("trunk");
        trunk.env("TRUNK_SKIP_VERSION_CHECK", "true");
        self.jobs.configure(&mut trunk);
        trunk
    }

    /// Cargo, sharing the project's jobserver.
    pub fn cargo(&self) -> Command {
        let mut cargo = self.command(cargo_program());
        self.jobs.configure(&mut cargo);
        cargo
    }

    /// [`Self::cargo`] at a lower priority (`nice`), for a build that should only take what a more urgent one
    /// beside it leaves of the cores.
    fn yielding_cargo(&self) -> Command {
        let mut nice = self.command("nice");
        nice.args(["-n", "10"]).arg(cargo_program());
        self.jobs.configure(&mut nice);
        nice
    }
}

fn cargo_program() -> std::ffi::OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// Cargo with clippy's driver compiling our own crates, warnings denied: what `cargo clippy` does, in the builds
/// the tests need instead of a check-only build of its own. The dependencies are then compiled once rather than
/// checked and then compiled (about 4 minutes on a bare 2-core machine). Changing `CLIPPY_ARGS` or the driver
/// recompiles only our crates.
pub struct LintingCargo<'a> {
    pub project: &'a Project,
    driver: PathBuf,
}

impl<'a> LintingCargo<'a> {
    pub fn locate(project: &'a Project) -> anyhow::Result<Self> {
        let sysroot = output_line(project.command("rustc").args(["--print", "sysroot"]))
            .context("`rustc --print sysroot` failed; is Rust installed with rustup (https://rustup.rs)?")?;
        let driver = PathBuf::from(sysroot).join("bin").join("clippy-driver");
        if !driver.is_file() {
            bail!("{} is missing; add clippy with `rustup component add clippy`", driver.display());
        }
        Ok(LintingCargo { project, driver })
    }

    pub fn command(&self) -> Command {
        let mut cargo = self.project.cargo();
        self.lint(&mut cargo);
        cargo
    }

    /// [`Self::command`] at a lower priority (`nice`), for a build that should only take what a more urgent one
    /// beside it leaves of the cores.
    pub fn yielding_command(&self) -> Command {
        let mut nice = self.project.yielding_cargo();
        self.lint(&mut nice);
        nice
    }

    fn lint(&self, command: &mut Command) {
        // cargo-clippy's own way of handing clippy its arguments, separator included
        command
            .env("RUSTC_WORKSPACE_WRAPPER", &self.driver)
            .env("CLIPPY_ARGS", "-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__");
    }
}

/// Whether `name` is one of the variables cargo sets for a package it runs (`CARGO_PKG_NAME`,
/// `CARGO_MANIFEST_DIR`, ...). Passed on, they would be the environment of the builds started here, and build scripts
/// that ask to be rerun when one changes (ring's, through cc) would have a build started here and one started from
/// a shell (or by `trunk serve`) compile the same dependencies again, each after the other.
fn is_package_variable(name: &str) -> bool {
    ["CARGO_PKG_", "CARGO_MANIFEST_", "CARGO_CRATE_", "CARGO_BIN_", "CARGO_PRIMARY_PACKAGE", "OUT_DIR"]
        .iter()
        .any(|prefix| name.starts_with(prefix))
}

/// Asks cargo where it puts what it builds, which honours `CARGO_TARGET_DIR` and `build.target-dir`.
fn target_directory(root: &Path) -> anyhow::Result<PathBuf> {
    #[derive(serde::Deserialize)]
    struct Metadata {
        target_directory: PathBuf,
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(root)
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .stderr(Stdio::inherit())
        .output()
        .context("could not run cargo metadata to find the target directory")?;
    if !output.status.success() {
        bail!("cargo metadata failed ({}); it is how xtask finds the target directory", output.status);
    }
    let metadata: Metadata =
        serde_json::from_slice(&output.stdout).context("cargo metadata printed no target_directory")?;
    Ok(metadata.target_directory)
}

/// Runs a command to completion, with its output going to the terminal; fails when it fails.
pub fn run(what: &str, command: &mut Command) -> anyhow::Result<()> {
    let status = status(what, command)?;
    if !status.success() {
        bail!("{what} failed ({status})");
    }
    Ok(())
}

/// [`run`] for a command that goes on beside other work: its output goes to `log`, and a failure quotes the log's
/// end.
pub fn run_into_log(what: &str, command: &mut Command, log: &Path) -> anyhow::Result<()> {
    println!("==> {what}: beside the other steps; its output goes to {}", log.display());
    let started = Instant::now();
    let file = std::fs::File::create(log).with_context(|| format!("creating {}", log.display()))?;
    let status = command
        .stdout(file.try_clone()?)
        .stderr(file)
        .status()
        .with_context(|| format!("could not start {what} ({})", describe(command)))?;
    if !status.success() {
        let output = std::fs::read_to_string(log).unwrap_or_default();
        let lines: Vec<&str> = output.lines().collect();
        let end = lines[lines.len().saturating_sub(40)..].join("\n");
        bail!("{what} failed ({status}); the end of {}:\n{end}", log.display());
    }
    println!("    {what}: ok in {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// Runs a command and reports how it ended, whatever that was.
pub fn status(what: &str, command: &mut Command) -> anyhow::Result<ExitStatus> {
    println!("==> {what}");
    let started = Instant::now();
    let status = command.status().with_context(|| format!("could not start {what} ({})", describe(command)))?;
    println!(
        "    {what}: {} in {:.1} s",
        if status.success() { "ok" } else { "FAILED" },
        started.elapsed().as_secs_f64()
    );
    Ok(status)
}

/// Runs a command whose standard output is both shown and kept (to read test counts from it).
pub fn status_and_output(what: &str, command: &mut Command) -> anyhow::Result<(ExitStatus, String)> {
    use std::io::{BufRead, BufReader, Write};
    println!("==> {what}");
    let started = Instant::now();
    let mut child = command
        .stdout(Stdio::piped())
        .spawn()
        .with_context(|| format!("could not start {what} ({})", describe(command)))?;
    let mut kept = String::new();
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout).lines() {
            let line = line.unwrap_or_default();
            println!("{line}");
            kept.push_str(&line);
            kept.push('\n');
        }
    }
    std::io::stdout().flush().ok();
    let status = child.wait()?;
    println!(
        "    {what}: {} in {:.1} s",
        if status.success() { "ok" } else { "FAILED" },
        started.elapsed().as_secs_f64()
    );
    Ok((status, kept))
}

/// The first line of a command's output, or `None` when it cannot run.
pub fn output_line(command: &mut Command) -> Option<String> {
    let output = command.stderr(Stdio::null()).output().ok()?;
    if !output.status.success() {
        return None;
    }
    String::from_utf8(output.stdout).ok()?.lines().next().map(|line| line.trim().to_string())
}

fn describe(command: &Command) -> String {
    let mut text = command.get_program().to_string_lossy().into_owned();
    for arg in command.get_args() {
        text.push(' ');
        text.push_str(&arg.to_string_lossy());
    }
    text
}

pub fn is_root() -> bool {
    output_line(Command::new("id").arg("-u")).as_deref() == Some("0")
}
