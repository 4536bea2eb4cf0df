//! The listing site's backend told of what the studio does: signed to the Standard Webhooks specification (checked
//! by its reference library, PyPI's `standardwebhooks`, not by our code), delivered again after a receiver's
//! failures until it takes them, each receiver apart from the others (one that hangs holds back no other), and
//! listed by `vstage deliveries`.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::{HeaderMap, StatusCode};
use serde_json::{Value, json};

use crate::allowances::vstage;
use crate::support::{Server, widget_dir};
use crate::{create_render, sample_url};

/// A secret in the specification's form.
const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/// What a receiver was sent: each request's headers and body, in arrival order.
type Received = Arc<Mutex<Vec<(HeaderMap, String)>>>;

/// A host's backend on a free port that answers 503 to its first `failures` requests, then 204.
async fn receiver(failures: usize) -> (String, Received) {
    answering(failures, false).await
}

/// The same, or one that never answers its first request (`hold_first`): a delivery in flight for ever.
async fn answering(failures: usize, hold_first: bool) -> (String, Received) {
    let received: Received = Arc::default();
    let kept = received.clone();
    let app = axum::Router::new().route(
        "/hooks/vstage",
        axum::routing::post(move |headers: HeaderMap, body: String| {
            let kept = kept.clone();
            async move {
                let count = {
                    let mut all = kept.lock().unwrap();
                    all.push((headers, body));
                    all.len()
                };
                if hold_first && count == 1 {
                    std::future::pending::<()>().await;
                }
                if count <= failures { StatusCode::SERVICE_UNAVAILABLE } else { StatusCode::NO_CONTENT }
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hooks/vstage?site=1", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.ok() });
    (url, received)
}

/// Waits until the receiver has `count` requests; a copy of them.
async fn wait_for(received: &Received, count: usize) -> Vec<(HeaderMap, String)> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let now = received.lock().unwrap().clone();
        if now.len() >= count {
            return now;
        }
        assert!(tokio::time::Instant::now() < deadline, "only {} of {count} deliveries arrived", now.len());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The reference library's verdict on a delivery: the payload it verified, or its error.
fn verified_by_the_reference(headers: &HeaderMap, body: &str) -> Result<Value, String> {
    let python = std::env::var("VSTAGE_STANDARDWEBHOOKS_PYTHON").unwrap_or_else(|_| {
        let tools = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/tools");
        tools.join("standardwebhooks/bin/python").display().to_string()
    });
    let script = "import json, sys\nfrom standardwebhooks.webhooks import Webhook\n\
        secret, id, timestamp, signature = sys.argv[1:5]\n\
        headers = {'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature}\n\
        print(json.dumps(Webhook(secret).verify(sys.stdin.read(), headers)))";
    let header = |name: &str| headers.get(name).and_then(|value| value.to_str().ok()).unwrap_or_default().to_string();
    let mut child = std::process::Command::new(&python)
        .args(["-c", script, SECRET, &header("webhook-id"), &header("webhook-timestamp"), &header("webhook-signature")])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{python} runs (cargo xtask setup installs standardwebhooks): {e}"));
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), body.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    match output.status.success() {
        true => Ok(serde_json::from_slice(&output.stdout).unwrap()),
        false => Err(String::from_utf8_lossy(&output.stderr).into_owned()),
    }
}

#[tokio::test]
async fn a_render_created_reaches_the_host_signed_after_its_receiver_failed_three_times() {
    let (url, received) = receiver(3).await;
    let dist = widget_dir();
    let args = ["--host-webhook-url", &url, "--host-webhook-retry-ms", "20"];
    let server = Server::start_with(dist.path(), &args, &[("VSTAGE_HOST_WEBHOOK_SECRET", SECRET)]).await;
    let photo = sample_url(&server, "living-empty.jpg").await;
    let render = create_render(&server, None, &photo, false).await;
    let render_id = render["id"].as_str().unwrap();

    // the render's later events (its variation done) wait for this one: the first four are its attempts
    let deliveries = wait_for(&received, 4).await;
    let ids: Vec<&str> = deliveries[..4].iter().map(|(headers, _)| headers["webhook-id"].to_str().unwrap()).collect();
    assert!(ids.iter().all(|id| *id == ids[0] && id.starts_with("msg_")), "one event, tried four times: {ids:?}");
    let (headers, body) = &deliveries[3];
    let payload = verified_by_the_reference(headers, body).expect("the reference library verifies the delivery");
    assert_eq!(payload["type"], "render.created");
    assert_eq!(
        (payload["data"]["render_id"].as_str(), payload["data"]["subject"].as_str()),
        (Some(render_id), Some("local"))
    );
    let mut forged = headers.clone();
    forged.insert("webhook-signature", "v1,bm90IHRoZSBzaWduYXR1cmU=".parse().unwrap());
    assert!(verified_by_the_reference(&forged, body).is_err(), "the reference refuses a wrong signature");

    // the server says so once the fourth was taken (the receiver's answer and the outbox's record are not one step)
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    let listed = loop {
        let listed = vstage(&server, &["deliveries", "list"]);
        if listed.contains(": sent after 4 attempt(s)") || tokio::time::Instant::now() > deadline {
            break listed;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(listed.contains(&format!("render.created render {render_id}")), "{listed}");
    assert!(listed.contains(": sent after 4 attempt(s)"), "{listed}");
    let before = received.lock().unwrap().len();
    let elsewhere = std::process::Command::new(env!("CARGO_BIN_EXE_vstage"))
        .args(["deliveries", "retry", ids[0], "--to", "http://127.0.0.1:9/elsewhere", "--data-dir"])
        .arg(server.data_dir())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&elsewhere.stderr);
    assert!(!elsewhere.status.success() && said.contains("no delivery of"), "not a receiver of it: {said}");
    let again = vstage(&server, &["deliveries", "retry", ids[0], "--to", &url]);
    assert!(again.contains("sent again to 1 receiver(s)"), "{again}");
    let after = wait_for(&received, before + 1).await;
    assert!(after[before..].iter().any(|(headers, _)| headers["webhook-id"] == ids[0]), "sent again");
}

#[tokio::test]
async fn a_host_webhook_address_without_its_secret_stops_the_start_with_what_to_do() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_vstage"))
        .args([
            "check",
            "--host-webhook-url",
            "http://127.0.0.1:9/hooks",
            "--skip-check",
            "upstream",
            "--skip-check",
            "widget",
        ])
        .arg("--data-dir")
        .arg(tempfile::tempdir().unwrap().path())
        .env_remove("VSTAGE_HOST_WEBHOOK_SECRET")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success() && said.contains("VSTAGE_HOST_WEBHOOK_SECRET"), "{said}");

    // an address with a password is refused without showing it
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_vstage"))
        .args(["check", "--host-webhook-url", "https://site:s3cret@backend.example/hooks", "--skip-check", "upstream"])
        .args(["--skip-check", "widget", "--data-dir"])
        .arg(tempfile::tempdir().unwrap().path())
        .env("VSTAGE_HOST_WEBHOOK_SECRET", SECRET)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success() && said.contains("without a user, password"), "{said}");
    assert!(!said.contains("s3cret"), "{said}");
}

#[tokio::test]
async fn a_renders_events_reach_the_host_with_lasting_links_and_the_disclosure_once() {
    let (url, received) = receiver(0).await;
    let dist = widget_dir();
    let server =
        Server::start_with(dist.path(), &["--host-webhook-url", &url], &[("VSTAGE_HOST_WEBHOOK_SECRET", SECRET)]).await;
    let photo = sample_url(&server, "living-empty.jpg").await;
    let render = create_render(&server, None, &photo, false).await;
    let render_id = render["id"].as_str().unwrap().to_string();

    let deliveries = wait_for(&received, 2).await;
    let bodies: Vec<Value> = deliveries.iter().map(|(_, body)| serde_json::from_str(body).unwrap()).collect();
    // (which of the two the server recorded first is the network's business: the outbox keeps that order)
    let mut types: Vec<&str> = bodies.iter().map(|body| body["type"].as_str().unwrap()).collect();
    types.sort_unstable();
    assert_eq!(types, ["render.created", "variation.done"]);
    let done = &bodies.iter().find(|body| body["type"] == "variation.done").unwrap()["data"];
    assert_eq!((done["render_id"].as_str(), done["subject"].as_str()), (Some(render_id.as_str()), Some("local")));
    let kept = done["images"][0]["url"].as_str().unwrap();
    assert!(kept.starts_with(&server.api("/results/")), "a lasting link of this server: {done}");
    assert_eq!(reqwest::get(kept).await.unwrap().status(), 200, "the link opens the kept image");
    let variation_id = done["variation_id"].as_str().unwrap();

    let chosen = json!({"render_id": render_id, "variation_id": variation_id, "profile": "ab723"});
    let answer = reqwest::Client::new().post(server.api("/disclosures")).json(&chosen).send().await.unwrap();
    assert_eq!(answer.status(), 200);
    // chosen again: the same record, and no second event
    reqwest::Client::new().post(server.api("/disclosures")).json(&chosen).send().await.unwrap();
    let deliveries = wait_for(&received, 3).await;
    let (headers, body) = &deliveries[2];
    let payload = verified_by_the_reference(headers, body).expect("verified");
    assert_eq!(payload["type"], "result.chosen");
    let disclosure = &payload["data"];
    let reso = &disclosure["reso"];
    // an enhancement: RESO's value for it, and words saying so even where the law asks no statement
    assert_eq!(reso["MediaAlteration"], json!(["VirtualEnhancements"]), "{disclosure}");
    assert_eq!(reso["LongDescription"], "This image was digitally enhanced.", "{disclosure}");
    assert_eq!(
        (disclosure["render_id"].as_str(), disclosure["variation_id"].as_str()),
        (Some(render_id.as_str()), Some(variation_id))
    );
    assert!(
        disclosure["statement"].as_str().is_some_and(|s| s.starts_with("Virtually staged"))
            || disclosure["exempt"] == true,
        "{disclosure}"
    );
    assert!(disclosure["disclosure_url"].is_string() || disclosure["exempt"] == true, "{disclosure}");
    let listed = vstage(&server, &["deliveries", "list", "--outcome", "pending"]);
    assert!(!listed.contains("result.chosen render"), "{listed}");
}

#[tokio::test]
async fn two_servers_on_one_database_deliver_each_event_once() {
    let (url, received) = receiver(0).await;
    let database = tokio::task::spawn_blocking(|| vstage_postgres_cluster::Cluster::fresh_test_database("hooks"))
        .await
        .unwrap()
        .expect("a fresh database on the private PostgreSQL cluster");
    let dist = widget_dir();
    let args = ["--database", database.as_str(), "--host-webhook-url", url.as_str()];
    let env = [("VSTAGE_HOST_WEBHOOK_SECRET", SECRET)];
    let servers =
        [Server::start_with(dist.path(), &args, &env).await, Server::start_with(dist.path(), &args, &env).await];
    let mut renders = Vec::new();
    for round in 0..6 {
        let server = &servers[round % 2];
        let photo = sample_url(server, "living-empty.jpg").await;
        renders.push(create_render(server, None, &photo, false).await["id"].as_str().unwrap().to_string());
    }

    // Once nothing is pending, every delivery the database calls sent has reached the receiver (it is marked sent
    // after the receiver answered): each of them exactly once.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    let outbox = |outcome: &'static str| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_vstage"))
            .args(["deliveries", "list", "--limit", "1000", "--outcome", outcome, "--database", &database])
            .output()
            .unwrap();
        String::from_utf8(output.stdout).unwrap()
    };
    loop {
        let sent = outbox("sent").lines().count();
        if sent >= 2 * renders.len() && outbox("pending").trim().is_empty() {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "still pending: {}", outbox("pending"));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let all = received.lock().unwrap().clone();
    let mut ids: Vec<String> = all.iter().map(|(headers, _)| headers["webhook-id"].to_str().unwrap().into()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!((all.len(), ids.len()), (2 * renders.len(), 2 * renders.len()), "each event once, none twice");
    let created: Vec<String> = all
        .iter()
        .map(|(_, body)| serde_json::from_str::<Value>(body).unwrap())
        .filter(|body| body["type"] == "render.created")
        .map(|body| body["data"]["render_id"].as_str().unwrap().to_string())
        .collect();
    let (mut created, mut made) = (created, renders.clone());
    created.sort();
    made.sort();
    assert_eq!(created, made, "every render made through either server is reported");
}

#[tokio::test]
async fn a_variation_the_service_failed_reaches_the_host_with_its_reason() {
    let (url, received) = receiver(0).await;
    let dist = widget_dir();
    let server =
        Server::start_with(dist.path(), &["--host-webhook-url", &url], &[("VSTAGE_HOST_WEBHOOK_SECRET", SECRET)]).await;
    let photo = format!("{}?sandbox-fail", sample_url(&server, "living-empty.jpg").await);
    let render = create_render(&server, None, &photo, false).await;
    let deliveries = wait_for(&received, 2).await;
    let bodies: Vec<Value> = deliveries.iter().map(|(_, body)| serde_json::from_str(body).unwrap()).collect();
    let failed = bodies.iter().find(|body| body["type"] == "variation.failed").expect("a variation.failed event");
    assert_eq!(failed["data"]["render_id"], render["id"]);
    assert_eq!(failed["data"]["subject"], "local");
    let reason = failed["data"]["error_message"].as_str().unwrap_or_default();
    assert!(reason.contains("sandbox-fail"), "the service's reason: {failed}");
}

#[tokio::test]
async fn a_server_killed_mid_delivery_leaves_it_to_its_restart() {
    let (url, received) = answering(0, true).await;
    let dist = widget_dir();
    let args = ["--host-webhook-url", url.as_str()];
    let env = [("VSTAGE_HOST_WEBHOOK_SECRET", SECRET)];
    let server = Server::start_with(dist.path(), &args, &env).await;
    let photo = sample_url(&server, "living-empty.jpg").await;
    create_render(&server, None, &photo, false).await;
    // the first delivery is in flight (its receiver never answers) when the server is killed
    let held = wait_for(&received, 1).await[0].0["webhook-id"].to_str().unwrap().to_string();
    let _restarted = server.killed_and_restarted_with(dist.path(), &args, &env).await;
    // once its claim lapses, the restarted server sends it again (at least once), then the render's next event
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    loop {
        let ids: Vec<String> = received
            .lock()
            .unwrap()
            .iter()
            .map(|(headers, _)| headers["webhook-id"].to_str().unwrap().into())
            .collect();
        if ids.iter().filter(|id| **id == held).count() == 2 {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "never sent again: {ids:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn an_allowance_at_80_percent_and_spent_reaches_the_host_once_each() {
    let (url, received) = receiver(0).await;
    let dist = widget_dir();
    let args = ["--host-webhook-url", &url, "--allowance", "image-editing=5"];
    let server = Server::start_with(dist.path(), &args, &[("VSTAGE_HOST_WEBHOOK_SECRET", SECRET)]).await;
    let photo = sample_url(&server, "living-empty.jpg").await;
    for _ in 0..5 {
        create_render(&server, None, &photo, false).await;
    }
    let allowance_events = |all: &[(HeaderMap, String)]| -> Vec<(HeaderMap, String, Value)> {
        all.iter()
            .map(|(headers, body)| (headers.clone(), body.clone(), serde_json::from_str::<Value>(body).unwrap()))
            .filter(|(_, _, payload)| payload["type"].as_str().is_some_and(|kind| kind.starts_with("allowance.")))
            .collect()
    };
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    let events = loop {
        let events = allowance_events(&received.lock().unwrap());
        if events.len() >= 2 {
            break events;
        }
        assert!(tokio::time::Instant::now() < deadline, "the allowance's events never came: {events:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let kinds: Vec<&str> = events.iter().map(|(_, _, payload)| payload["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["allowance.low", "allowance.spent"], "in the order they happened, once each");
    let (low, spent) = (&events[0].2["data"], &events[1].2["data"]);
    assert_eq!(
        (&low["subject"], &low["kind"], &low["used"], &low["limit"]),
        (&json!("local"), &json!("image-editing"), &json!(4), &json!(5))
    );
    assert_eq!((&spent["used"], &spent["limit"]), (&json!(5), &json!(5)));
    let usage: Value = reqwest::get(server.api("/usage")).await.unwrap().json().await.unwrap();
    assert_eq!(spent["renews_at"], usage["period"]["end"], "when it renews, as the usage says");
    let (headers, body, _) = &events[1];
    assert!(verified_by_the_reference(headers, body).is_ok(), "signed like every event");
    // a sixth is refused, and reports nothing more
    let refused = reqwest::Client::new()
        .post(server.api("/v2/renders"))
        .json(&json!({"image_url": photo, "variation_count": 1, "config": {"type": "enhancement"}}))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 429, "{}", refused.text().await.unwrap());
    let listed = vstage(&server, &["deliveries", "list"]);
    assert_eq!(listed.matches("allowance.").count(), 2, "{listed}");
}

/// A host's backend that answers none of its requests, or (`gate`) each once the gate opens.
async fn holding(gate: Option<tokio::sync::watch::Receiver<bool>>) -> (String, Received) {
    let received: Received = Arc::default();
    let kept = received.clone();
    let app = axum::Router::new().route(
        "/hooks/vstage",
        axum::routing::post(move |headers: HeaderMap, body: String| {
            let (kept, gate) = (kept.clone(), gate.clone());
            async move {
                kept.lock().unwrap().push((headers, body));
                match gate {
                    Some(mut gate) => drop(gate.wait_for(|open| *open).await),
                    None => std::future::pending::<()>().await,
                }
                StatusCode::NO_CONTENT
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hooks/vstage", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.ok() });
    (url, received)
}

/// The `webhook-id`s a receiver was sent, in arrival order.
fn ids_of(received: &[(HeaderMap, String)]) -> Vec<String> {
    received.iter().map(|(headers, _)| headers["webhook-id"].to_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn a_receiver_that_hangs_and_one_that_is_slow_hold_back_no_other() {
    let (hanging, hanging_got) = holding(None).await;
    let (let_slow_answer, gate) = tokio::sync::watch::channel(false);
    let (slow, slow_got) = holding(Some(gate)).await;
    let (healthy, healthy_got) = receiver(0).await;
    let dist = widget_dir();
    let mut args = vec!["--host-webhook-timeout-s", "3600", "--host-webhook-concurrency", "1"];
    for url in [&hanging, &slow, &healthy] {
        args.extend(["--host-webhook-url", url.as_str()]);
    }
    let server = Server::start_with(dist.path(), &args, &[("VSTAGE_HOST_WEBHOOK_SECRET", SECRET)]).await;
    let photo = sample_url(&server, "living-empty.jpg").await;
    for _ in 0..3 {
        create_render(&server, None, &photo, false).await;
    }

    // each render's render.created and variation.done reach the healthy receiver while the others hold their first
    let to_healthy = ids_of(&wait_for(&healthy_got, 6).await);
    let (first_to_hanging, first_to_slow) = (wait_for(&hanging_got, 1).await, wait_for(&slow_got, 1).await);
    assert_eq!((hanging_got.lock().unwrap().len(), slow_got.lock().unwrap().len()), (1, 1), "one under way each");
    let rows_to = |listed: &str, target: &str| -> Vec<String> {
        let to = format!(" to {target}: ");
        listed.lines().filter(|line| line.contains(&to)).map(str::to_string).collect()
    };
    // (the receiver's answer and the outbox's record of it are not one step)
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    let listed = loop {
        let listed = vstage(&server, &["deliveries", "list", "--limit", "100"]);
        let sent = rows_to(&listed, &healthy).iter().filter(|row| row.contains(": sent after 1 attempt(s)")).count();
        if sent == 6 || tokio::time::Instant::now() > deadline {
            break listed;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let rows = |target: &str| rows_to(&listed, target);
    assert!(rows(&healthy).iter().all(|row| row.contains(": sent after 1 attempt(s)")), "{listed}");
    assert!(rows(&hanging).iter().all(|row| row.contains(": pending after")), "{listed}");
    assert_eq!(rows(&healthy).len(), 6, "{listed}");
    // the order each receiver is sent a render's events in is the outbox's (listed newest first)
    let outbox_order = |target: &str| -> Vec<String> {
        rows(target).iter().rev().map(|row| row.split_whitespace().next().unwrap().to_string()).collect()
    };
    let render_of = |id: &str| listed.lines().find(|line| line.starts_with(id)).unwrap().split(" render ").nth(1);
    let per_render = |ids: &[String]| {
        let mut by_render: std::collections::BTreeMap<String, Vec<String>> = Default::default();
        for id in ids {
            let render = render_of(id).unwrap().split_whitespace().next().unwrap().to_string();
            by_render.entry(render).or_default().push(id.clone());
        }
        by_render
    };
    assert_eq!(per_render(&to_healthy), per_render(&outbox_order(&healthy)), "in order per render");

    let_slow_answer.send(true).unwrap();
    let to_slow = ids_of(&wait_for(&slow_got, 6).await);
    assert_eq!(to_slow[0], ids_of(&first_to_slow)[0]);
    assert_eq!(per_render(&to_slow), per_render(&outbox_order(&slow)), "the slow one's in order per render too");
    assert_eq!(ids_of(&hanging_got.lock().unwrap()), ids_of(&first_to_hanging), "the hanging one still holds one");
}

/// A staging of `photo` sent with `reference` as the `Vstage-Reference` header, waited for.
async fn staged_with_reference(server: &Server, photo: &str, reference: &str) -> reqwest::Response {
    reqwest::Client::new()
        .post(server.api("/v2/renders"))
        .header("Vstage-Reference", reference)
        .json(&json!({
            "image_url": photo,
            "variation_count": 1,
            "config": {"type": "staging", "add_furniture": {"style": "modern", "room_type": "living"}},
            "wait_for_completion": true,
        }))
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn the_hosts_references_come_back_in_every_event_the_list_and_the_chosen_result() {
    let (url, received) = receiver(0).await;
    let dist = widget_dir();
    let server =
        Server::start_with(dist.path(), &["--host-webhook-url", &url], &[("VSTAGE_HOST_WEBHOOK_SECRET", SECRET)]).await;
    let photo = sample_url(&server, "living-empty.jpg").await;
    let reference = json!({"listing_id": "L-1042", "photo_id": "p-7", "metadata": {"mls": 1042, "agent": "Zoë"}});
    // in ASCII, as a header carries it: JSON's escape for the ë
    let header = reference.to_string().replace('ë', "\\u00eb");
    let answer = staged_with_reference(&server, &photo, &header).await;
    assert_eq!(answer.status(), 200);
    let render_id = answer.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_string();
    staged_with_reference(&server, &photo, r#"{"listing_id": "L-9"}"#).await;

    let deliveries = wait_for(&received, 4).await;
    let ours: Vec<Value> = deliveries
        .iter()
        .map(|(headers, body)| verified_by_the_reference(headers, body).expect("verified"))
        .filter(|payload| payload["data"]["render_id"] == render_id.as_str())
        .collect();
    let mut types: Vec<&str> = ours.iter().map(|payload| payload["type"].as_str().unwrap()).collect();
    types.sort_unstable();
    assert_eq!(types, ["render.created", "variation.done"]);
    for payload in &ours {
        let data = &payload["data"];
        assert_eq!(
            (&data["listing_id"], &data["photo_id"], &data["metadata"]),
            (&reference["listing_id"], &reference["photo_id"], &reference["metadata"]),
            "{payload}"
        );
    }

    // read back, and listed by listing
    let kept: Value =
        reqwest::get(server.api(&format!("/references/{render_id}"))).await.unwrap().json().await.unwrap();
    assert_eq!(kept, reference);
    let listed: Value = reqwest::get(server.api("/v2/renders?listing_id=L-1042")).await.unwrap().json().await.unwrap();
    let ids: Vec<&str> = listed["items"].as_array().unwrap().iter().map(|item| item["id"].as_str().unwrap()).collect();
    assert_eq!((ids, &listed["total_count"]), (vec![render_id.as_str()], &json!(1)), "{listed}");

    // chosen: the webhook carries what the DOM event carries, with lasting addresses only
    let done = ours.iter().find(|payload| payload["type"] == "variation.done").unwrap();
    let variation_id = done["data"]["variation_id"].as_str().unwrap();
    let chosen = json!({"render_id": render_id, "variation_id": variation_id, "profile": "ab723"});
    let answer = reqwest::Client::new().post(server.api("/disclosures")).json(&chosen).send().await.unwrap();
    assert_eq!(answer.status(), 200);
    let record: Value = answer.json().await.unwrap();
    let deliveries = wait_for(&received, 5).await;
    let (headers, body) = &deliveries[4];
    let payload = verified_by_the_reference(headers, body).expect("verified");
    let data = &payload["data"];
    assert_eq!(payload["type"], "result.chosen");
    assert_eq!((&data["listing_id"], &data["metadata"]), (&reference["listing_id"], &reference["metadata"]));
    assert_eq!((&data["disclosure_id"], &data["virtually_staged"]), (&record["id"], &json!(true)), "{data}");
    assert!(data["chosen_at"].as_str().is_some_and(|at| at.ends_with('Z') && at.contains('T')), "{data}");
    for role in ["url", "optimized_url", "thumbnail_url", "original_url"] {
        let address = data[role].as_str().unwrap_or_else(|| panic!("{role} in {data}"));
        assert!(address.starts_with(&server.api("/results/")), "{role} is kept here: {address}");
        assert_eq!(reqwest::get(address).await.unwrap().status(), 200, "{role} opens");
    }
    assert_eq!((&record["listing_id"], &record["optimized_url"]), (&data["listing_id"], &data["optimized_url"]));
}

#[tokio::test]
async fn references_out_of_bounds_are_refused_before_anything_is_made() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let photo = sample_url(&server, "living-empty.jpg").await;
    let cases = [
        (r#"{"listingId": "L-1"}"#, "unknown field"),
        (r#"{"metadata": {"a": {"b": 1}}}"#, "strings, numbers or booleans"),
        ("L-1", "not a reference"),
    ];
    for (header, said) in cases {
        let answer = staged_with_reference(&server, &photo, header).await;
        assert_eq!(answer.status(), 400, "{header}");
        let message = answer.json::<Value>().await.unwrap()["message"].as_str().unwrap().to_string();
        assert!(message.contains(said), "{header}: {message}");
    }
    let listed: Value = reqwest::get(server.api("/v2/renders")).await.unwrap().json().await.unwrap();
    assert_eq!(listed["items"], json!([]), "nothing was made: {listed}");
}

#[tokio::test]
async fn a_bulk_creations_own_references_come_back_in_events_that_came_before_its_answer() {
    let (url, received) = receiver(0).await;
    let dist = widget_dir();
    let server =
        Server::start_with(dist.path(), &["--host-webhook-url", &url], &[("VSTAGE_HOST_WEBHOOK_SECRET", SECRET)]).await;
    let photo = sample_url(&server, "living-empty.jpg").await;
    let staging = json!({"type": "staging", "add_furniture": {"style": "modern", "room_type": "living"}});
    let entry = json!({"image_url": photo, "variation_count": 1, "config": staging});
    // Waited for: every variation's delivery comes before the answer names the renders.
    let answer = reqwest::Client::new()
        .post(server.api("/v2/renders/bulk"))
        .header("Vstage-Reference", r#"[{"listing_id": "L-1", "photo_id": "a"}, {"listing_id": "L-2"}]"#)
        .json(&json!({"renders": [entry, entry], "wait_for_completion": true}))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    let created: Value = answer.json().await.unwrap();
    let ids: Vec<&str> = created["renders"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
    let expected = [(ids[0], json!("L-1"), json!("a")), (ids[1], json!("L-2"), Value::Null)];

    let deliveries = wait_for(&received, 4).await;
    let payloads: Vec<Value> =
        deliveries.iter().map(|(headers, body)| verified_by_the_reference(headers, body).expect("verified")).collect();
    for (render_id, listing, photo_id) in expected {
        let about: Vec<&Value> = payloads.iter().filter(|one| one["data"]["render_id"] == render_id).collect();
        let mut types: Vec<&str> = about.iter().map(|one| one["type"].as_str().unwrap()).collect();
        types.sort_unstable();
        assert_eq!(types, ["render.created", "variation.done"], "{payloads:?}");
        for payload in about {
            let data = &payload["data"];
            assert_eq!((&data["listing_id"], &data["photo_id"]), (&listing, &photo_id), "{payload}");
        }
    }
}
