//! The header's components mounted in headless Chromium: usage meters, the service status badge and the polling
//! note.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use leptos::prelude::*;
use vstage_api::Limit;
use vstage_widget::account::ServiceState;
use vstage_widget::components::polling_note::PollingNote;
use vstage_widget::components::status_badge::StatusBadge;
use vstage_widget::components::usage_meter::{UsageMeter, filled_width};
use vstage_widget::live::Channel;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

use crate::support::container;

fn meter(root: &web_sys::HtmlElement) -> web_sys::Element {
    root.query_selector("[role=meter]").unwrap().expect("the meter has role=meter")
}

#[wasm_bindgen_test]
fn usage_meter_shows_used_of_limit_with_an_accessible_bar() {
    let root = container();
    let _mounted = leptos::mount::mount_to(
        root.clone(),
        || view! { <UsageMeter label="Staging" used=3 limit=Limit::Photos(100) /> },
    );

    let text = root.text_content().unwrap();
    assert!(text.contains("Staging"), "{text}");
    assert!(text.contains("3 of 100"), "{text}");
    let bar = meter(&root);
    assert_eq!(bar.get_attribute("aria-valuenow").as_deref(), Some("3"));
    assert_eq!(bar.get_attribute("aria-valuemax").as_deref(), Some("100"));
    assert_eq!(bar.get_attribute("aria-label").as_deref(), Some("Staging"));
    assert!(bar.get_attribute("aria-valuetext").unwrap().contains("97 left"));
    let fill: web_sys::HtmlElement = bar.first_element_child().unwrap().unchecked_into();
    assert_eq!(fill.style().get_property_value("width").unwrap(), "3%");
    let large = container();
    let _large = leptos::mount::mount_to(
        large.clone(),
        || view! { <UsageMeter label="Staging" used=1250 limit=Limit::Photos(2000) /> },
    );
    assert!(large.text_content().unwrap().contains("1,250 of 2,000"), "counts are written the language's way");
    let classes = root.first_element_child().unwrap().class_name();
    assert!(!classes.contains("--near") && !classes.contains("--reached"), "{classes}");
}

#[wasm_bindgen_test]
fn usage_meter_warns_near_the_limit_and_when_reached() {
    let near = container();
    let _near = leptos::mount::mount_to(
        near.clone(),
        || view! { <UsageMeter label="Image editing" used=45 limit=Limit::Photos(50) /> },
    );
    assert!(near.first_element_child().unwrap().class_name().contains("vstage-meter--near"));

    let reached = container();
    let _reached = leptos::mount::mount_to(
        reached.clone(),
        || view! { <UsageMeter label="Staging" used=120 limit=Limit::Photos(100) /> },
    );
    assert!(reached.first_element_child().unwrap().class_name().contains("vstage-meter--reached"));
    assert_eq!(meter(&reached).get_attribute("aria-valuenow").as_deref(), Some("100"), "the bar does not overflow");
    assert!(reached.text_content().unwrap().contains("120 of 100"), "the text still tells the truth");
}

/// A plan without a number (superdevvs/Repro_Backend's fixture: `"imageEditing": "UNLIMITED"`) shows what was
/// used and no bar; a word vstage does not know is shown as sent.
#[wasm_bindgen_test]
fn usage_meter_of_an_unlimited_plan_shows_what_was_used_and_no_bar() {
    let unlimited = container();
    let _unlimited = leptos::mount::mount_to(unlimited.clone(), || {
        view! { <UsageMeter label="Image editing" used=1250 limit=Limit::Unlimited /> }
    });
    let text = unlimited.text_content().unwrap();
    assert!(text.contains("Image editing") && text.contains("1,250 used, no limit"), "{text}");
    assert!(unlimited.query_selector("[role=meter]").unwrap().is_none(), "no bar to fill");
    let classes = unlimited.first_element_child().unwrap().class_name();
    assert!(!classes.contains("--near") && !classes.contains("--reached"), "{classes}");

    let other = container();
    let _other = leptos::mount::mount_to(other.clone(), || {
        view! { <UsageMeter label="Staging" used=2 limit=Limit::Other("per-seat".into()) /> }
    });
    assert!(other.text_content().unwrap().contains("2 used (per-seat)"));
}

#[wasm_bindgen_test]
fn the_bar_is_filled_to_a_tenth_and_never_past_its_end() {
    assert_eq!(filled_width(0, 100), "0.0%");
    assert_eq!(filled_width(1, 3), "33.3%", "rounded down");
    assert_eq!(filled_width(2, 3), "66.6%");
    assert_eq!(filled_width(120, 100), "100.0%");
    assert_eq!(filled_width(0, 0), "100.0%", "a plan without photos is full");
    assert_eq!(filled_width(u64::MAX, u64::MAX), "100.0%", "no overflow");
}

#[wasm_bindgen_test]
async fn status_badge_follows_the_state_and_offers_a_retry_when_unreachable() {
    let root = container();
    let state = RwSignal::new(ServiceState::Checking);
    let retries = Arc::new(AtomicUsize::new(0));
    let counter = retries.clone();
    let _mounted = leptos::mount::mount_to(root.clone(), move || {
        let counter = counter.clone();
        view! { <StatusBadge state=state on_retry=move |()| { counter.fetch_add(1, Ordering::SeqCst); } /> }
    });
    let live = root.query_selector("[role=status]").unwrap().expect("a live region");
    assert_eq!(live.get_attribute("aria-live").as_deref(), Some("polite"));
    assert!(root.text_content().unwrap().contains("Checking"));
    assert!(root.query_selector("button").unwrap().is_none(), "no retry while checking");

    state.set(ServiceState::Online);
    leptos::task::tick().await;
    assert!(root.text_content().unwrap().contains("Online"));

    state.set(ServiceState::Unreachable { reason: "Could not reach the staging service.".into() });
    leptos::task::tick().await;
    let text = root.text_content().unwrap();
    assert!(text.contains("Unreachable") && text.contains("Could not reach"), "{text}");
    let retry: web_sys::HtmlElement = root.query_selector("button").unwrap().expect("a retry button").unchecked_into();
    retry.click();
    assert_eq!(retries.load(Ordering::SeqCst), 1);
}

#[wasm_bindgen_test]
async fn mode_badge_names_the_sandbox_and_shows_nothing_when_unknown() {
    use vstage_widget::components::mode_badge::ModeBadge;
    let root = container();
    let mode = RwSignal::new(None::<String>);
    let _mounted = leptos::mount::mount_to(root.clone(), move || view! { <ModeBadge mode=mode /> });
    assert_eq!(root.text_content().unwrap(), "", "nothing while the server has not said");

    mode.set(Some("sandbox".into()));
    leptos::task::tick().await;
    let badge = root.query_selector(".vstage-mode--sandbox").unwrap().expect("a sandbox badge");
    assert_eq!(badge.text_content().unwrap(), "Sandbox");
    assert!(badge.get_attribute("title").unwrap().contains("SANDBOX"));

    mode.set(Some("upstream".into()));
    leptos::task::tick().await;
    assert_eq!(root.text_content().unwrap(), "Live");
}

#[wasm_bindgen_test]
async fn the_polling_note_shows_only_while_changes_come_by_polling() {
    let root = container();
    let channel = RwSignal::new(Channel::Starting);
    let _mounted = leptos::mount::mount_to(root.clone(), move || view! { <PollingNote channel=channel /> });
    assert_eq!(root.text_content().unwrap(), "", "nothing while the server is asked");

    channel.set(Channel::Polling);
    leptos::task::tick().await;
    let note = root.query_selector(".vstage-polling").unwrap().expect("the note");
    assert_eq!(note.text_content().unwrap(), "Updates every few seconds");
    assert!(note.get_attribute("title").unwrap().contains("Live updates are not available"));

    channel.set(Channel::Events);
    leptos::task::tick().await;
    assert!(root.query_selector(".vstage-polling").unwrap().is_none(), "gone once events stream");
}
