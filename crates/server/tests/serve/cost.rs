//! What one token's requests may cost the operator's account, over real HTTP, counted at a recording stand-in for
//! the service: a list page reads at most 20 renders, repeated lookups are made once, every service call counts
//! against the rate limit, a render's variation pages end within the contract's bounds, and every path reads a
//! render only when the answer is about that render alone.

use std::time::Instant;

use serde_json::{Value, json};

use crate::read_first::{KEY, behind_tokens};
use crate::recording::RecordingUpstream;
use crate::support::{Server, widget_dir};
use crate::{WIDGET_SECRET, mint};

async fn send(request: reqwest::RequestBuilder) -> (u16, Value) {
    let response = request.send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

/// Alice creates render `rnd_NAME` for each of `names` (the stand-in names a render after its photo).
async fn create(server: &Server, alice: &str, names: &[String]) -> Vec<u16> {
    let http = reqwest::Client::new();
    let mut statuses = Vec::new();
    for name in names {
        let body = json!({"image_url": format!("https://photos.example/as-{name}.jpg"), "variation_count": 1,
            "config": {"type": "enhancement"}});
        statuses.push(send(http.post(server.api("/v2/renders")).bearer_auth(alice).json(&body)).await.0);
    }
    statuses
}

/// The render reads (`GET /v2/renders/{id}`) that reached the stand-in.
fn render_reads(upstream: &RecordingUpstream) -> usize {
    upstream
        .seen()
        .iter()
        .filter(|seen| seen.method == "GET" && seen.path_and_query.starts_with("/v2/renders/"))
        .count()
}

#[tokio::test]
async fn a_list_page_reads_at_most_twenty_renders_whatever_its_limit() {
    let upstream = RecordingUpstream::start().await;
    let (_dist, server, alice) = behind_tokens(&upstream).await;
    let names: Vec<String> = (0..25).map(|n| format!("r{n:02}")).collect();
    assert!(create(&server, &alice, &names).await.iter().all(|status| *status == 200));
    upstream.forget();
    let http = reqwest::Client::new();
    let (status, page) = send(http.get(server.api("/v2/renders?limit=100")).bearer_auth(&alice)).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["items"].as_array().unwrap().len(), 20);
    assert_eq!(render_reads(&upstream), 20, "one read per render shown, no more");
    let cursor = page["next_cursor"].as_str().expect("the rest follow").to_string();
    let next = server.api(&format!("/v2/renders?limit=100&cursor={cursor}"));
    let (status, rest) = send(http.get(next).bearer_auth(&alice)).await;
    assert_eq!((status, rest["items"].as_array().unwrap().len()), (200, 5), "{rest}");
}

#[tokio::test]
async fn every_service_call_a_token_causes_counts_against_its_rate_limit() {
    let upstream = RecordingUpstream::start().await;
    let dist = widget_dir();
    // 3 calls a minute, all at once: one comes back every 20 s
    let server = Server::start_with(
        dist.path(),
        &["--access", "token", "--upstream", &upstream.url, "--rate-limit", "3"],
        &[("VSTAGE_API_KEY", KEY), ("VSTAGE_WIDGET_SECRET", WIDGET_SECRET), ("VSTAGE_WEBHOOK_SECRET", "whs_0123")],
    )
    .await;
    upstream.forget();
    let alice = mint(WIDGET_SECRET, "alice", "1h", None).await;
    let started = Instant::now();
    assert_eq!(create(&server, &alice, &["a".into(), "b".into()]).await, [200, 200]);
    let http = reqwest::Client::new();
    let mut statuses = Vec::new();
    for _ in 0..3 {
        statuses.push(send(http.get(server.api("/v2/renders")).bearer_auth(&alice)).await.0);
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
    let (_dist, server, alice) = behind_tokens(&upstream).await;
    create(&server, &alice, &["bulk1".into()]).await;
    upstream.forget();
    let entry = json!({"render_id": "rnd_bulk1", "variation_count": 1, "config": {"type": "staging",
        "add_furniture": {"style": "modern", "room_type": "living", "base_variation_id": "var_base"}}});
    let body = json!({"renders": vec![entry; 25]});
    let http = reqwest::Client::new();
    let (status, answer) =
        send(http.post(server.api("/v2/renders/variations/bulk")).bearer_auth(&alice).json(&body)).await;
    assert_eq!(status, 200, "{answer}");
    let lookups = upstream.seen().iter().filter(|seen| seen.path_and_query.contains("/variations/var_base")).count();
    assert_eq!(lookups, 1, "{:?}", upstream.seen());
}

#[tokio::test]
async fn variation_pages_that_do_not_end_are_a_bad_gateway_within_the_contracts_bound() {
    let upstream = RecordingUpstream::start().await;
    let (_dist, server, alice) = behind_tokens(&upstream).await;
    create(&server, &alice, &["cycling".into(), "endless".into()]).await;
    for render in ["rnd_cycling", "rnd_endless"] {
        upstream.forget();
        let address = format!("{}?access_token={alice}", server.api(&format!("/renders/{render}/results.zip")));
        let answer = reqwest::get(&address).await.unwrap();
        assert_eq!(answer.status(), 502, "{render}");
        let reads = render_reads(&upstream);
        assert!((1..=20).contains(&reads), "{render}: {reads} pages read for at most 20 variations");
    }
}

#[tokio::test]
async fn an_answer_holding_another_renders_variation_is_refused_on_every_path() {
    let upstream = RecordingUpstream::start().await;
    let (_dist, server, alice) = behind_tokens(&upstream).await;
    create(&server, &alice, &["mixed".into()]).await;
    let http = reqwest::Client::new();
    let board = json!({"renders": [{"render_id": "rnd_mixed", "label": "Kitchen"}]});
    let (status, _) = send(http.post(server.api("/board/renders")).bearer_auth(&alice).json(&board)).await;
    assert_eq!(status, 200);
    for path in ["/renders/rnd_mixed/results.zip", "/board/results.zip"] {
        let answer = reqwest::get(format!("{}?access_token={alice}", server.api(path))).await.unwrap();
        assert_eq!(answer.status(), 502, "{path}");
    }
    let chosen = json!({"render_id": "rnd_mixed", "variation_id": "var_theirs"});
    let (status, answer) = send(http.post(server.api("/disclosures")).bearer_auth(&alice).json(&chosen)).await;
    assert_eq!(status, 502, "{answer}");
    let (status, _) = send(http.get(server.api("/v2/renders?limit=5")).bearer_auth(&alice)).await;
    assert_eq!(status, 502, "the list reads the same way");
}
