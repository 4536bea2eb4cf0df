//! A private PostgreSQL cluster for tests and benchmarks: made with initdb under a folder (`target/postgres`),
//! started once with pg_ctl and shared by every test process of a run, and removed by `cargo xtask test` at its end.
//!
//! Only the cluster's own binaries are used (`initdb`, `pg_ctl`, `createdb`, `pg_isready`): no client library and
//! no async. Beside the folder live `<dir>.lock`, which one process holds while it makes or starts the cluster, and
//! `<dir>.port`, the port of the running server. PostgreSQL refuses to run as root, so under root the server (and
//! `initdb`, `pg_ctl`) run as `nobody` through util-linux's `setpriv`, and the folder belongs to nobody; where
//! nobody cannot reach the folder (a clone under `/root`, say), they run as nobody in a user namespace of their
//! own (util-linux's `unshare`), whose nobody is the caller outside it.
//!
//! Its port, like every port the tests name to a server before it listens, comes from `unused_loopback_port`.

use std::ffi::OsStr;
use std::fs::File;
use std::net::{Ipv4Addr, TcpListener};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, bail};

/// The cluster's superuser, whom every URL names; authentication is `trust`, so there is no password.
const USER: &str = "vstage";
/// Where Debian puts each PostgreSQL version's binaries: `/usr/lib/postgresql/<version>/bin`.
const DEBIAN_VERSIONS: &str = "/usr/lib/postgresql";
/// Under root, the server runs as this user and group, through `setpriv`.
const SETPRIV: [&str; 4] = ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"];
/// Or, where nobody cannot reach the folder, as nobody in a user namespace that maps it onto the caller.
const UNSHARE: [&str; 4] = ["--user", "--map-user=65534", "--map-group=65534", "--"];

/// Who runs `initdb`, `pg_ctl` and the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ServerUser {
    /// The caller, who is not root.
    Caller,
    /// Under root: `nobody`, who owns the folder.
    Nobody,
    /// Under root, when nobody cannot reach the folder: nobody inside a user namespace, the caller outside it.
    NobodyInNamespace,
}
/// How long `pg_ctl` waits for the server to start or stop.
const PG_CTL_WAIT_SECONDS: &str = "60";
/// How many lines of `server.log` an error of `pg_ctl` quotes.
const LOG_TAIL_LINES: usize = 20;

/// A private PostgreSQL cluster under a folder (e.g. `target/postgres`), shared by every test process of a run.
#[derive(Debug, Clone)]
pub struct Cluster {
    /// The cluster's folder (its data directory), absolute.
    dir: PathBuf,
    /// The loopback port the server listens on (0 until it is known).
    port: u16,
    /// The folder of `initdb`, `pg_ctl`, `createdb` and `pg_isready`.
    bin: PathBuf,
    /// Who runs `initdb`, `pg_ctl` and the server.
    user: ServerUser,
}

impl Cluster {
    /// A new empty database for a test, on the cluster of the test run: the one in `$VSTAGE_POSTGRES_DIR`
    /// (`cargo xtask test` sets it, and removes that cluster at the end), else in this workspace's `target/postgres`.
    pub fn fresh_test_database(prefix: &str) -> anyhow::Result<String> {
        let dir = std::env::var_os("VSTAGE_POSTGRES_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/postgres"));
        Cluster::shared(&dir)?.fresh_database(prefix)
    }

    /// The cluster in `dir`, started if it is not running (made with initdb on first use). Many processes may call
    /// this at once (nextest runs each test in its own process): a file lock (`std::fs::File::lock`, stable Rust)
    /// on `<dir>.lock` makes one of them create/start it and the others reuse it. A cluster left running by an
    /// earlier run (its port file present and `pg_isready` answering) is reused; a stale one (not answering) is
    /// started again with `pg_ctl start`, and a broken folder (no PG_VERSION) is made anew.
    pub fn shared(dir: &Path) -> anyhow::Result<Cluster> {
        let dir = resolve(dir)?;
        let _lock = lock(&dir)?;
        let mut cluster = Cluster::at(dir)?;
        if let Some(port) = cluster.running_port() {
            cluster.port = port;
            return Ok(cluster);
        }
        cluster.start()?;
        Ok(cluster)
    }

    /// Stops this cluster's server for a while, as an outage would, for tests of what depends on it; `resume`
    /// starts it again on the same port.
    pub fn pause(&self) -> anyhow::Result<()> {
        let _lock = lock(&self.dir)?;
        self.pg_ctl_stop()
    }

    /// Starts the server `pause` stopped, on the port it had.
    pub fn resume(&self) -> anyhow::Result<()> {
        let _lock = lock(&self.dir)?;
        self.start_server()
    }

    /// `postgres://vstage@127.0.0.1:PORT/postgres`
    pub fn admin_url(&self) -> String {
        self.url("postgres")
    }

    /// The loopback port the server listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A new empty database with a unique name (prefix, process id, a counter and the time), made with
    /// `createdb`; returns its URL `postgres://vstage@127.0.0.1:PORT/<name>`.
    pub fn fresh_database(&self, prefix: &str) -> anyhow::Result<String> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let micros = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_micros());
        let name = database_name(prefix, std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed), micros);
        let mut createdb = self.client("createdb");
        createdb.arg(&name);
        self.run(&mut createdb, &format!("createdb {name}"))?;
        Ok(self.url(&name))
    }

    /// Stops the cluster in `dir` if one runs there (`pg_ctl stop -m fast`); nothing to do is fine.
    pub fn stop(dir: &Path) -> anyhow::Result<()> {
        if !dir.exists() {
            return Ok(());
        }
        let dir = resolve(dir)?;
        let _lock = lock(&dir)?;
        let _ = std::fs::remove_file(beside(&dir, "port"));
        if !dir.join("postmaster.pid").exists() {
            return Ok(());
        }
        Cluster::at(dir)?.pg_ctl_stop()
    }

    /// Stops the cluster in `dir` and removes its folder: every test makes databases of its own and none drops
    /// them, so a cluster kept from run to run grows without end (13 GB after some hundred runs on one machine).
    /// The next run makes it anew with `initdb`, a few seconds.
    pub fn discard(dir: &Path) -> anyhow::Result<()> {
        Cluster::stop(dir)?;
        match std::fs::remove_dir_all(dir) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
                Err(error).with_context(|| format!("removing the cluster's folder {}", dir.display()))
            }
            _ => Ok(()),
        }
    }

    /// Where Debian's PostgreSQL binaries are: `$VSTAGE_POSTGRES_BIN` if set, else the highest version under
    /// `/usr/lib/postgresql/*/bin` that has `initdb`; an error that says to run `cargo xtask setup` (or
    /// `apt-get install postgresql`) when there is none.
    pub fn binaries() -> anyhow::Result<PathBuf> {
        if let Some(bin) = std::env::var_os("VSTAGE_POSTGRES_BIN") {
            let bin = PathBuf::from(bin);
            if !bin.join("initdb").is_file() {
                bail!(
                    "VSTAGE_POSTGRES_BIN is {}, which has no initdb; point it at PostgreSQL's bin folder",
                    bin.display()
                );
            }
            return Ok(bin);
        }
        let entries = std::fs::read_dir(DEBIAN_VERSIONS).into_iter().flatten().flatten();
        let versions = entries.filter_map(|entry| {
            // "15" or "9.6", compared as numbers
            let name = entry.file_name();
            let version: Vec<u32> = name.to_str()?.split('.').map(|part| part.parse().ok()).collect::<Option<_>>()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").is_file().then_some((version, bin))
        });
        versions.max_by(|a, b| a.0.cmp(&b.0)).map(|(_, bin)| bin).with_context(|| {
            format!(
                "PostgreSQL's binaries are missing (no {DEBIAN_VERSIONS}/*/bin/initdb, and VSTAGE_POSTGRES_BIN is \
                 not set): run `cargo xtask setup`, or `apt-get install postgresql`"
            )
        })
    }

    fn url(&self, database: &str) -> String {
        format!("postgres://{USER}@127.0.0.1:{}/{database}", self.port)
    }

    /// The port of a server already running in this folder: the port file's, when the server that
    /// `postmaster.pid` names listens there (not some other cluster that took the port since) and answers.
    fn running_port(&self) -> Option<u16> {
        let port: u16 = std::fs::read_to_string(beside(&self.dir, "port")).ok()?.trim().parse().ok()?;
        // postmaster.pid's fourth line is the server's port.
        let pid_file = std::fs::read_to_string(self.dir.join("postmaster.pid")).ok()?;
        if pid_file.lines().nth(3)?.trim().parse() != Ok(port) {
            return None;
        }
        let mut ready = Command::new(self.bin.join("pg_isready"));
        ready.args(["-q", "-t", "5", "-h", "127.0.0.1", "-p", &port.to_string(), "-U", USER, "-d", "postgres"]);
        ready.stdin(Stdio::null()).status().is_ok_and(|status| status.success()).then_some(port)
    }

    /// The cluster at `dir` (absolute), not started, and who runs its server.
    fn at(dir: PathBuf) -> anyhow::Result<Cluster> {
        let mut cluster = Cluster { dir, port: 0, bin: Self::binaries()?, user: ServerUser::Caller };
        if is_root() {
            cluster.user = ServerUser::Nobody;
            if let Some(blocked) = cluster.blocked_for_nobody()? {
                // Said once a process: the tests ask for a database each.
                static SAID: std::sync::Once = std::sync::Once::new();
                SAID.call_once(|| {
                    eprintln!(
                        "PostgreSQL refuses to run as root, and nobody cannot enter {}: the cluster {} runs as \
                         nobody in a user namespace instead",
                        blocked.display(),
                        cluster.dir.display()
                    )
                });
                cluster.user = ServerUser::NobodyInNamespace;
            }
        }
        Ok(cluster)
    }

    /// Makes the cluster if its folder is missing or broken, stops a server that runs there without answering,
    /// and starts it on a free port, which it writes to `<dir>.port`.
    fn start(&mut self) -> anyhow::Result<()> {
        let port_file = beside(&self.dir, "port");
        let _ = std::fs::remove_file(&port_file);
        if !self.dir.join("PG_VERSION").is_file() {
            self.init()?;
        } else if self.dir.join("postmaster.pid").exists() {
            self.pg_ctl_stop()?;
        }
        self.port = unused_loopback_port();
        self.start_server()
    }

    /// `pg_ctl start` on `self.port`, which it writes to `<dir>.port`.
    fn start_server(&self) -> anyhow::Result<()> {
        let port_file = beside(&self.dir, "port");
        let options = format!(
            "-c listen_addresses=127.0.0.1 -p {} -c unix_socket_directories='' -c fsync=off \
             -c synchronous_commit=off -c full_page_writes=off -c max_connections=400",
            self.port
        );
        let mut start = self.pg_ctl();
        start.arg("-l").arg(self.dir.join("server.log"));
        start.args(["-w", "-t", PG_CTL_WAIT_SECONDS, "-o", &options, "start"]);
        // The server outlives this process (pg_ctl daemonizes it); its own process group keeps it out of a
        // Ctrl-C or a test runner's kill meant for the test that happened to start it.
        start.process_group(0);
        self.run(&mut start, &format!("pg_ctl start (port {})", self.port))?;
        std::fs::write(&port_file, self.port.to_string())
            .with_context(|| format!("cannot write {}", port_file.display()))
    }

    /// A new cluster in an empty folder (mode 0700, nobody's under root), in the C.UTF-8 locale or else C.
    fn init(&self) -> anyhow::Result<()> {
        let initdb = |locale: &str| -> anyhow::Result<()> {
            self.make_empty_folder()?;
            let mut initdb = self.as_server_user(self.bin.join("initdb"));
            initdb.arg("-D").arg(&self.dir);
            initdb.args(["-U", USER, "--auth=trust", "-E", "UTF8", &format!("--locale={locale}"), "-N"]);
            self.run(&mut initdb, &format!("initdb (locale {locale})"))
        };
        initdb("C.UTF-8").or_else(|utf8| initdb("C").with_context(|| format!("{utf8:#}")))
    }

    fn make_empty_folder(&self) -> anyhow::Result<()> {
        let dir = &self.dir;
        if dir.exists() {
            std::fs::remove_dir_all(dir)
                .with_context(|| format!("cannot remove the broken cluster {}", dir.display()))?;
        }
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
        if self.user == ServerUser::Nobody {
            let mut chown = Command::new("chown");
            chown.args(["-R", "nobody:nogroup"]).arg(dir);
            self.run(&mut chown, "chown -R nobody:nogroup")?;
        }
        Ok(())
    }

    /// The first folder from the root down to the cluster's parent that nobody cannot enter, if any.
    fn blocked_for_nobody(&self) -> anyhow::Result<Option<PathBuf>> {
        let parent = self.dir.parent().context("the cluster's folder has a parent")?;
        let reaches = |folder: &Path| -> anyhow::Result<bool> {
            let mut test = self.as_server_user("test");
            test.arg("-x").arg(folder);
            let status = test.status().context("setpriv (util-linux) is needed to run PostgreSQL as nobody")?;
            Ok(status.success())
        };
        if reaches(parent)? {
            return Ok(None);
        }
        for folder in parent.ancestors().collect::<Vec<_>>().into_iter().rev() {
            if !reaches(folder)? {
                return Ok(Some(folder.to_path_buf()));
            }
        }
        Ok(Some(parent.to_path_buf()))
    }

    /// `pg_ctl stop -m fast`; a `postmaster.pid` left by a server that died is not an error.
    fn pg_ctl_stop(&self) -> anyhow::Result<()> {
        let mut stop = self.pg_ctl();
        stop.args(["-w", "-t", PG_CTL_WAIT_SECONDS, "-m", "fast", "stop"]);
        let stopped = self.run(&mut stop, "pg_ctl stop");
        if stopped.is_err() {
            let mut status = self.pg_ctl();
            status.arg("status").stdout(Stdio::null()).stderr(Stdio::null());
            // pg_ctl status: 0 when a server runs, 3 when none does.
            if status.status().is_ok_and(|status| status.code() == Some(3)) {
                return Ok(());
            }
        }
        stopped
    }

    /// `pg_ctl -D <dir>`, as the server's user.
    fn pg_ctl(&self) -> Command {
        let mut pg_ctl = self.as_server_user(self.bin.join("pg_ctl"));
        pg_ctl.arg("-D").arg(&self.dir);
        pg_ctl
    }

    /// A program that touches the cluster's folder (`initdb`, `pg_ctl`, hence the server), as `self.user`;
    /// started from `/`, which nobody can enter whatever the caller's folder.
    fn as_server_user(&self, program: impl AsRef<OsStr>) -> Command {
        let mut command = match self.user {
            ServerUser::Caller => Command::new(program),
            ServerUser::Nobody => {
                let mut setpriv = Command::new("setpriv");
                setpriv.args(SETPRIV).arg(program);
                setpriv
            }
            ServerUser::NobodyInNamespace => {
                let mut unshare = Command::new("unshare");
                unshare.args(UNSHARE).arg(program);
                unshare
            }
        };
        command.current_dir("/").stdin(Stdio::null());
        command
    }

    /// A client binary (`createdb`) as the caller, aimed at the server.
    fn client(&self, program: impl AsRef<OsStr>) -> Command {
        let mut command = Command::new(self.bin.join(program.as_ref()));
        command.args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", USER]).stdin(Stdio::null());
        command
    }

    /// Runs a command to its end; on failure the error holds its output and the end of the server's log.
    fn run(&self, command: &mut Command, what: &str) -> anyhow::Result<()> {
        let program = command.get_program().to_string_lossy().into_owned();
        let output = command.output().with_context(|| format!("{what}: cannot run {program}"))?;
        if output.status.success() {
            return Ok(());
        }
        let mut message = format!("{what} failed ({})", output.status);
        for stream in [&output.stdout, &output.stderr] {
            let text = String::from_utf8_lossy(stream);
            if !text.trim().is_empty() {
                message.push_str(&format!("\n{}", text.trim_end()));
            }
        }
        let log = self.dir.join("server.log");
        if let Ok(text) = std::fs::read_to_string(&log) {
            let lines: Vec<&str> = text.lines().collect();
            let tail = lines[lines.len().saturating_sub(LOG_TAIL_LINES)..].join("\n");
            message.push_str(&format!("\nthe end of {}:\n{tail}", log.display()));
        }
        bail!(message)
    }
}

/// `prefix` (lower case, `[a-z0-9_]` only, at most 20 characters, starting with a letter), the process id, the
/// counter and the time in microseconds: at most 63 bytes, PostgreSQL's limit for a name.
fn database_name(prefix: &str, pid: u32, counter: u64, micros: u128) -> String {
    let prefix: String =
        prefix.chars().take(20).map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    let prefix = if prefix.starts_with(|c: char| c.is_ascii_lowercase()) { prefix } else { format!("db{prefix}") };
    format!("{prefix}_{pid}_{counter}_{micros}")
}

/// `dir` absolute, with its parent (made if missing) resolved, so that every caller finds the same files beside it.
fn resolve(dir: &Path) -> anyhow::Result<PathBuf> {
    let name = dir.file_name().with_context(|| format!("{} does not name a folder", dir.display()))?;
    let parent = dir.parent().filter(|parent| !parent.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    let parent = std::fs::canonicalize(parent).with_context(|| format!("cannot resolve {}", parent.display()))?;
    Ok(parent.join(name))
}

/// `<dir>.<extension>`: a file next to the cluster's folder, not inside it (so the caller owns it).
fn beside(dir: &Path, extension: &str) -> PathBuf {
    let mut name = dir.as_os_str().to_owned();
    name.push(format!(".{extension}"));
    PathBuf::from(name)
}

/// Holds `<dir>.lock` until the file is dropped; waits while another process (or thread) holds it.
fn lock(dir: &Path) -> anyhow::Result<File> {
    let path = beside(dir, "lock");
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    file.lock().with_context(|| format!("cannot lock {}", path.display()))?;
    Ok(file)
}

/// A loopback port nothing listens on now, for a server that is told its port before it starts (PostgreSQL here;
/// nginx, moto or a second `vstage serve` in the tests). Taken at random below the kernel's ephemeral range
/// (`/proc/sys/net/ipv4/ip_local_port_range`), from which every connection's own port and every `bind(0)` come:
/// a port from that range, handed back, may go to another test's connection before the server binds it (seen
/// on a busy 2-core machine). Only another caller of this function can then take it, which the random choice
/// among some 22,000 ports makes unlikely; where the range leaves no room below it, the kernel's choice.
pub fn unused_loopback_port() -> u16 {
    const LOWEST: u16 = 10_000;
    let ephemeral_start = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|range| range.split_whitespace().next()?.parse::<u16>().ok())
        .unwrap_or(32_768);
    let free = |port: u16| TcpListener::bind((Ipv4Addr::LOCALHOST, port)).ok()?.local_addr().ok().map(|a| a.port());
    if ephemeral_start > LOWEST + 1_000 {
        for _ in 0..1_000 {
            let random = std::hash::BuildHasher::hash_one(&std::collections::hash_map::RandomState::new(), 0u8);
            let port = LOWEST + (random % u64::from(ephemeral_start - LOWEST)) as u16;
            if let Some(port) = free(port) {
                return port;
            }
        }
    }
    free(0).expect("a loopback port")
}

/// Whether this process runs as root: the effective id on `/proc/self/status`'s `Uid:` line, else `id -u`.
fn is_root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    if let Some(ids) = status.lines().find_map(|line| line.strip_prefix("Uid:")) {
        return ids.split_whitespace().nth(1) == Some("0");
    }
    Command::new("id").arg("-u").output().is_ok_and(|output| output.stdout.trim_ascii() == b"0")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder of the workspace's target directory of its own, apart from the one `cargo xtask test` shares.
    fn selftest_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/postgres-cluster-selftest")
    }

    /// Stops and removes the cluster even when an assertion fails.
    struct DiscardOnDrop(PathBuf);

    impl Drop for DiscardOnDrop {
        fn drop(&mut self) {
            if let Err(error) = Cluster::discard(&self.0) {
                eprintln!("could not remove the self-test cluster: {error:#}");
            }
        }
    }

    fn answers(cluster: &Cluster, url: &str) -> bool {
        let mut ready = Command::new(cluster.bin.join("pg_isready"));
        ready.args(["-q", "-t", "5", "-d", url]).status().is_ok_and(|status| status.success())
    }

    /// `select current_database()` through psql: the database exists, not only the server.
    fn current_database(cluster: &Cluster, url: &str) -> String {
        let output = Command::new(cluster.bin.join("psql"))
            .args(["-X", "-A", "-t", "-c", "select current_database()", url])
            .output()
            .expect("psql runs");
        assert!(output.status.success(), "psql {url}: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stdout).trim().to_string()
    }

    #[test]
    fn a_shared_cluster_is_made_once_reused_stopped_and_discarded() {
        let dir = selftest_dir();
        let _discard = DiscardOnDrop(dir.clone());
        Cluster::stop(&dir).expect("a clean start");

        // Four callers at once (the lock is per open file, so threads contend as processes do): one starts it.
        let ports: Vec<u16> = std::thread::scope(|scope| {
            let callers: Vec<_> = (0..4).map(|_| scope.spawn(|| Cluster::shared(&dir).expect("shared"))).collect();
            callers.into_iter().map(|caller| caller.join().expect("no panic").port()).collect()
        });
        assert!(ports.iter().all(|&port| port == ports[0]), "one cluster, not {ports:?}");
        let cluster = Cluster::shared(&dir).expect("reused");
        assert_eq!(cluster.port(), ports[0]);
        assert!(answers(&cluster, &cluster.admin_url()));

        let first = cluster.fresh_database("Storage tests!").expect("a database");
        let second = cluster.fresh_database("Storage tests!").expect("another database");
        assert_ne!(first, second);
        for url in [&first, &second] {
            assert!(answers(&cluster, url), "{url} answers");
            let name = url.rsplit('/').next().expect("a name");
            assert!(name.starts_with("storage_tests_"), "{name}");
            assert_eq!(current_database(&cluster, url), name);
        }

        // Stopped, it starts again; a port file left by a stopped server is not trusted.
        Cluster::stop(&dir).expect("stop");
        assert!(!answers(&cluster, &cluster.admin_url()), "stopped");
        std::fs::write(beside(&resolve(&dir).expect("resolved"), "port"), cluster.port().to_string()).expect("port");
        let again = Cluster::shared(&dir).expect("started again");
        assert!(answers(&again, &again.admin_url()));
        let first_name = first.rsplit('/').next().expect("a name");
        assert_eq!(current_database(&again, &again.url(first_name)), first_name, "the databases are kept");

        // A folder without PG_VERSION is made anew.
        Cluster::stop(&dir).expect("stop");
        std::fs::remove_file(dir.join("PG_VERSION")).expect("PG_VERSION");
        let anew = Cluster::shared(&dir).expect("made anew");
        assert!(answers(&anew, &anew.admin_url()));
        let fresh = anew.fresh_database("after").expect("a database in the new cluster");
        assert!(!fresh.contains("storage_tests") && current_database(&anew, &fresh).starts_with("after_"));
        let databases = Command::new(anew.bin.join("psql"))
            .args(["-X", "-A", "-t", "-c", "select datname from pg_database", &anew.admin_url()])
            .output()
            .expect("psql runs");
        let databases = String::from_utf8_lossy(&databases.stdout);
        assert!(!databases.contains("storage_tests"), "the old databases are gone: {databases}");

        // Discarded, nothing runs and nothing is kept; discarding what is not there is fine.
        Cluster::discard(&dir).expect("discarded");
        assert!(!answers(&anew, &anew.admin_url()), "stopped");
        assert!(!dir.exists(), "{} removed", dir.display());
        Cluster::discard(&dir).expect("nothing to discard");
    }

    #[test]
    fn unused_ports_are_below_the_ephemeral_range_and_free() {
        let ephemeral_start: u16 = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
            .map_or(32_768, |range| range.split_whitespace().next().unwrap().parse().unwrap());
        let ports: Vec<u16> = (0..20).map(|_| unused_loopback_port()).collect();
        for port in &ports {
            assert!(*port < ephemeral_start, "{port} is below {ephemeral_start}");
            TcpListener::bind((Ipv4Addr::LOCALHOST, *port)).expect("still free");
        }
        let distinct: std::collections::HashSet<_> = ports.iter().collect();
        assert!(distinct.len() > 1, "chosen at random: {ports:?}");
    }

    #[test]
    fn database_names_are_plain_identifiers() {
        assert_eq!(
            database_name("Storage tests!", 42, 7, 1_700_000_000_000_000),
            "storage_tests__42_7_1700000000000000"
        );
        assert_eq!(database_name("9lives", 1, 0, 5), "db9lives_1_0_5");
        assert_eq!(database_name("", 1, 0, 5), "db_1_0_5");
        let longest = database_name(&"x".repeat(100), 4_194_304, 99_999, u64::MAX as u128 / 1000);
        assert!(longest.len() <= 63, "{longest}");
    }

    #[test]
    fn files_beside_the_folder_are_not_in_it() {
        assert_eq!(beside(Path::new("/t/postgres"), "port"), Path::new("/t/postgres.port"));
        let resolved = resolve(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/../src/")).expect("resolved");
        assert!(resolved.is_absolute() && resolved.ends_with("postgres-cluster/src"), "{}", resolved.display());
        assert!(!resolved.components().any(|part| part == std::path::Component::ParentDir));
    }
}
