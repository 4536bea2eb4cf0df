//! Spending through the whole app, in-process, with the embedded sandbox: every call that makes the service produce
//! a photo counts against the allowance of the kind it produces (variations added one render at a time or in bulk,
//! of another kind than the render was charged for), exactly under concurrency, at 0, N and no limit; and a failed
//! render's refund lasts only while it produces nothing.
//! After them, its parts alone, called directly.

use axum::http::Method;
use serde_json::{Value, json};

use crate::testing::TestApp;

fn enhancement() -> Value {
    json!({"type": "enhancement"})
}

fn staging() -> Value {
    json!({"type": "staging", "add_furniture": {"room_type": "living", "style": "modern"}})
}

/// `count` variations of `config` added to `render_id` as `token`'s holder, waiting for them when `wait`.
async fn add(server: &TestApp, token: &str, render_id: &str, config: Value, wait: bool) -> (u16, Value) {
    let body = json!({"variation_count": 1, "config": config, "wait_for_completion": wait});
    let path = format!("/api/v2/renders/{render_id}/variations");
    server.ask(Method::POST, &path).bearer(token).json(&body).answer().await
}

/// Variations added in one bulk call, `(render id, config)` each.
async fn add_in_bulk(server: &TestApp, token: &str, entries: &[(&str, Value)]) -> (u16, Value) {
    let renders: Vec<Value> = entries
        .iter()
        .map(|(render_id, config)| json!({"render_id": render_id, "variation_count": 1, "config": config}))
        .collect();
    let body = json!({"renders": renders});
    server.ask(Method::POST, "/api/v2/renders/variations/bulk").bearer(token).json(&body).answer().await
}

/// `(staging, image editing)` photos `token`'s holder used this period, as `GET /api/usage` says.
async fn used(server: &TestApp, token: &str) -> (u64, u64) {
    let (status, usage) = server.ask(Method::GET, "/api/usage").bearer(token).answer().await;
    assert_eq!(status, 200, "{usage}");
    (usage["used"]["staging"].as_u64().unwrap(), usage["used"]["image_editing"].as_u64().unwrap())
}

/// How many variations render `render_id` has, as the service holds them.
async fn variations_of(server: &TestApp, token: &str, render_id: &str) -> Vec<Value> {
    let path = format!("/api/v2/renders/{render_id}?include_variations=true");
    let (status, render) = server.ask(Method::GET, &path).bearer(token).answer().await;
    assert_eq!(status, 200, "{render}");
    render["variations"]["items"].as_array().unwrap().clone()
}

fn id(render: &Value) -> String {
    render["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn image_editing_added_to_a_staging_render_is_charged_as_image_editing_on_every_path() {
    let server = TestApp::with_tokens(&["--allowance", "staging=5,image-editing=1"]).await;
    let alice = server.token("alice");
    let photo = server.sample_url("living-empty.jpg").await;
    let (first, second) = (id(&server.staged(&alice, &photo, 1).await), id(&server.staged(&alice, &photo, 1).await));

    assert_eq!(add(&server, &alice, &first, staging(), false).await.0, 200, "a regeneration");
    assert_eq!(used(&server, &alice).await, (2, 0), "is free");
    assert_eq!(add(&server, &alice, &first, enhancement(), false).await.0, 200);
    assert_eq!(used(&server, &alice).await, (2, 1), "an enhancement of a staging render costs image editing");
    let dusk = json!({"type": "daytodusk", "sky_style": "golden"});
    assert_eq!(add(&server, &alice, &first, dusk.clone(), false).await.0, 200, "image editing is paid for now");

    let (status, refused) = add(&server, &alice, &second, enhancement(), false).await;
    assert_eq!(status, 429, "{refused}");
    let sentence = refused["message"].as_str().unwrap();
    assert!(sentence.contains("image editing allowance") && sentence.contains("1 of 1"), "{sentence}");
    let (status, refused) = add_in_bulk(&server, &alice, &[(&first, dusk.clone()), (&second, dusk.clone())]).await;
    assert_eq!(status, 429, "in bulk too: {refused}");
    assert_eq!(variations_of(&server, &alice, &second).await.len(), 1, "nothing of it reached the service");
    assert_eq!(add_in_bulk(&server, &alice, &[(&first, dusk.clone()), (&first, enhancement())]).await.0, 200);
    assert_eq!(used(&server, &alice).await, (2, 1), "what the render is charged for, in bulk");
}

#[tokio::test]
async fn ten_enhancements_at_once_pay_once_with_an_allowance_none_without_one_and_nothing_at_zero() {
    let postgres = tokio::task::spawn_blocking(|| vstage_postgres_cluster::Cluster::fresh_test_database("spending"))
        .await
        .unwrap()
        .unwrap();
    for (allowance, status, charged, database) in [
        ("staging=5,image-editing=0", 429, 0, None),
        ("staging=5,image-editing=3", 200, 1, None),
        ("staging=5", 200, 1, None),
        ("staging=5,image-editing=3", 200, 1, Some(postgres.as_str())),
    ] {
        let mut args = vec!["--allowance", allowance, "--rate-limit", "0"];
        args.extend(database.iter().flat_map(|url| ["--database", url]));
        let server = TestApp::with_tokens(&args).await;
        let alice = server.token("alice");
        let photo = server.sample_url("living-empty.jpg").await;
        let render = id(&server.staged(&alice, &photo, 1).await);
        let at_once = (0..10).map(|_| add(&server, &alice, &render, enhancement(), false));
        let statuses: Vec<u16> = futures_util::future::join_all(at_once).await.into_iter().map(|(s, _)| s).collect();
        assert!(statuses.iter().all(|each| *each == status), "{allowance} {database:?}: {statuses:?}");
        assert_eq!(used(&server, &alice).await, (1, charged), "{allowance} {database:?}");
        let made = if status == 200 { 11 } else { 1 };
        assert_eq!(variations_of(&server, &alice, &render).await.len(), made, "{allowance} {database:?}");
    }
}

#[tokio::test]
async fn a_failed_renders_refund_lasts_only_while_it_produces_nothing() {
    let server = TestApp::with_tokens(&["--allowance", "staging=4"]).await;
    let alice = server.token("alice");
    let failing = format!("{}?sandbox-fail", server.sample_url("living-empty.jpg").await);
    for round in 0..2 {
        let render = server.create_render(Some(&alice), &failing, staging(), true).await;
        let variations = variations_of(&server, &alice, &id(&render)).await;
        assert!(variations.iter().all(|variation| variation["status"] == "error"), "{variations:?}");
        assert_eq!(used(&server, &alice).await, (round, 0), "read failed whole: its photo given back");
        assert_eq!(add(&server, &alice, &id(&render), staging(), true).await.0, 200);
        assert_eq!(used(&server, &alice).await, (round + 1, 0), "what is added to it pays again");
        let again = variations_of(&server, &alice, &id(&render)).await;
        assert!(again.iter().all(|variation| variation["status"] == "error"), "{again:?}");
        assert_eq!(used(&server, &alice).await, (round, 0), "the addition failed too: given back as well");
        assert_eq!(add(&server, &alice, &id(&render), staging(), false).await.0, 200);
        assert_eq!(used(&server, &alice).await, (round + 1, 0), "and what is added since pays");
    }
    // Four photos given back this month, as many as the allowance: what fails next stays charged, so photos the
    // service fails (and may bill) draw at most twice the allowance from the account.
    let render = server.create_render(Some(&alice), &failing, staging(), true).await;
    let variations = variations_of(&server, &alice, &id(&render)).await;
    assert!(variations.iter().all(|variation| variation["status"] == "error"), "{variations:?}");
    assert_eq!(used(&server, &alice).await, (3, 0), "the month's refunds of failed renders reached the allowance");
    server.create_render(Some(&alice), &failing, staging(), true).await;
    let body = json!({"image_url": failing, "variation_count": 1, "config": staging()});
    let (status, refused) = server.ask(Method::POST, "/api/v2/renders").bearer(&alice).json(&body).answer().await;
    assert_eq!(
        status, 429,
        "two photos spent on what the additions might make, two on failures past the bound: {refused}"
    );
}

#[tokio::test]
async fn open_access_reads_its_own_allowance_at_api_usage_and_the_account_at_v2_user() {
    let server = TestApp::start(&["--allowance", "staging=3"]).await;
    let photo = server.sample_url("living-empty.jpg").await;
    server.create_render(None, &photo, staging(), false).await;

    let (status, usage) = server.ask(Method::GET, "/api/usage").answer().await;
    assert_eq!(status, 200, "{usage}");
    let own: vstage_api::User = serde_json::from_value(usage.clone()).expect("the studio reads it");
    assert_eq!(own.staging_usage(), (1, &vstage_api::Limit::Photos(3)), "{usage}");
    assert_eq!(own.image_editing_usage(), (0, &vstage_api::Limit::Unlimited), "not limited of its own");
    assert_eq!(own.renews_at, usage["period"]["end"].as_i64(), "{usage}");
    assert_eq!(own.user, None, "never the operator's identity");
    let (status, user) = server.ask(Method::GET, "/api/v2/user").answer().await;
    assert_eq!(status, 200, "{user}");
    assert_eq!(user["photoLimit"]["staging"], 100, "the operator sees the account's figures: {user}");
    // the account's own period (the sandbox's renews monthly), not the token's allowance
    let renews = user["renewsAt"].as_i64().expect("the sandbox says when its account renews");
    assert!(renews > vstage_api::time::now_millis(), "{user}");

    for _ in 0..2 {
        server.create_render(None, &photo, staging(), false).await;
    }
    let body = json!({"image_url": photo, "variation_count": 1, "config": staging()});
    let (status, refused) = server.ask(Method::POST, "/api/v2/renders").json(&body).answer().await;
    assert_eq!(status, 429, "{refused}");
    let sentence = refused["message"].as_str().unwrap();
    assert!(
        sentence.contains("3 of 3 photos used") && sentence.contains("`vstage allowance set` raises it"),
        "{sentence}"
    );
    assert!(!sentence.contains("listing site"), "no listing site to ask on the operator's own studio: {sentence}");
}

use super::*;

#[test]
fn a_period_is_a_calendar_month_in_utc_unless_set_otherwise() {
    // 2026-11-27T17:00:00Z, a Friday
    let at = 1_795_798_800_000;
    let month = AllowancePeriod::default().containing(at);
    assert_eq!(month.start, 1_793_491_200_000, "1 November 2026");
    assert_eq!(month.end, 1_796_083_200_000, "1 December 2026");
    assert_eq!(month.renews_on(), "1 December 2026");
    assert_eq!(AllowancePeriod::default().containing(month.end + 1).renews_on(), "1 January 2027");
    assert_eq!(AllowancePeriod::default().containing(month.end - 1), month, "the last moment is in it");

    let from_the_15th = AllowancePeriod::parse("month:15").unwrap();
    assert_eq!(from_the_15th.containing(at).renews_on(), "15 December 2026");
    let early_in_the_month = at - 20 * 86_400_000; // 7 November
    assert_eq!(from_the_15th.containing(early_in_the_month).renews_on(), "15 November 2026");
    let week = AllowancePeriod::parse("week").unwrap().containing(at);
    assert_eq!((week.start, week.renews_on()), (1_795_392_000_000, "30 November 2026".into()), "Monday 23rd");
    assert_eq!(AllowancePeriod::parse("day").unwrap().containing(at).renews_on(), "28 November 2026");
    for wrong in ["month:29", "month:0", "fortnight", "month:x"] {
        assert!(AllowancePeriod::parse(wrong).is_err(), "{wrong}");
    }
}
