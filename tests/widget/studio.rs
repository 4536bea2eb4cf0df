//! The studio's components that hold logic, mounted in headless Chromium: the configuration form (validation,
//! the multi-config total kept at 20, a staged exterior the listing's rules forbid), the photo address field, the
//! before/after slider with the keyboard, the ETA bar, the pager, and the live module's polling schedule and its
//! answers to a reconnect and a reset, and the hooks over browser APIs.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use leptos::prelude::*;
use vstage_api::validate::Problem;
use vstage_api::{Rule, ValidationError};
use vstage_widget::components::before_after::BeforeAfter;
use vstage_widget::components::config_list::ConfigList;
use vstage_widget::components::eta_bar::{EtaBar, eta_words};
use vstage_widget::components::image_viewer::ImageViewer;
use vstage_widget::components::pager::Pager;
use vstage_widget::components::photo_address::PhotoAddress;
use vstage_widget::config_draft::{ConfigDraft, Kind, count_limit};
use vstage_widget::hooks::use_animation_frame::use_animation_frame;
use vstage_widget::hooks::use_polling::{MAX_POLL_MS, MIN_POLL_MS, next_poll_delay};
use vstage_widget::hooks::use_resize_observer::use_resize_observer;
use vstage_widget::host::ListingDisclosure;
use vstage_widget::live::{Channel, Live, follow_render};
use vstage_widget::locale::{Locale, provide_locale};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

use crate::support::{container, provide_studio_api};

/// Lets Leptos run the effects a change scheduled.
async fn settle() {
    gloo_timers::future::TimeoutFuture::new(20).await;
}

/// The browser's next animation frame (resize observations of a frame are delivered in it, after its callbacks).
async fn next_frame() {
    let frame = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window().unwrap().request_animation_frame(&resolve).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(frame).await.unwrap();
}

/// Waits frame by frame until `holds`, however slowly the browser makes frames (failing after 600 of them).
async fn until_a_frame_when(holds: impl Fn() -> bool, what: &str) {
    for _ in 0..600 {
        if holds() {
            return;
        }
        next_frame().await;
    }
    panic!("{what} after 600 frames");
}

fn find<T: JsCast>(root: &web_sys::HtmlElement, selector: &str) -> T {
    root.query_selector(selector).unwrap().unwrap_or_else(|| panic!("no {selector}")).unchecked_into()
}

fn find_all(root: &web_sys::HtmlElement, selector: &str) -> Vec<web_sys::Element> {
    let list = root.query_selector_all(selector).unwrap();
    (0..list.length()).filter_map(|i| list.item(i)).map(|node| node.unchecked_into()).collect()
}

/// Types `value` into an input as a person would (an `input` event follows).
fn type_into(input: &web_sys::HtmlInputElement, value: &str) {
    input.set_value(value);
    input.dispatch_event(&web_sys::Event::new_with_event_init_dict("input", &bubbling()).unwrap()).unwrap();
}

fn choose(select: &web_sys::HtmlSelectElement, value: &str) {
    select.set_value(value);
    select.dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &bubbling()).unwrap()).unwrap();
}

fn bubbling() -> web_sys::EventInit {
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    init
}

fn press(target: &web_sys::Element, key: &str, shift: bool) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_shift_key(shift);
    init.set_bubbles(true);
    init.set_cancelable(true);
    target
        .dispatch_event(&web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap())
        .unwrap();
}

// ---- the configuration form ----

#[wasm_bindgen_test]
fn each_kind_becomes_the_contracts_config_and_removal_counts_double() {
    let mut draft = ConfigDraft::default();
    let staging = serde_json::to_value(draft.to_config()).unwrap();
    assert_eq!(staging["type"], "staging");
    assert_eq!(staging["add_furniture"]["room_type"], "living");
    assert!(staging.get("remove_furniture").is_none(), "no removal unless asked");
    assert_eq!(draft.weight(), 1);
    draft.removal = vstage_api::RemovalMode::Auto;
    assert_eq!(draft.weight(), 2, "each staged variation brings its empty room");
    draft.kind = Kind::Declutter;
    let declutter = serde_json::to_value(draft.to_config()).unwrap();
    assert_eq!(declutter["remove_furniture"]["mode"], "on");
    assert!(declutter.get("add_furniture").is_none());
    draft.kind = Kind::DayToDusk;
    draft.sky = vstage_api::SkyStyle::Golden;
    assert_eq!(serde_json::to_value(draft.to_config()).unwrap()["sky_style"], "golden");
    let on_base = ConfigDraft { removal: vstage_api::RemovalMode::On, ..ConfigDraft::staging_on("var_1") };
    let value = serde_json::to_value(on_base.to_config()).unwrap();
    assert_eq!(value["add_furniture"]["base_variation_id"], "var_1");
    assert!(value.get("remove_furniture").is_none(), "a base is already empty");
    assert_eq!(on_base.weight(), 1);
}

#[wasm_bindgen_test]
fn the_count_limit_leaves_room_for_the_other_configurations() {
    let twelve = ConfigDraft { count: 12, ..ConfigDraft::default() };
    let removal = ConfigDraft { removal: vstage_api::RemovalMode::On, ..ConfigDraft::default() };
    assert_eq!(count_limit(&[twelve.clone(), ConfigDraft::default()], 1, 0), 8);
    assert_eq!(count_limit(&[twelve.clone(), removal.clone()], 1, 0), 4, "two variations per count");
    assert_eq!(count_limit(&[ConfigDraft::default()], 0, 15), 5, "what the render already has counts");
    assert_eq!(count_limit(&[ConfigDraft::default()], 0, 20), 0);
}

#[wasm_bindgen_test]
async fn the_form_says_at_once_when_a_count_is_more_than_twenty_and_never_changes_it() {
    let root = container();
    let drafts = RwSignal::new(vec![(0u32, ConfigDraft::default())]);
    let error = RwSignal::new(None::<ValidationError>);
    let _mounted = leptos::mount::mount_to(root.clone(), move || {
        provide_studio_api();
        view! { <ConfigList drafts existing=Signal::stored(0) error multiple=true /> }
    });
    let picture: web_sys::HtmlImageElement = find(&root, "img.vstage-example");
    assert!(picture.src().contains("/api/examples/style/"), "each style is shown by the server's picture of it");
    let count: web_sys::HtmlInputElement = find(&root, "input.vstage-count");
    type_into(&count, "500");
    settle().await;
    assert_eq!(drafts.get_untracked()[0].1.count, 500, "kept as typed, never clamped");
    assert_eq!(count.value(), "500");
    assert!(root.text_content().unwrap().contains("at most 20 here"));

    type_into(&count, "20");
    settle().await;
    choose(&find(&root, "select[id$='-removal']"), "on");
    settle().await;
    assert_eq!(drafts.get_untracked()[0].1.count, 20, "removal doubles each: the count stays, the note says so");
    assert!(root.text_content().unwrap().contains("at most 10 here"));
    let add: web_sys::HtmlButtonElement = find_all(&root, "button")
        .into_iter()
        .find(|b| b.text_content().unwrap_or_default().contains("Add another"))
        .unwrap()
        .unchecked_into();
    assert!(add.disabled(), "no room for another configuration");

    choose(&find(&root, "select[id$='-removal']"), "off");
    type_into(&count, "12");
    settle().await;
    add.click();
    settle().await;
    let counts = find_all(&root, "input.vstage-count");
    assert_eq!(counts.len(), 2);
    let second: web_sys::HtmlInputElement = counts[1].clone().unchecked_into();
    type_into(&second, "9");
    settle().await;
    assert_eq!(drafts.get_untracked()[1].1.count, 9);
    assert!(find_all(&root, "fieldset")[1].text_content().unwrap().contains("at most 8 here"), "12 + 8 = 20");

    // an error about the second configuration's count shows in its fieldset, not the first
    error.set(Some(ValidationError::new(
        "configs[1].variation_count",
        Rule::Range,
        Problem::VariationCount { max: 20 },
    )));
    settle().await;
    let fieldsets = find_all(&root, "fieldset");
    assert!(!fieldsets[0].text_content().unwrap().contains("between 1 and 20"));
    assert!(fieldsets[1].text_content().unwrap().contains("between 1 and 20"));
    assert_eq!(second.get_attribute("aria-invalid").as_deref(), Some("true"));
}

#[wasm_bindgen_test]
async fn a_staged_exterior_the_listing_s_rules_forbid_is_said_before_the_click() {
    let root = container();
    let rules = RwSignal::new(Some("maar".to_string()));
    let drafts = RwSignal::new(vec![(0u32, ConfigDraft::default())]);
    let _mounted = leptos::mount::mount_to(root.clone(), move || {
        provide_studio_api();
        provide_context(ListingDisclosure(rules.into()));
        view! { <ConfigList drafts existing=Signal::stored(0) error=Signal::stored(None) /> }
    });
    let said = |root: &web_sys::HtmlElement| root.text_content().unwrap().contains("do not allow a staged exterior");
    settle().await;
    assert!(!said(&root), "a living room may be staged");
    choose(&find(&root, "select[id$='-room']"), "outdoor");
    settle().await;
    assert!(said(&root) && root.text_content().unwrap().contains("(MAAR)"), "said under MAAR's rules");
    assert_eq!(drafts.get_untracked()[0].1.room_type, vstage_api::RoomType::Outdoor, "the choice stays the agent's");
    rules.set(Some("ab723".to_string()));
    settle().await;
    assert!(!said(&root), "AB 723 lets an exterior be staged, with its disclosure");
}

// ---- the photo address field ----

#[wasm_bindgen_test]
async fn a_photo_address_field_takes_one_address_or_several_with_what_is_wrong_under_it() {
    let root = container();
    let one = RwSignal::new(String::new());
    let refused_one = RwSignal::new(false);
    let several = RwSignal::new(String::new());
    let not_addresses = RwSignal::new(Vec::<String>::new());
    let _mounted = leptos::mount::mount_to(root.clone(), move || {
        view! {
            <PhotoAddress id="one" label="Photo address" placeholder="https://…/a.jpg" value=one
                on_input=move |typed: String| one.set(typed.trim().to_string()) invalid=refused_one />
            <PhotoAddress id="several" label="Photo addresses" placeholder="https://…/b.jpg" several=true
                value=several on_input=move |typed| several.set(typed) errors=not_addresses>
                <button type="button">"Add these"</button>
            </PhotoAddress>
        }
    });
    settle().await;
    let input: web_sys::HtmlInputElement = find(&root, "input#one[type=url]");
    assert_eq!(input.placeholder(), "https://…/a.jpg");
    assert_eq!(find::<web_sys::HtmlElement>(&root, "label[for=one]").text_content().as_deref(), Some("Photo address"));
    assert_eq!(input.get_attribute("aria-invalid").as_deref(), Some("false"));
    type_into(&input, " https://p.example/a.jpg ");
    assert_eq!(one.get_untracked(), "https://p.example/a.jpg", "what was typed, as the form takes it");
    refused_one.set(true);
    settle().await;
    assert_eq!(input.get_attribute("aria-invalid").as_deref(), Some("true"));

    let area: web_sys::HtmlTextAreaElement = find(&root, "textarea#several");
    assert_eq!(area.get_attribute("aria-invalid"), None, "not said when the form does not say");
    area.set_value("https://p.example/b.jpg\nkitchen.jpg");
    area.dispatch_event(&web_sys::Event::new_with_event_init_dict("input", &bubbling()).unwrap()).unwrap();
    assert_eq!(several.get_untracked(), "https://p.example/b.jpg\nkitchen.jpg");
    not_addresses.set(vec!["\"kitchen.jpg\" is not a web address.".into()]);
    settle().await;
    let field = area.parent_element().unwrap();
    let children = field.children();
    let tags: Vec<String> = (0..children.length()).filter_map(|i| children.item(i)).map(|c| c.tag_name()).collect();
    assert_eq!(tags, ["LABEL", "TEXTAREA", "P", "BUTTON"], "the errors, then the form's actions");
    assert_eq!(field.class_name(), "vstage-field");
    let error: web_sys::HtmlElement = find(&root, "#several ~ p.vstage-error[role=alert]");
    assert!(error.text_content().unwrap().contains("kitchen.jpg"));
}

// ---- the image viewer ----

#[wasm_bindgen_test]
async fn the_image_viewer_follows_the_studio_s_language_while_open() {
    let root = container();
    let lang = RwSignal::new(Some("en".to_string()));
    let open = RwSignal::new(None);
    let _mounted = leptos::mount::mount_to(root.clone(), move || {
        let locale = provide_locale(lang.into());
        let title =
            Signal::derive(move || if locale.get() == Locale::fr { "Photo d’origine" } else { "Original" }.into());
        open.set(Some(("data:image/png;base64,".to_string(), title)));
        view! { <ImageViewer open /> }
    });
    settle().await;
    let text = || root.text_content().unwrap();
    assert!(text().contains("Original") && text().contains("100%"), "{}", text());
    lang.set(Some("fr".into()));
    settle().await;
    assert!(text().contains("Photo d’origine"), "the open viewer's title follows: {}", text());
    assert!(text().contains("100\u{a0}%") || text().contains("100\u{202f}%"), "French percent: {}", text());
    let dialog: web_sys::HtmlElement = find(&root, "[role=dialog]");
    assert_eq!(dialog.get_attribute("aria-label").as_deref(), Some("Photo d’origine"));
}

// ---- the before/after slider ----

#[wasm_bindgen_test]
async fn the_slider_moves_with_the_keyboard() {
    let root = container();
    let _mounted = leptos::mount::mount_to(root.clone(), || {
        view! { <BeforeAfter before="data:," after="data:," before_label="the original photo" after_label="the staged result" /> }
    });
    let handle: web_sys::Element = find(&root, "[role=slider]");
    assert_eq!(handle.get_attribute("aria-valuenow").as_deref(), Some("50"));
    assert!(handle.get_attribute("aria-label").unwrap().contains("the original photo"));
    let steps = [
        ("ArrowRight", false, "55"),
        ("ArrowLeft", true, "54"),
        ("End", false, "100"),
        ("ArrowRight", false, "100"),
        ("Home", false, "0"),
        ("PageUp", false, "25"),
    ];
    for (key, shift, expected) in steps {
        press(&handle, key, shift);
        settle().await;
        assert_eq!(handle.get_attribute("aria-valuenow").as_deref(), Some(expected), "{key}");
    }
    let before: web_sys::HtmlElement = find(&root, ".vstage-compare__before");
    assert_eq!(before.style().get_property_value("clip-path").unwrap(), "inset(0px 75% 0px 0px)");
}

// ---- the ETA bar ----

#[wasm_bindgen_test]
async fn the_eta_bar_counts_down_and_never_below_zero() {
    let root = container();
    let now = RwSignal::new(4_000_i64);
    let _mounted = leptos::mount::mount_to(root.clone(), move || view! { <EtaBar start=0 eta=10_000 now /> });
    let bar: web_sys::Element = find(&root, "[role=progressbar]");
    assert_eq!(bar.get_attribute("aria-valuenow").as_deref(), Some("40"));
    assert!(root.text_content().unwrap().contains("About 6 s left"));
    now.set(9_500);
    settle().await;
    assert_eq!(bar.get_attribute("aria-valuenow").as_deref(), Some("95"));
    assert!(root.text_content().unwrap().contains("About 1 s left"));
    now.set(15_000);
    settle().await;
    assert_eq!(bar.get_attribute("aria-valuenow").as_deref(), Some("100"));
    assert!(root.text_content().unwrap().contains("Any moment now"));
    assert_eq!(eta_words(Locale::en, 125_000), "About 3 min left");
    assert_eq!(eta_words(Locale::de, 125_000), "Noch etwa 3 min");
}

// ---- the pager ----

#[wasm_bindgen_test]
async fn the_pager_asks_for_more_until_everything_is_shown() {
    let root = container();
    let has_more = RwSignal::new(true);
    let loading = RwSignal::new(false);
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = asked.clone();
    let _mounted = leptos::mount::mount_to(root.clone(), move || {
        let counter = counter.clone();
        view! {
            <Pager has_more loading shown=Signal::stored(23usize) on_more=move |()| { counter.fetch_add(1, Ordering::SeqCst); } />
        }
    });
    let button: web_sys::HtmlButtonElement = find(&root, "button");
    assert_eq!(button.text_content().as_deref(), Some("Load more"));
    button.click();
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    loading.set(true);
    settle().await;
    let button: web_sys::HtmlButtonElement = find(&root, "button");
    assert!(button.disabled());
    assert_eq!(button.text_content().as_deref(), Some("Loading…"));
    has_more.set(false);
    settle().await;
    assert!(root.query_selector("button").unwrap().is_none());
    assert!(root.text_content().unwrap().contains("All 23 shown."));
}

// ---- the live module's polling schedule ----

#[wasm_bindgen_test]
fn polling_starts_at_the_eta_then_backs_off_and_stops_when_all_are_final() {
    let now = 1_000_000;
    assert_eq!(next_poll_delay(now, &[], 0), None, "nothing pending: no polling");
    assert_eq!(next_poll_delay(now, &[Some(now + 4_000), Some(now + 9_000)], 0), Some(4_000), "the earliest eta");
    assert_eq!(next_poll_delay(now, &[Some(now + 200)], 0), Some(MIN_POLL_MS), "never more than once a second");
    assert_eq!(next_poll_delay(now, &[Some(now + 600_000)], 0), Some(MAX_POLL_MS), "a far eta is checked anyway");
    let late: Vec<u32> = (0..8).map(|checks| next_poll_delay(now, &[Some(now - 5_000)], checks).unwrap()).collect();
    assert_eq!(late, [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    assert_eq!(next_poll_delay(now, &[None], 0), Some(MIN_POLL_MS), "no eta: check soon, then back off");
}

#[wasm_bindgen_test]
async fn a_reset_reads_the_render_again_where_a_fresh_stream_with_nothing_pending_does_not() {
    let live = Live::new(Channel::Events);
    let reads = Arc::new(AtomicUsize::new(0));
    let counted = reads.clone();
    let _handle = leptos::mount::mount_to(container(), move || {
        provide_context(live);
        let refresh = {
            let counted = counted.clone();
            move || {
                counted.fetch_add(1, Ordering::SeqCst);
            }
        };
        // Every variation is final: nothing is pending.
        let followed = StoredValue::new(true);
        follow_render(Signal::stored("rnd_1".to_string()), Signal::stored(Vec::new()), followed, refresh, |_| true);
    });
    settle().await;
    assert_eq!(reads.load(Ordering::SeqCst), 0);
    live.opened_afresh.set(1);
    settle().await;
    assert_eq!(reads.load(Ordering::SeqCst), 0, "a stream opened afresh with nothing pending missed nothing");
    live.reset.set(1);
    settle().await;
    assert_eq!(reads.load(Ordering::SeqCst), 1, "after a reset the render is read again");
}

/// Mounts `follow_render` of one render with a variation due in ten minutes under `live` (its safety poll is
/// half a minute away, long after these tests end); the count of its reads.
fn follow_with(live: Live) -> (Arc<AtomicUsize>, leptos::mount::UnmountHandle<impl Mountable>) {
    let pending = vec![Some(js_sys::Date::now() as i64 + 600_000)];
    let reads = Arc::new(AtomicUsize::new(0));
    let counted = reads.clone();
    let handle = leptos::mount::mount_to(container(), move || {
        provide_context(live);
        let counted = counted.clone();
        let refresh = move || {
            counted.fetch_add(1, Ordering::SeqCst);
        };
        let followed = StoredValue::new(live.follows_reads_now());
        follow_render(Signal::stored("rnd_1".to_string()), Signal::stored(pending.clone()), followed, refresh, |_| {
            true
        });
    });
    (reads, handle)
}

#[wasm_bindgen_test]
async fn a_render_read_before_the_stream_knew_its_start_is_read_again_when_it_opens_once() {
    let live = Live::new(Channel::Starting);
    let (reads, _handle) = follow_with(live);
    settle().await;
    live.channel.set(Channel::Events);
    settle().await;
    assert_eq!(reads.load(Ordering::SeqCst), 1, "what happened before the stream may be missed");
    live.channel.set(Channel::Polling);
    settle().await;
    live.channel.set(Channel::Events);
    settle().await;
    assert_eq!(reads.load(Ordering::SeqCst), 1, "a stream that reopens resumes: nothing more to read");
}

#[wasm_bindgen_test]
async fn a_render_read_after_the_servers_start_is_not_read_again_when_the_stream_opens() {
    let live = Live::new(Channel::Starting).starting_after("41");
    let (reads, _handle) = follow_with(live);
    settle().await;
    live.channel.set(Channel::Events);
    settle().await;
    assert_eq!(reads.load(Ordering::SeqCst), 0, "the stream brings every event after the start");
    live.opened_afresh.set(1);
    settle().await;
    assert_eq!(reads.load(Ordering::SeqCst), 1, "a stream opened afresh may have missed its end");
}

#[wasm_bindgen_test]
async fn many_requests_in_one_frame_run_the_work_once() {
    let runs = Arc::new(AtomicUsize::new(0));
    let counted = runs.clone();
    let schedule = StoredValue::new_local(None::<Box<dyn Fn()>>);
    let _handle = leptos::mount::mount_to(container(), move || {
        let counted = counted.clone();
        let request = use_animation_frame(move || {
            counted.fetch_add(1, Ordering::SeqCst);
        });
        schedule.set_value(Some(Box::new(request)));
    });
    schedule.with_value(|request| {
        let request = request.as_ref().unwrap();
        request();
        request();
        request();
    });
    assert_eq!(runs.load(Ordering::SeqCst), 0, "nothing runs before the frame");
    until_a_frame_when(|| runs.load(Ordering::SeqCst) >= 1, "the work runs").await;
    next_frame().await;
    next_frame().await;
    assert_eq!(runs.load(Ordering::SeqCst), 1, "three requests, one run");
    schedule.with_value(|request| request.as_ref().unwrap()());
    until_a_frame_when(|| runs.load(Ordering::SeqCst) >= 2, "the next frame runs again").await;
}

#[wasm_bindgen_test]
async fn a_resize_is_reported_until_the_component_goes() {
    let resized = Arc::new(AtomicUsize::new(0));
    let counted = resized.clone();
    let target = NodeRef::<leptos::html::Div>::new();
    let handle = leptos::mount::mount_to(container(), move || {
        let counted = counted.clone();
        use_resize_observer(target, move || {
            counted.fetch_add(1, Ordering::SeqCst);
        });
        view! { <div node_ref=target style="width: 100px; height: 20px"></div> }
    });
    until_a_frame_when(|| resized.load(Ordering::SeqCst) >= 1, "observing reports the first size").await;
    let first = resized.load(Ordering::SeqCst);
    let element: web_sys::HtmlElement = target.get_untracked().unwrap().unchecked_into();
    element.style().set_property("width", "150px").unwrap();
    until_a_frame_when(|| resized.load(Ordering::SeqCst) > first, "a new width is reported").await;
    drop(handle);
    let after = resized.load(Ordering::SeqCst);
    element.style().set_property("width", "90px").unwrap();
    // the frame that lays the new width out, and the next: an observer still there would have said so by then
    next_frame().await;
    next_frame().await;
    assert_eq!(resized.load(Ordering::SeqCst), after, "nothing is reported once the component is gone");
}
