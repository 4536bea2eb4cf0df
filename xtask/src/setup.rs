//! `cargo xtask setup`: installs each tool that is missing or at the wrong version, and skips the rest.
//! Every step says what it does; one that cannot be done says what to install by hand.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, bail};
use serde::Deserialize;
use vstage_postgres_cluster::Cluster;

use crate::project::{self, Project, output_line};

pub const SCHEMATHESIS_VERSION: &str = "4.32.5";
/// moto's S3-compatible server, which the kept-results tests store into.
pub const MOTO_VERSION: &str = "5.2.5";
pub const STANDARD_WEBHOOKS_VERSION: &str = "1.1.0";
/// PyJWT, which the tests mint standard widget tokens with as a Python backend would.
pub const PYJWT_VERSION: &str = "2.10.1";
pub const BINARYEN_VERSION: &str = "132";
/// Trunk.toml's `trunk-version`.
pub const TRUNK_VERSION: &str = "0.21.14";
/// esbuild, which minifies the release build's JavaScript (wasm-bindgen's glue, wasm-split's loader).
pub const ESBUILD_VERSION: &str = "0.28.2";
/// axe-core, the accessibility checker the browser tests run on every screen.
pub const AXE_CORE_VERSION: &str = "4.14.1";
pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// What the tools are needed for: running the studio needs the build tools; tests also need a browser and
/// PostgreSQL; the benchmarks need PostgreSQL too, and wrk, nginx, valgrind and ImageMagick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Build,
    Test,
    Bench,
}

pub fn ensure(project: &Project, purpose: Purpose) -> anyhow::Result<()> {
    let purpose_name = match purpose {
        Purpose::Build => "build",
        Purpose::Test => "build and test",
        Purpose::Bench => "build and benchmarks",
    };
    println!("==> setup: checking the tools ({purpose_name})");
    let started = std::time::Instant::now();
    wasm_target(project)?;
    let wasm_bindgen = wasm_bindgen_version(project)?;
    // The two tools built from source keep the cores busy for minutes; the downloads (npm, Debian, PyPI) mostly
    // wait on the network, so they go on meanwhile.
    std::thread::scope(|scope| {
        let built = scope.spawn(|| wasm_bindgen_cli(project, &wasm_bindgen).and_then(|()| trunk(project)));
        let downloaded = downloads(project, purpose);
        let built = built.join().unwrap_or_else(|_| Err(anyhow::anyhow!("installing the Rust tools panicked")));
        downloaded.and(built)
    })?;
    println!("    setup: ready in {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// The tools that come ready-made: wasm-opt and esbuild, and for tests or benchmarks the browser, databases and
/// checkers.
fn downloads(project: &Project, purpose: Purpose) -> anyhow::Result<()> {
    wasm_opt(project)?;
    esbuild(project)?;
    if purpose == Purpose::Test {
        chromium()?;
        postgres()?;
        nginx()?;
        python_tool(project, &PythonTool::SCHEMATHESIS)?;
        python_tool(project, &PythonTool::MOTO)?;
        python_tool(project, &PythonTool::STANDARD_WEBHOOKS)?;
        python_tool(project, &PythonTool::PYJWT)?;
        axe_core(project)?;
        host_kit(project)?;
        exiftool()?;
    }
    if purpose == Purpose::Bench {
        chromium()?;
        postgres()?;
        wrk()?;
        nginx()?;
        valgrind()?;
        imagemagick()?;
    }
    Ok(())
}

/// The wasm32 target, checked once a run: `test` and `run` need it before their builds start, beside the set-up
/// that checks it too.
pub fn wasm_target(project: &Project) -> anyhow::Result<()> {
    static PRESENT: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    if PRESENT.get().is_some() {
        return Ok(());
    }
    add_wasm_target(project)?;
    let _ = PRESENT.set(());
    Ok(())
}

fn add_wasm_target(project: &Project) -> anyhow::Result<()> {
    let installed = project
        .command("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .context("rustup is needed to add the wasm32 target; install Rust with rustup (https://rustup.rs)")?;
    if String::from_utf8_lossy(&installed.stdout).lines().any(|line| line.trim() == "wasm32-unknown-unknown") {
        println!("    wasm32-unknown-unknown target: present");
        return Ok(());
    }
    project::run(
        "adding the wasm32-unknown-unknown target (rustup)",
        project.command("rustup").args(["target", "add", "wasm32-unknown-unknown"]),
    )
    .context("add it by hand: rustup target add wasm32-unknown-unknown")
}

/// wasm-bindgen and its test runner, at Cargo.lock's version. A debug build without debug info, except the crates
/// that read, rewrite and write the modules (opt-level 2): on 2 cores it installs in 100 s with 192 s of CPU and
/// binds a 22 MB test module in 1.5 s; a plain debug build takes 106 s of CPU but 4.0 s there, which the widget
/// tests and every save in `cargo xtask dev` would pay (opt-level 1: 178 s, 1.85 s). Without its default TLS: the
/// test runner only talks plain HTTP to chromedriver on loopback.
fn wasm_bindgen_cli(project: &Project, version: &str) -> anyhow::Result<()> {
    // Without --locked: the CLI's own lock file asks for crate releases the registry here lacks.
    let optimised: Vec<String> = ["walrus", "wasmparser", "wasm-encoder", "wasm-bindgen-cli-support"]
        .iter()
        .map(|package| format!("profile.dev.package.{package}.opt-level=2"))
        .collect();
    let mut install = vec!["install", "--debug", "wasm-bindgen-cli", "--version", version, "--no-default-features"];
    for config in &optimised {
        install.extend(["--config", config]);
    }
    let envs = [("CARGO_PROFILE_DEV_DEBUG", "false")];
    cargo_tool(project, "wasm-bindgen", version, &install, &envs, "the version in Cargo.lock; about 1.5 minutes")
}

/// Trunk, which builds and serves the widget (Trunk.toml); 0.22 needs a newer rustc. Without its default features:
/// no `update_check`, so it never asks crates.io for a newer release, and no TLS, since it downloads nothing
/// (`offline`) and its dev server and proxy speak plain HTTP on loopback. A debug build without debug info: it
/// installs in 3 min 8 s on 2 cores instead of about 8 min (5 min 27 s even without LTO at opt-level 1), and
/// what it does itself (copying, hashing, serving) is not what a build waits on.
fn trunk(project: &Project) -> anyhow::Result<()> {
    let install = ["install", "--locked", "--debug", "trunk", "--version", TRUNK_VERSION, "--no-default-features"];
    cargo_tool(project, "trunk", TRUNK_VERSION, &install, &[("CARGO_PROFILE_DEV_DEBUG", "false")], "about 3 minutes")
}

/// A tool installed with `cargo install`, present when `<binary> --version` prints `<binary> <version>`.
fn cargo_tool(
    project: &Project,
    binary: &str,
    version: &str,
    install: &[&str],
    envs: &[(&str, &str)],
    note: &str,
) -> anyhow::Result<()> {
    let wanted = format!("{binary} {version}");
    if output_line(project.command(binary).arg("--version")).as_deref() == Some(wanted.as_str()) {
        println!("    {wanted}: present");
        return Ok(());
    }
    let by_hand = format!("install it by hand: cargo {}", install.join(" "));
    let log = project.target().join(format!("setup-{binary}.log"));
    project::run_into_log(
        &format!("installing {wanted} (cargo install; {note})"),
        project.cargo().args(install).envs(envs.iter().copied()),
        &log,
    )
    .context(by_hand)
}

fn wasm_opt(project: &Project) -> anyhow::Result<()> {
    let wasm_opt = project.wasm_opt_bin_dir().join("wasm-opt");
    let present = output_line(Command::new(&wasm_opt).arg("--version"));
    if present.as_deref().is_some_and(|line| line.contains(&format!("version_{BINARYEN_VERSION}"))) {
        println!("    wasm-opt (binaryen {BINARYEN_VERSION}): present");
        return Ok(());
    }
    npm_install(project, "binaryen", &format!("binaryen@{BINARYEN_VERSION}.0.0"), "wasm-opt")
}

/// esbuild's command (npm's package runs the binary of its platform's package, installed beside it).
pub fn esbuild_bin(project: &Project) -> std::path::PathBuf {
    project.tools_dir().join("esbuild").join("node_modules").join(".bin").join("esbuild")
}

fn esbuild(project: &Project) -> anyhow::Result<()> {
    if output_line(Command::new(esbuild_bin(project)).arg("--version")).as_deref() == Some(ESBUILD_VERSION) {
        println!("    esbuild {ESBUILD_VERSION}: present");
        return Ok(());
    }
    npm_install(project, "esbuild", &format!("esbuild@{ESBUILD_VERSION}"), "esbuild")
}

/// The script of axe-core, which the browser tests inject into each screen.
pub fn axe_script(project: &Project) -> std::path::PathBuf {
    project.tools_dir().join("axe").join("node_modules").join("axe-core").join("axe.min.js")
}

fn axe_core(project: &Project) -> anyhow::Result<()> {
    let manifest = project.tools_dir().join("axe").join("node_modules").join("axe-core").join("package.json");
    let installed = std::fs::read_to_string(&manifest).unwrap_or_default();
    if installed.contains(&format!("\"version\": \"{AXE_CORE_VERSION}\"")) && axe_script(project).is_file() {
        println!("    axe-core {AXE_CORE_VERSION}: present");
        return Ok(());
    }
    npm_install(project, "axe", &format!("axe-core@{AXE_CORE_VERSION}"), "axe-core")
}

/// The kit's npm packages (kit/package-lock.json: TypeScript, React, Vue), which its tests type-check and bundle,
/// in kit/node_modules; installed again when the lock file is newer than npm's record of what it installed.
fn host_kit(project: &Project) -> anyhow::Result<()> {
    let kit = project.root.join("kit");
    let modified = |path: &std::path::Path| std::fs::metadata(path).and_then(|meta| meta.modified()).ok();
    let installed = modified(&kit.join("node_modules").join(".package-lock.json"));
    if installed.is_some() && installed >= modified(&kit.join("package-lock.json")) {
        println!("    the kit's npm packages: present");
        return Ok(());
    }
    ensure_npm("the kit's packages")?;
    project::run(
        "installing the kit's npm packages (kit/package-lock.json) in kit/node_modules",
        project.command("npm").args(["ci", "--no-audit", "--no-fund"]).current_dir(&kit),
    )
    .with_context(|| format!("install them by hand: (cd {} && npm ci)", kit.display()))
}

/// Node.js and npm, from Debian when missing; `what` says what they are for.
fn ensure_npm(what: &str) -> anyhow::Result<()> {
    if output_line(Command::new("npm").arg("--version")).is_none() {
        apt_install(&["nodejs", "npm"], &format!("Node.js and npm (to install {what} from npm)"))?;
    }
    Ok(())
}

/// `npm install spec` under target/tools/`folder` (npm itself from Debian when missing); `what` names the tool.
fn npm_install(project: &Project, folder: &str, spec: &str, what: &str) -> anyhow::Result<()> {
    ensure_npm(what)?;
    let prefix = project.tools_dir().join(folder);
    std::fs::create_dir_all(&prefix)?;
    project::run(
        &format!("installing {what} (npm package {spec}) under target/tools"),
        project.command("npm").args(["install", "--no-audit", "--no-fund", "--prefix"]).arg(&prefix).arg(spec),
    )
    .with_context(|| format!("install it by hand: npm install --prefix {} {spec}", prefix.display()))
}

fn chromium() -> anyhow::Result<()> {
    let browser = output_line(Command::new(CHROMIUM).arg("--version"));
    let driver = output_line(Command::new(CHROMEDRIVER).arg("--version"));
    if let (Some(browser), Some(driver)) = (&browser, &driver) {
        if major_version(browser) != major_version(driver) {
            bail!(
                "{browser} and {driver} differ in major version; install matching Debian packages chromium and chromium-driver"
            );
        }
        println!("    {} with {}: present", short(browser), short(driver));
        return Ok(());
    }
    apt_install(&["chromium", "chromium-driver"], "Chromium and chromedriver (for the browser tests)")
}

/// "Chromium 156.0.8078.79 built on Debian..." -> "Chromium 156.0.8078.79".
fn short(version_line: &str) -> String {
    version_line.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

/// A tool from PyPI, in a virtual environment of its own under target/tools.
pub struct PythonTool {
    /// The venv's folder name, and what the steps call it.
    pub name: &'static str,
    /// What pip installs (`package[extras]`), at `version`.
    pub package: &'static str,
    pub version: &'static str,
    /// The command the tests run, in the venv's `bin`.
    pub binary: &'static str,
}

impl PythonTool {
    pub const SCHEMATHESIS: PythonTool = PythonTool {
        name: "schemathesis",
        package: "schemathesis",
        version: SCHEMATHESIS_VERSION,
        binary: "schemathesis",
    };
    pub const MOTO: PythonTool =
        PythonTool { name: "moto", package: "moto[server]", version: MOTO_VERSION, binary: "moto_server" };
    /// The Standard Webhooks reference library, which the tests verify the host's webhooks with.
    pub const STANDARD_WEBHOOKS: PythonTool = PythonTool {
        name: "standardwebhooks",
        package: "standardwebhooks",
        version: STANDARD_WEBHOOKS_VERSION,
        binary: "python",
    };

    /// PyJWT, the JWT library of Python backends, which the tests mint widget tokens with.
    pub const PYJWT: PythonTool =
        PythonTool { name: "pyjwt", package: "PyJWT", version: PYJWT_VERSION, binary: "python" };

    pub fn binary_in(&self, project: &Project) -> std::path::PathBuf {
        project.tools_dir().join(self.name).join("bin").join(self.binary)
    }
}

fn python_tool(project: &Project, tool: &PythonTool) -> anyhow::Result<()> {
    let venv = project.tools_dir().join(tool.name);
    let version = tool.version;
    // pip says which version the venv holds (moto_server has no --version).
    let distribution = tool.package.split('[').next().unwrap_or(tool.package);
    let shown = Command::new(venv.join("bin").join("pip")).args(["show", distribution]).output().ok();
    let installed = shown.is_some_and(|shown| {
        String::from_utf8_lossy(&shown.stdout).lines().any(|line| line.trim() == format!("Version: {version}"))
    });
    if installed && tool.binary_in(project).is_file() {
        println!("    {} {version}: present", tool.name);
        return Ok(());
    }
    if output_line(Command::new("python3").args(["-m", "venv", "--help"])).is_none() {
        apt_install(&["python3", "python3-venv"], &format!("Python 3 with venv (for {})", tool.name))?;
    }
    let spec = format!("{}=={version}", tool.package);
    let by_hand = format!("install it by hand: python3 -m venv {0} && {0}/bin/pip install '{spec}'", venv.display());
    project::run(
        &format!("creating a Python environment for {}", tool.name),
        Command::new("python3").args(["-m", "venv"]).arg(&venv),
    )
    .context(by_hand.clone())?;
    project::run(
        &format!("installing {} {version} (pip)", tool.name),
        Command::new(venv.join("bin").join("pip")).args(["install", "--quiet", &spec]),
    )
    .context(by_hand)
}

/// PostgreSQL's server binaries (Debian's, or `$VSTAGE_POSTGRES_BIN`), from which the tests make a private cluster
/// under the target folder; never the system's own service.
fn postgres() -> anyhow::Result<()> {
    if let Ok(bin) = Cluster::binaries() {
        println!("    PostgreSQL ({}): present", bin.display());
        return Ok(());
    }
    apt_install(&["postgresql"], "PostgreSQL (for the server's storage tests)")?;
    Cluster::binaries().map(drop).context("the postgresql package is installed, yet its binaries are not found")
}

fn wrk() -> anyhow::Result<()> {
    if Command::new("wrk").arg("--version").output().is_ok() {
        println!("    wrk: present");
        return Ok(());
    }
    apt_install(&["wrk"], "wrk (the HTTP load generator of the benchmarks)")
}

/// nginx, the reference reverse proxy of the proxy benchmark (run as a child process, never as a service).
fn nginx() -> anyhow::Result<()> {
    if Command::new(NGINX).arg("-v").output().is_ok() {
        println!("    nginx: present");
        return Ok(());
    }
    apt_install(&["nginx"], "nginx (the two-server tests' load balancer, the benchmarks' reference proxy)")
}

/// exiftool, the independent reader the tests check kept copies' provenance metadata with.
fn exiftool() -> anyhow::Result<()> {
    if let Some(version) = output_line(Command::new("exiftool").arg("-ver")) {
        println!("    exiftool {version}: present");
        return Ok(());
    }
    apt_install(&["libimage-exiftool-perl"], "exiftool (reads back the provenance metadata in the tests)")
}

/// Valgrind, whose callgrind counts the proxies' instructions per call.
fn valgrind() -> anyhow::Result<()> {
    if Command::new("valgrind").arg("--version").output().is_ok() {
        println!("    valgrind: present");
        return Ok(());
    }
    apt_install(&["valgrind"], "valgrind (counts the proxies' instructions in the benchmarks)")
}

/// ImageMagick, the reference of the imaging benchmark: Debian's `convert` (the benchmark calls it by its path), which
/// must say it is ImageMagick; a machine may have a stand-in of that name.
fn imagemagick() -> anyhow::Result<()> {
    let is_imagemagick = || {
        output_line(Command::new("/usr/bin/convert").arg("-version")).is_some_and(|line| line.contains("ImageMagick"))
    };
    if is_imagemagick() {
        println!("    ImageMagick: present");
        return Ok(());
    }
    apt_install(&["imagemagick"], "ImageMagick (the reference of the imaging benchmarks)")?;
    if !is_imagemagick() {
        bail!("/usr/bin/convert is not ImageMagick after installing Debian's imagemagick; put ImageMagick's there");
    }
    Ok(())
}

/// Where Debian puts nginx (outside a normal user's PATH).
pub const NGINX: &str = "/usr/sbin/nginx";

fn major_version(version_line: &str) -> Option<&str> {
    version_line
        .split_whitespace()
        .find(|word| word.chars().next().is_some_and(|c| c.is_ascii_digit()))?
        .split('.')
        .next()
}

/// Installs Debian packages, which needs root; otherwise says what to run.
fn apt_install(packages: &[&str], what: &str) -> anyhow::Result<()> {
    let by_hand =
        format!("install {what} by hand: sudo apt-get update && sudo apt-get install -y {}", packages.join(" "));
    if !project::is_root() || output_line(Command::new("apt-get").arg("--version")).is_none() {
        bail!("{what} missing and this user cannot install Debian packages; {by_hand}");
    }
    let quiet = |command: &mut Command| {
        command.env("DEBIAN_FRONTEND", "noninteractive");
    };
    let mut update = Command::new("apt-get");
    quiet(&mut update);
    project::run("apt-get update", update.args(["-q", "update"])).context(by_hand.clone())?;
    let mut install = Command::new("apt-get");
    quiet(&mut install);
    project::run(
        &format!("installing {what} (apt-get)"),
        install.args(["-q", "install", "-y", "--no-install-recommends"]).args(packages),
    )
    .context(by_hand)
}

/// The wasm-bindgen version in Cargo.lock: the CLI must match it exactly.
pub fn wasm_bindgen_version(project: &Project) -> anyhow::Result<String> {
    #[derive(Deserialize)]
    struct Lock {
        package: Vec<Package>,
    }
    #[derive(Deserialize)]
    struct Package {
        name: String,
        version: String,
    }
    let lock: Lock = read_toml(&project.root.join("Cargo.lock"))?;
    lock.package
        .into_iter()
        .find(|package| package.name == "wasm-bindgen")
        .map(|package| package.version)
        .context("Cargo.lock has no wasm-bindgen package; run `cargo generate-lockfile`")
}

fn read_toml<T: serde::de::DeserializeOwned>(path: &Path) -> anyhow::Result<T> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    toml::from_str(&text).with_context(|| format!("cannot parse {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Trunk finds its tools on PATH by version, and offline a mismatch is an error: Trunk.toml must name what
    /// setup installs.
    #[test]
    fn trunk_toml_names_the_tools_setup_installs() {
        #[derive(Deserialize)]
        struct TrunkToml {
            #[serde(rename = "trunk-version")]
            trunk_version: String,
            tools: Tools,
        }
        #[derive(Deserialize)]
        struct Tools {
            wasm_bindgen: String,
            wasm_opt: String,
        }
        let project = Project::locate().unwrap();
        let trunk: TrunkToml = read_toml(&project.root.join("Trunk.toml")).unwrap();
        assert_eq!(trunk.trunk_version, format!("={TRUNK_VERSION}"));
        assert_eq!(trunk.tools.wasm_bindgen, wasm_bindgen_version(&project).unwrap());
        assert_eq!(trunk.tools.wasm_opt, format!("version_{BINARYEN_VERSION}"));
    }
}
