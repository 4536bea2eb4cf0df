//! The webhook receiver as a process: refused deliveries told to the operator once in the log, a rotated secret
//! kept across restarts, `vstage check` naming the signature's settings; and the helpers the other process tests
//! deliver with (the receiver's own tests run in-process, in `src/live/webhooks/served.rs`).

use serde_json::{Value, json};

use crate::deliveries::{done_event, signature};
use crate::recording::RecordingUpstream;
use crate::support::{Server, widget_dir};

/// The webhook secret the server keeps in its data dir.
pub fn kept_secret(server: &Server) -> String {
    let kept = std::fs::read(server.data_dir().join("webhook-secret.json")).unwrap();
    let kept: serde_json::Value = serde_json::from_slice(&kept).unwrap();
    kept["secret"].as_str().unwrap().to_string()
}

pub async fn deliver(server: &Server, body: &[u8], signature: Option<&str>) -> u16 {
    let mut request = reqwest::Client::new()
        .post(server.api("/webhooks/service"))
        .header("Content-Type", "application/json")
        .body(body.to_vec());
    if let Some(signature) = signature {
        request = request.header("X-SERVICE-Signature", signature);
    }
    request.send().await.unwrap().status().as_u16()
}

/// Delivers a `done` event about `variation`, signed with the server's kept secret; the status.
pub async fn deliver_done(server: &Server, variation: &str) -> u16 {
    let body = done_event(variation);
    deliver(server, &body, Some(&hex::encode(signature(&kept_secret(server), &body)))).await
}

/// `vstage check` says which header and encoding the receiver expects, and names the choices when one is not.
#[tokio::test]
async fn vstage_check_names_the_signatures_header_and_encoding() {
    let dist = widget_dir();
    let settings = ["--webhook-signature-header", "X-Signature", "--webhook-signature-encoding", "sha256-hex"];
    let data = tempfile::tempdir().unwrap();
    let checked = std::process::Command::new(env!("CARGO_BIN_EXE_vstage"))
        .args(["check", "--dist"])
        .arg(dist.path())
        .arg("--data-dir")
        .arg(data.path())
        .args(settings)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&checked.stdout);
    assert!(said.contains("x-signature header, written as sha256-hex"), "{said}");
    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_vstage"))
        .args(["check", "--webhook-signature-encoding", "rot13"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("sha256-hex"), "the choices are named");
}

#[tokio::test]
async fn refused_deliveries_are_reported_and_change_nothing_anyone_is_offered() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let http = reqwest::Client::new();
    let capabilities =
        async || -> Value { http.get(server.api("/capabilities")).send().await.unwrap().json().await.unwrap() };
    let webhooks = async || -> Value {
        let report: Value = http.get(format!("{}/readyz", server.url)).send().await.unwrap().json().await.unwrap();
        report["webhooks"].clone()
    };
    let offered = capabilities().await;
    assert_eq!((offered["events"].as_bool(), webhooks().await), (Some(true), "none_yet".into()));
    // forgeries, or the service signing with a secret of its own: anyone can send these
    for variation in ["var_a", "var_b", "var_c", "var_d"] {
        let body = done_event(variation);
        assert_eq!(deliver(&server, &body, Some(&hex::encode(signature("the-services-own", &body)))).await, 401);
    }
    assert_eq!(capabilities().await, offered, "what widgets are offered does not change");
    assert_eq!(webhooks().await, "refused", "the operator is told");
    let output = server.wait_for_output("keep failing verification").await;
    assert!(output.contains("--set-webhook-secret"), "{output}");
    assert_eq!(output.matches("keep failing verification").count(), 1, "said once, loudly: {output}");
    assert_eq!(output.matches("refused a webhook delivery").count(), 1, "not a line per forgery: {output}");

    assert_eq!(deliver_done(&server, "var_e").await, 200);
    assert_eq!(webhooks().await, "verifying");
}

#[tokio::test]
async fn a_secret_rotated_against_a_real_upstream_is_kept_across_restarts() {
    let upstream = RecordingUpstream::start().await;
    let dist = widget_dir();
    let args = ["--upstream", upstream.url.as_str()];
    let env = |secret| [("VSTAGE_API_KEY", "k_test"), ("VSTAGE_WEBHOOK_SECRET", secret)];
    let signed = |secret: &str, variation: &str| {
        let body = done_event(variation);
        let signature = hex::encode(signature(secret, &body));
        (body, signature)
    };
    let accepts = async |server: &Server, secret: &str, variation: &str| {
        let (body, signature) = signed(secret, variation);
        deliver(server, &body, Some(&signature)).await
    };
    let server = Server::start_with(dist.path(), &args, &env("first-secret")).await;
    assert_eq!(accepts(&server, "first-secret", "var_1").await, 200);

    // the operator rotates the secret through the proxy
    let rotated = reqwest::Client::new()
        .post(server.api("/v2/user/webhook-secret"))
        .json(&json!({"webhook_secret": "rotated-secret"}))
        .send()
        .await
        .unwrap();
    assert_eq!(rotated.status().as_u16(), 200);
    assert_eq!(accepts(&server, "rotated-secret", "var_2").await, 200);
    assert_eq!(accepts(&server, "first-secret", "var_3").await, 401);

    // a restart with the same environment keeps the rotated secret, the one the service signs with now
    let server = server.restart_with(dist.path(), &args, &env("first-secret")).await;
    assert_eq!(accepts(&server, "rotated-secret", "var_4").await, 200);
    assert_eq!(accepts(&server, "first-secret", "var_5").await, 401);

    // an environment changed since then is the operator's newer word
    let server = server.restart_with(dist.path(), &args, &env("third-secret")).await;
    assert_eq!(accepts(&server, "third-secret", "var_6").await, 200);
    assert_eq!(accepts(&server, "rotated-secret", "var_7").await, 401);
}
