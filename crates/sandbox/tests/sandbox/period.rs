//! The sandbox's month ends: an account's photo count belongs to a monthly period that begins when the account is
//! first seen and renews on that day of each month, when the count starts again; `GET /v2/user` says when
//! (`renewsAt`). The accounts' clock is the test's, so nothing waits for a month or races the real clock.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use crate::support::{answer, raw, sandbox_with};
use reqwest::Method;
use serde_json::json;
use vstage_sandbox::{Clock, RunningSandbox, SandboxConfig};

/// 2026-01-31T10:00:00Z, then the same time on 28 February and 31 March.
const JANUARY_31: i64 = 1_769_853_600_000;
const FEBRUARY_28: i64 = JANUARY_31 + 28 * 86_400_000;
const MARCH_31: i64 = FEBRUARY_28 + 31 * 86_400_000;

async fn render(sandbox: &RunningSandbox) -> u16 {
    let body = json!({
        "config": {"type": "staging", "add_furniture": {"room_type": "living", "style": "modern"}},
        "image_url": format!("{}/samples/living-empty.jpg", sandbox.base_url()), "variation_count": 1
    });
    answer(raw(sandbox, Method::POST, "/v2/renders", "k").json(&body)).await.0
}

#[tokio::test]
async fn the_count_starts_again_when_the_month_renews() {
    let now = Arc::new(AtomicI64::new(JANUARY_31));
    let clock = {
        let now = now.clone();
        Clock::from_fn(move || now.load(Ordering::SeqCst))
    };
    let config = SandboxConfig { processing_ms: 20, photo_limit: 1, clock, ..SandboxConfig::new(vec!["k".into()]) };
    let sandbox = sandbox_with(config).await;
    assert_eq!(render(&sandbox).await, 200);
    assert_eq!(render(&sandbox).await, 403, "the month's one photo is used");
    let (status, user) = answer(raw(&sandbox, Method::GET, "/v2/user", "k")).await;
    assert_eq!(status, 200, "{user}");
    assert_eq!((&user["photosUsedThisPeriod"]["staging"], &user["renewsAt"]), (&json!(1), &json!(FEBRUARY_28)));

    now.store(FEBRUARY_28 - 1, Ordering::SeqCst);
    assert_eq!(render(&sandbox).await, 403, "a millisecond before it renews");
    now.store(FEBRUARY_28, Ordering::SeqCst);
    let (_, ping) = answer(raw(&sandbox, Method::GET, "/v1/ping", "k")).await;
    assert_eq!(ping["photosUsedThisPeriod"], 0, "a new period: {ping}");
    assert_eq!(render(&sandbox).await, 200);
    let (_, user) = answer(raw(&sandbox, Method::GET, "/v2/user", "k")).await;
    assert_eq!((&user["photosUsedThisPeriod"]["staging"], &user["renewsAt"]), (&json!(1), &json!(MARCH_31)));

    // months unused pass in one step; a clock set back keeps the period it had
    now.store(MARCH_31 + 200 * 86_400_000, Ordering::SeqCst);
    let (_, user) = answer(raw(&sandbox, Method::GET, "/v2/user", "k")).await;
    assert_eq!(user["photosUsedThisPeriod"]["staging"], 0, "{user}");
    let renews = user["renewsAt"].as_i64().unwrap();
    assert!(renews > MARCH_31 + 200 * 86_400_000 && renews <= MARCH_31 + 231 * 86_400_000, "{user}");
    now.store(FEBRUARY_28, Ordering::SeqCst);
    let (_, user) = answer(raw(&sandbox, Method::GET, "/v2/user", "k")).await;
    assert_eq!(user["renewsAt"], renews, "{user}");
}
