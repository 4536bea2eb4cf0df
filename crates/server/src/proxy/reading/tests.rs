//! What one token's requests may cost the operator's account, through the whole app in-process, counted at a
//! recording stand-in for the service: a list page reads at most 20 renders, repeated lookups are made once,
//! every service call counts against the rate limit, a render's variation pages end within the contract's
//! bounds, and every path reads a render only when the answer is about that render alone.

use std::time::Instant;

use axum::http::Method;
use serde_json::json;

use crate::testing::TestApp;
use crate::testing::recording::RecordingUpstream;

/// A server with token access in front of `upstream`, with `args`; alice's token.
async fn behind_tokens(upstream: &RecordingUpstream, args: &[&str]) -> (TestApp, String) {
    let server = TestApp::in_front_of(upstream, &[&["--access", "token"], args].concat()).await;
    let alice = server.token("alice");
    (server, alice)
}

/// Alice creates render `rnd_NAME` for each of `names` (the stand-in names a render after its photo).
async fn create(server: &TestApp, alice: &str, names: &[&str]) -> Vec<u16> {
    let mut statuses = Vec::new();
    for name in names {
        let body = json!({"image_url": format!("https://photos.example/as-{name}.jpg"), "variation_count": 1,
            "config": {"type": "enhancement"}});
        statuses.push(server.ask(Method::POST, "/api/v2/renders").bearer(alice).json(&body).answer().await.0);
    }
    statuses
}

/// The render reads (`GET /v2/renders/{id}`) that reached the stand-in.
fn render_reads(upstream: &RecordingUpstream) -> usize {
    let seen = upstream.seen();
    seen.iter().filter(|seen| seen.method == "GET" && seen.path_and_query.starts_with("/v2/renders/")).count()
}

#[tokio::test]
async fn a_list_page_reads_at_most_twenty_renders_whatever_its_limit() {
    let upstream = RecordingUpstream::start().await;
    let (server, alice) = behind_tokens(&upstream, &[]).await;
    let names: Vec<String> = (0..25).map(|n| format!("r{n:02}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    assert!(create(&server, &alice, &names).await.iter().all(|status| *status == 200));
    upstream.forget();
    let (status, page) = server.ask(Method::GET, "/api/v2/renders?limit=100").bearer(&alice).answer().await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["items"].as_array().unwrap().len(), 20);
    assert_eq!(render_reads(&upstream), 20, "one read per render shown, no more");
    let cursor = page["next_cursor"].as_str().expect("the rest follow");
    let next = format!("/api/v2/renders?limit=100&cursor={cursor}");
    let (status, rest) = server.ask(Method::GET, &next).bearer(&alice).answer().await;
    assert_eq!((status, rest["items"].as_array().unwrap().len()), (200, 5), "{rest}");
}

#[tokio::test]
async fn every_service_call_a_token_causes_counts_against_its_rate_limit() {
    let upstream = RecordingUpstream::start().await;
    // 3 calls a minute, all at once: one comes back every 20 s
    let (server, alice) = behind_tokens(&upstream, &["--rate-limit", "3"]).await;
    let started = Instant::now();
    assert_eq!(create(&server, &alice, &["a", "b"]).await, [200, 200]);
    let mut statuses = Vec::new();
    for _ in 0..3 {
        statuses.push(server.ask(Method::GET, "/api/v2/renders").bearer(&alice).answer().await.0);
    }
    // However slow the machine, the calls made never exceed the quota plus what came back meanwhile.
    let came_back = started.elapsed().as_secs() / 20;
    let calls = upstream.seen().len() as u64;
    assert!(calls <= 3 + came_back, "{calls} calls to the service for a quota of 3 ({statuses:?})");
    assert!(statuses.iter().all(|status| [200, 429].contains(status)), "{statuses:?}");
}

#[tokio::test]
async fn bulk_variations_look_each_base_up_once() {
    let upstream = RecordingUpstream::start().await;
    let (server, alice) = behind_tokens(&upstream, &[]).await;
    create(&server, &alice, &["bulk1"]).await;
    upstream.forget();
    let entry = json!({"render_id": "rnd_bulk1", "variation_count": 1, "config": {"type": "staging",
        "add_furniture": {"style": "modern", "room_type": "living", "base_variation_id": "var_base"}}});
    let body = json!({"renders": vec![entry; 25]});
    let bulk = server.ask(Method::POST, "/api/v2/renders/variations/bulk").bearer(&alice).json(&body);
    let (status, answer) = bulk.answer().await;
    assert_eq!(status, 200, "{answer}");
    let lookups = upstream.seen().iter().filter(|seen| seen.path_and_query.contains("/variations/var_base")).count();
    assert_eq!(lookups, 1, "{:?}", upstream.seen());
}

#[tokio::test]
async fn variation_pages_that_do_not_end_are_a_bad_gateway_within_the_contracts_bound() {
    let upstream = RecordingUpstream::start().await;
    let (server, alice) = behind_tokens(&upstream, &[]).await;
    create(&server, &alice, &["cycling", "endless"]).await;
    for render in ["rnd_cycling", "rnd_endless"] {
        upstream.forget();
        let answer = server.get(&format!("/api/renders/{render}/results.zip?access_token={alice}")).await;
        assert_eq!(answer.status(), 502, "{render}");
        let reads = render_reads(&upstream);
        assert!((1..=20).contains(&reads), "{render}: {reads} pages read for at most 20 variations");
    }
}

#[tokio::test]
async fn an_answer_holding_another_renders_variation_is_refused_on_every_path() {
    let upstream = RecordingUpstream::start().await;
    let (server, alice) = behind_tokens(&upstream, &[]).await;
    create(&server, &alice, &["mixed"]).await;
    let board = json!({"renders": [{"render_id": "rnd_mixed", "label": "Kitchen"}]});
    assert_eq!(server.ask(Method::POST, "/api/board/renders").bearer(&alice).json(&board).answer().await.0, 200);
    for path in ["/api/renders/rnd_mixed/results.zip", "/api/board/results.zip"] {
        assert_eq!(server.get(&format!("{path}?access_token={alice}")).await.status(), 502, "{path}");
    }
    let chosen = json!({"render_id": "rnd_mixed", "variation_id": "var_theirs"});
    let (status, answer) = server.ask(Method::POST, "/api/disclosures").bearer(&alice).json(&chosen).answer().await;
    assert_eq!(status, 502, "{answer}");
    let list = server.ask(Method::GET, "/api/v2/renders?limit=5").bearer(&alice).answer().await;
    assert_eq!(list.0, 502, "the list reads the same way");
}
