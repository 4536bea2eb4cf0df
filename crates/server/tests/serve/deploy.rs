//! The recipes in `deploy/`, run as far as this machine allows: the systemd unit's `ExecStart=` with its
//! `Environment=` and `EnvironmentFile=`, and the container's `COPY`, `ENV`, `ENTRYPOINT` and `CMD`, each carried out
//! in a folder standing for the machine's root, on a release's folder as `cargo xtask dist` lays it out (made of
//! the debug binary and a stand-in widget). Each server must answer `/readyz`, serve the widget it found beside its
//! binary and stop on SIGTERM.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::support::{Server, widget_dir};

const DEPLOY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../deploy");

/// A secret the operator gives at run time (the env file, `docker run -e`), never in the recipes.
const WIDGET_SECRET: &str = "deploy-test-widget-secret-0123456789abcdef";

/// A folder on the same file system as the binary (so that it can be linked rather than copied).
fn scratch() -> tempfile::TempDir {
    tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("a folder under the target directory")
}

/// `from` at `to`: a hard link where the file system allows one, else a copy.
fn place(from: &Path, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    if std::fs::hard_link(from, to).is_err() {
        std::fs::copy(from, to).unwrap_or_else(|error| panic!("{} to {}: {error}", from.display(), to.display()));
    }
}

/// `from`'s files under `to`, folders and all.
fn place_tree(from: &Path, to: &Path) {
    if from.is_file() {
        return place(from, to);
    }
    for entry in std::fs::read_dir(from).unwrap_or_else(|error| panic!("{}: {error}", from.display())) {
        let entry = entry.unwrap();
        place_tree(&entry.path(), &to.join(entry.file_name()));
    }
}

/// A release's folder, laid out as `cargo xtask dist` makes it: `bin/vstage`, the widget in
/// `share/vstage/widget`, the recipes in `deploy/`.
fn release() -> tempfile::TempDir {
    let folder = scratch();
    place(Path::new(env!("CARGO_BIN_EXE_vstage")), &folder.path().join("bin/vstage"));
    place_tree(widget_dir().path(), &folder.path().join("share/vstage/widget"));
    place_tree(Path::new(DEPLOY), &folder.path().join("deploy"));
    folder
}

/// A path of the machine the recipe describes, inside the folder `root` that stands for it.
fn on(root: &Path, path: &str) -> PathBuf {
    root.join(path.trim_start_matches('/'))
}

/// A word of a command line or a variable's value, with its absolute paths moved inside `root`.
fn rooted(root: &Path, word: &str) -> String {
    if word.starts_with('/') { on(root, word).display().to_string() } else { word.to_string() }
}

/// The server's own folder-less environment: what a service manager gives every service.
fn base_environment() -> BTreeMap<String, String> {
    BTreeMap::from([("PATH".to_string(), "/usr/local/bin:/usr/bin:/bin".to_string())])
}

/// The server started by `command` must be ready, serve the release's widget, and stop on SIGTERM.
async fn ready_then_stopped(server: Server) {
    let ready = reqwest::get(format!("{}/readyz", server.url)).await.unwrap();
    assert_eq!(ready.status(), 200, "{}", server.output());
    let page = reqwest::get(format!("{}/", server.url)).await.unwrap().text().await.unwrap();
    assert!(page.contains("<title>widget</title>"), "the widget beside the binary: {page}");
    let status = server.stopped().await.expect("it stops on SIGTERM, within 10 s when idle");
    assert!(status.success(), "{status}");
}

/// A systemd unit's settings: `Key=value` lines of every section, in order (keys repeat).
fn unit_settings(text: &str) -> Vec<(String, String)> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with(['#', ';', '[']))
        .map(|line| {
            let (key, value) = line.split_once('=').unwrap_or_else(|| panic!("not a setting: {line}"));
            (key.trim().to_string(), value.trim().to_string())
        })
        .collect()
}

/// `Environment=`'s assignments: `A=1 "B=two words"`.
fn assignments(value: &str) -> Vec<(String, String)> {
    let mut words = Vec::new();
    let mut quoted = false;
    let mut word = String::new();
    for character in value.chars() {
        match character {
            '"' => quoted = !quoted,
            ' ' if !quoted => words.push(std::mem::take(&mut word)),
            other => word.push(other),
        }
    }
    words.push(word);
    words
        .into_iter()
        .filter(|word| !word.is_empty())
        .map(|word| {
            let (name, value) = word.split_once('=').unwrap_or_else(|| panic!("not an assignment: {word}"));
            (name.to_string(), value.to_string())
        })
        .collect()
}

/// The words of `ExecStart=`, which this test runs as systemd would: no prefixes, quotes or specifiers.
fn exec_start(value: &str) -> Vec<String> {
    assert!(
        !value.contains(['"', '\'', '%', '$', '\\']) && !value.starts_with(['-', '@', ':', '+', '!']),
        "ExecStart= uses what this test does not read as systemd does: {value}"
    );
    value.split_whitespace().map(str::to_string).collect()
}

#[tokio::test]
async fn the_systemd_unit_s_command_line_and_environment_start_a_ready_server() {
    let unit = std::fs::read_to_string(Path::new(DEPLOY).join("vstage.service")).unwrap();
    let settings = unit_settings(&unit);
    let one = |key: &str| {
        let mut found = settings.iter().filter(|(name, _)| name == key).map(|(_, value)| value.as_str());
        let value = found.next().unwrap_or_else(|| panic!("the unit has no {key}="));
        assert!(found.next().is_none(), "the unit has more than one {key}=");
        value
    };
    let stop_timeout: u64 = one("TimeoutStopSec").parse().expect("TimeoutStopSec= in seconds");
    assert!(stop_timeout > 600, "the stop outlasts an upload's 600 s (--upload-timeout-s): {stop_timeout}");
    assert_eq!(one("KillSignal"), "SIGTERM");

    // installed as the unit's own comment says: the release in /opt/vstage, the example configuration in
    // /etc/vstage, the secrets in the env file, the state directory made by systemd
    let (root, release) = (scratch(), release());
    place_tree(release.path(), &on(root.path(), "/opt/vstage"));
    place(&Path::new(DEPLOY).join("vstage.toml"), &on(root.path(), "/etc/vstage/vstage.toml"));
    std::fs::write(
        on(root.path(), "/etc/vstage/vstage.env"),
        format!("# secrets\nVSTAGE_WIDGET_SECRET={WIDGET_SECRET}\n"),
    )
    .unwrap();
    std::fs::create_dir_all(on(root.path(), &format!("/var/lib/{}", one("StateDirectory")))).unwrap();

    let mut environment = base_environment();
    for (key, value) in &settings {
        match key.as_str() {
            "Environment" => {
                environment.extend(assignments(value).into_iter().map(|(n, v)| (n, rooted(root.path(), &v))))
            }
            "EnvironmentFile" => {
                let file = std::fs::read_to_string(on(root.path(), value.trim_start_matches('-'))).unwrap();
                environment.extend(unit_settings(&file));
            }
            _ => {}
        }
    }
    assert!(!unit.contains(WIDGET_SECRET) && !environment.contains_key("VSTAGE_API_KEY"));
    // the port this test may use, as a drop-in's `Environment=VSTAGE_LISTEN=...` would set it
    environment.insert("VSTAGE_LISTEN".into(), "127.0.0.1:0".into());
    let command: Vec<String> = exec_start(one("ExecStart")).iter().map(|word| rooted(root.path(), word)).collect();
    let args: Vec<OsString> = command[1..].iter().map(OsString::from).collect();
    let environment: Vec<(String, String)> = environment.into_iter().collect();
    let server = Server::start_exactly(Path::new(&command[0]), &args, &environment).await;
    assert!(on(root.path(), "/var/lib/vstage/vstage.sqlite3").is_file(), "the data in the state directory");
    ready_then_stopped(server).await;
}

/// A Containerfile's instructions, continuation lines joined, comments left out: (instruction, arguments).
fn instructions(text: &str) -> Vec<(String, String)> {
    let mut joined = Vec::new();
    let mut current = String::new();
    for line in text.lines().map(str::trim).filter(|line| !line.starts_with('#')) {
        match line.strip_suffix('\\') {
            Some(start) => current.push_str(start),
            None if current.is_empty() && line.is_empty() => {}
            None => joined.push(std::mem::take(&mut current) + line),
        }
    }
    joined
        .iter()
        .map(|line| {
            let (instruction, rest) = line.split_once(' ').unwrap_or((line, ""));
            (instruction.to_uppercase(), rest.trim().to_string())
        })
        .collect()
}

/// An exec-form `["a", "b"]` list.
fn exec_form(value: &str) -> Vec<String> {
    serde_json::from_str(value).unwrap_or_else(|_| panic!("ENTRYPOINT and CMD are in exec form: {value}"))
}

#[tokio::test]
async fn the_container_s_files_environment_and_entrypoint_start_a_ready_server() {
    let recipe = std::fs::read_to_string(Path::new(DEPLOY).join("Containerfile")).unwrap();
    let (root, context) = (scratch(), release());
    let mut environment = base_environment();
    let (mut entrypoint, mut cmd) = (Vec::new(), Vec::new());
    for (instruction, arguments) in instructions(&recipe) {
        match instruction.as_str() {
            "COPY" => {
                let words: Vec<&str> = arguments.split_whitespace().collect();
                assert!(!words[0].starts_with("--"), "COPY without options: {arguments}");
                let (target, sources) = words.split_last().unwrap();
                for source in sources {
                    let from = context.path().join(source);
                    assert!(from.exists(), "COPY {source}: not in the release's folder");
                    place_tree(&from, &on(root.path(), target));
                }
            }
            "ENV" => {
                let assigned = assignments(&arguments);
                assert!(!assigned.is_empty(), "ENV in the KEY=value form: {arguments}");
                environment.extend(assigned.into_iter().map(|(n, v)| (n, rooted(root.path(), &v))));
            }
            "VOLUME" => std::fs::create_dir_all(on(root.path(), &arguments)).unwrap(),
            "ENTRYPOINT" => entrypoint = exec_form(&arguments),
            "CMD" => cmd = exec_form(&arguments),
            "STOPSIGNAL" => assert_eq!(arguments, "SIGTERM"),
            _ => {}
        }
    }
    assert!(!recipe.contains("SECRET=") && !recipe.contains("API_KEY="), "no secret is baked in");
    // `docker run -e VSTAGE_WIDGET_SECRET -p 8080`: the secret given at run time, the port any free one
    environment.insert("VSTAGE_WIDGET_SECRET".into(), WIDGET_SECRET.into());
    let listen = environment.get("VSTAGE_LISTEN").expect("the recipe sets VSTAGE_LISTEN");
    let (host, _port) = listen.rsplit_once(':').expect("VSTAGE_LISTEN is HOST:PORT");
    environment.insert("VSTAGE_LISTEN".into(), format!("{host}:0"));
    let command: Vec<String> = entrypoint.iter().chain(&cmd).map(|word| rooted(root.path(), word)).collect();
    let args: Vec<OsString> = command[1..].iter().map(OsString::from).collect();
    let environment: Vec<(String, String)> = environment.into_iter().collect();
    let server = Server::start_exactly(Path::new(&command[0]), &args, &environment).await;
    assert!(server.output().lines().any(|line| line.starts_with("{\"")), "json logs: {}", server.output());
    ready_then_stopped(server).await;
}
