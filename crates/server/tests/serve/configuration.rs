//! The settings as an operator gives them: every option from its `VSTAGE_...` variable, the TOML file of
//! `--config` (or `VSTAGE_CONFIG`) under the environment and the command line, and a wrong file refused before the
//! server listens, with its line.

use std::ffi::OsString;
use std::path::Path;

use crate::support::{Server, widget_dir};
use crate::{WIDGET_SECRET, mint};

const VSTAGE: &str = env!("CARGO_BIN_EXE_vstage");

/// What a server started with some settings does, as a browser, a host page and an operator see it.
#[derive(Debug, PartialEq)]
struct Observed {
    capabilities: serde_json::Value,
    serves_the_widget: bool,
    without_a_token: u16,
    with_a_token: u16,
    /// The origins, of those asked about, that CORS lets call `/api`.
    allowed_origins: Vec<&'static str>,
    metrics: Option<u16>,
    upstream_check_skipped: bool,
    database_in_the_data_dir: bool,
}

const ORIGINS: [&str; 3] = ["https://a.example", "https://b.example", "https://file.example"];

async fn observe(server: &Server, data_dir: &Path) -> Observed {
    let client = reqwest::Client::new();
    let capabilities = reqwest::get(server.api("/capabilities")).await.unwrap().json().await.unwrap();
    let page = reqwest::get(format!("{}/", server.url)).await.unwrap().text().await.unwrap();
    let renders = server.api("/v2/renders");
    let without_a_token = client.get(&renders).send().await.unwrap().status().as_u16();
    let token = mint(WIDGET_SECRET, "agent-7", "1h", None).await;
    let with_a_token = client.get(&renders).bearer_auth(token).send().await.unwrap().status().as_u16();
    let mut allowed_origins = Vec::new();
    for origin in ORIGINS {
        let preflight = client
            .request(reqwest::Method::OPTIONS, &renders)
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .send()
            .await
            .unwrap();
        if preflight.headers().get("access-control-allow-origin").is_some_and(|allowed| allowed == origin) {
            allowed_origins.push(origin);
        }
    }
    let output = server.output();
    let metrics = match output.lines().find_map(|line| line.strip_prefix("vstage metrics on ")) {
        Some(address) => Some(reqwest::get(address.trim()).await.unwrap().status().as_u16()),
        None => None,
    };
    Observed {
        capabilities,
        serves_the_widget: page.contains("<title>widget</title>"),
        without_a_token,
        with_a_token,
        allowed_origins,
        metrics,
        upstream_check_skipped: output.contains("skipped"),
        database_in_the_data_dir: data_dir.join("vstage.sqlite3").is_file(),
    }
}

fn os(words: &[&str]) -> Vec<OsString> {
    words.iter().map(OsString::from).collect()
}

fn pairs(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(name, value)| (name.to_string(), value.to_string())).collect()
}

#[tokio::test]
async fn a_serve_started_with_variables_alone_behaves_as_with_the_flags() {
    let dist = widget_dir();
    let dist = dist.path().to_str().unwrap();
    let (by_flags, by_variables) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let flags = [
        "serve",
        "--listen=127.0.0.1:0",
        "--dist",
        dist,
        "--data-dir",
        by_flags.path().to_str().unwrap(),
        "--access=token",
        "--allow-origin=https://a.example",
        "--allow-origin=https://b.example",
        "--metrics-listen=127.0.0.1:0",
        "--skip-check=upstream",
        "--log-format=json",
    ];
    let secret = [("VSTAGE_WIDGET_SECRET", WIDGET_SECRET)];
    let server = Server::start_exactly(Path::new(VSTAGE), &os(&flags), &pairs(&secret)).await;
    let with_flags = observe(&server, by_flags.path()).await;
    assert!(server.output().lines().any(|line| line.starts_with("{\"")), "json log lines: {}", server.output());
    server.stop().await;

    let variables = [
        ("VSTAGE_LISTEN", "127.0.0.1:0"),
        ("VSTAGE_DIST", dist),
        ("VSTAGE_DATA_DIR", by_variables.path().to_str().unwrap()),
        ("VSTAGE_ACCESS", "token"),
        ("VSTAGE_ALLOW_ORIGIN", "https://a.example,https://b.example"),
        ("VSTAGE_METRICS_LISTEN", "127.0.0.1:0"),
        ("VSTAGE_SKIP_CHECK", "upstream"),
        ("VSTAGE_LOG_FORMAT", "json"),
        ("VSTAGE_WIDGET_SECRET", WIDGET_SECRET),
    ];
    let server = Server::start_exactly(Path::new(VSTAGE), &os(&["serve"]), &pairs(&variables)).await;
    let with_variables = observe(&server, by_variables.path()).await;
    assert!(server.output().lines().any(|line| line.starts_with("{\"")), "json log lines: {}", server.output());
    server.stop().await;

    assert_eq!(with_variables, with_flags);
    assert_eq!(
        (with_flags.serves_the_widget, with_flags.without_a_token, with_flags.with_a_token),
        (true, 401, 200),
        "{with_flags:?}"
    );
    assert_eq!(with_flags.allowed_origins, ["https://a.example", "https://b.example"]);
    assert_eq!((with_flags.metrics, with_flags.upstream_check_skipped), (Some(200), true));
    assert!(with_flags.database_in_the_data_dir);
}

#[tokio::test]
async fn the_file_gives_way_to_the_environment_and_the_command_line() {
    let dist = widget_dir();
    let (folder, data) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let file = folder.path().join("vstage.toml");
    let text = format!(
        "# overridden by VSTAGE_LISTEN\nlisten = \"127.0.0.1:1\"\n# overridden by --dist\ndist = \"/nowhere\"\n\
         data-dir = {:?}\naccess = \"token\"\nallow-origin = [\"https://file.example\"]\nmetrics-listen = \
         \"127.0.0.1:0\"\n",
        data.path().to_str().unwrap()
    );
    std::fs::write(&file, text).unwrap();
    let environment = [
        ("VSTAGE_CONFIG", file.to_str().unwrap()),
        ("VSTAGE_LISTEN", "127.0.0.1:0"),
        ("VSTAGE_ALLOW_ORIGIN", "https://b.example"),
        ("VSTAGE_WIDGET_SECRET", WIDGET_SECRET),
    ];
    let args = os(&["serve", "--dist", dist.path().to_str().unwrap()]);
    let server = Server::start_exactly(Path::new(VSTAGE), &args, &pairs(&environment)).await;
    let observed = observe(&server, data.path()).await;
    server.stop().await;
    assert!(observed.serves_the_widget, "--dist came before the file's: {observed:?}");
    assert_eq!(observed.allowed_origins, ["https://b.example"], "the variable came before the file's list");
    assert_eq!((observed.without_a_token, observed.with_a_token), (401, 200), "the file alone set token access");
    assert_eq!(observed.capabilities["access"], "token");
    assert_eq!(observed.metrics, Some(200), "the file alone set the metrics' address");
    assert!(observed.database_in_the_data_dir, "the file alone set the data dir");
}

/// `vstage COMMAND --config FILE` with `text` in the file, run to its end: its exit code and what it said.
async fn refused(command: &str, text: &str) -> (Option<i32>, String) {
    let folder = tempfile::tempdir().unwrap();
    let file = folder.path().join("vstage.toml");
    std::fs::write(&file, text).unwrap();
    let dist = widget_dir();
    let output = tokio::process::Command::new(VSTAGE)
        .args([command, "--dist", dist.path().to_str().unwrap(), "--config"])
        .arg(&file)
        .env_clear()
        .kill_on_drop(true)
        .output();
    let output = tokio::time::timeout(std::time::Duration::from_secs(30), output).await.unwrap().unwrap();
    let said = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(!said.contains("vstage listening on"), "{command} listened: {said}");
    (output.status.code(), said.replace(&file.display().to_string(), "FILE"))
}

#[tokio::test]
async fn a_wrong_key_or_value_stops_the_start_with_the_file_s_line() {
    for command in ["serve", "check"] {
        let (code, said) = refused(command, "listen = \"127.0.0.1:0\"\n\nlisten-address = \"127.0.0.1:0\"\n").await;
        assert_eq!(code, Some(2), "{said}");
        assert!(said.contains("the configuration file FILE, line 3: `listen-address` is not an option"), "{said}");

        let (code, said) = refused(command, "access = \"token\"\nrate-limit = \"lots\"\n").await;
        assert_eq!(code, Some(2), "{said}");
        assert!(said.contains("line 2: `rate-limit` takes a number (without quotes), not a string"), "{said}");

        let (code, said) = refused(command, "upload-retention = \"a month\"\n").await;
        assert_eq!(code, Some(2), "{said}");
        assert!(said.contains("line 1: `upload-retention` is refused: invalid value 'a month'"), "{said}");

        let (code, said) = refused(command, "widget-secret = \"0123456789abcdef0123456789abcdef\"\n").await;
        assert_eq!(code, Some(2), "{said}");
        assert!(said.contains("`widget-secret` is a secret") && said.contains("VSTAGE_WIDGET_SECRET"), "{said}");
        assert!(!said.contains("0123456789abcdef"), "the secret is not repeated: {said}");
    }
}

#[tokio::test]
async fn a_wrong_variable_is_named_as_the_variable() {
    let output = tokio::process::Command::new(VSTAGE)
        .args(["serve", "--listen", "127.0.0.1:0"])
        .env_clear()
        .env("VSTAGE_RATE_LIMIT", "lots")
        .kill_on_drop(true)
        .output()
        .await
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(said.contains("the variable VSTAGE_RATE_LIMIT: invalid value 'lots' for '--rate-limit"), "{said}");
}

#[tokio::test]
async fn of_two_variables_for_one_flag_the_one_holding_the_wrong_value_is_named() {
    let output = tokio::process::Command::new(VSTAGE)
        .args(["sandbox", "--api-key", "k"])
        .env_clear()
        .env("VSTAGE_LISTEN", "127.0.0.1:8080")
        .env("VSTAGE_SANDBOX_LISTEN", "nowhere")
        .kill_on_drop(true)
        .output()
        .await
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(said.contains("the variable VSTAGE_SANDBOX_LISTEN: invalid value 'nowhere'"), "{said}");
}

#[tokio::test]
async fn a_database_password_on_the_command_line_is_refused_for_the_variable() {
    let output = tokio::process::Command::new(VSTAGE)
        .args(["usage", "--from", "2026-11-01", "--to", "2026-12-01", "--database", "postgres://v:hunter2@db/v"])
        .env_clear()
        .kill_on_drop(true)
        .output()
        .await
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{said}");
    assert!(said.contains("VSTAGE_DATABASE_URL") && !said.contains("hunter2"), "{said}");
}

#[test]
fn a_report_whose_reader_has_gone_ends_quietly() {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let output = std::process::Command::new(VSTAGE)
        .args(["token", "--sub", "agent-17"])
        .env_clear()
        .env("VSTAGE_WIDGET_SECRET", "a-widget-secret-of-at-least-32-bytes-long")
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success() && !said.contains("panicked"), "{said}");
}

#[test]
fn a_report_given_another_data_dir_than_the_servers_says_so_and_makes_nothing() {
    let elsewhere = tempfile::tempdir().unwrap();
    let data = elsewhere.path().join("vstage-data");
    for command in [
        &["usage", "--from", "2026-11-01", "--to", "2026-12-01"][..],
        &["allowance", "set", "agent-17", "staging=60"],
        &["deliveries", "list"],
    ] {
        let output =
            std::process::Command::new(VSTAGE).args(command).arg("--data-dir").arg(&data).env_clear().output().unwrap();
        let said = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success() && said.contains("there is no database at"), "{command:?}: {said}");
        assert!(!data.exists(), "{command:?} made a database of its own");
    }
}
