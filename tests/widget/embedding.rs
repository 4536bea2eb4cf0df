//! The embedding's pieces in headless Chromium: the route model (paths, the `view` attribute, memory against the
//! page's address), the host events' details as plain objects, and the notice a panic leaves in each widget.

use std::sync::{Arc, Mutex};

use js_sys::Reflect;
use leptos::prelude::*;
use vstage_api::host_events::ResultChosen;
use vstage_api::{ResultImage, Variation, VariationResult, VariationStatus, VariationType};
use vstage_widget::crash;
use vstage_widget::host::{Host, RESULT_CHOSEN, event_detail};
use vstage_widget::route::{Back, History, Route, provide_navigator};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use crate::support::container;

#[wasm_bindgen_test]
fn paths_and_routes_round_trip() {
    for route in [
        Route::Renders,
        Route::NewRender,
        Route::Board,
        Route::Render { id: "rnd_0123abc".into(), back: Back::Renders },
        Route::Render { id: "rnd_0123abc".into(), back: Back::Board },
        Route::RemoveFurniture,
        Route::Account,
        Route::Classic,
        Route::ClassicNew,
        Route::ClassicRender { id: "rnd_v1abc".into() },
    ] {
        assert_eq!(Route::from_path(&route.path()), route);
    }
    assert_eq!(Route::from_path("/account/"), Route::Account);
    // a render opened from the board keeps its way back in its address
    assert_eq!(Route::from_path("/board/renders/rnd_7/"), Route::Render { id: "rnd_7".into(), back: Back::Board });
    assert_eq!(Route::Render { id: "rnd_7".into(), back: Back::Board }.path(), "/board/renders/rnd_7");
    assert_eq!((Back::Board.route(), Back::Renders.route()), (Route::Board, Route::Renders));
    assert!(matches!(Route::from_path("/board/renders/"), Route::NotFound { .. }));
    assert!(matches!(Route::from_path("/renders/<script>"), Route::NotFound { .. }));
    assert!(matches!(Route::from_path("/no/such"), Route::NotFound { .. }));
}

#[wasm_bindgen_test]
fn the_view_attribute_names_a_screen_or_says_what_is_wrong() {
    assert_eq!(Route::from_view(None, None), Ok(Route::Renders));
    assert_eq!(Route::from_view(Some("new-render"), None), Ok(Route::NewRender));
    assert_eq!(Route::from_view(Some("board"), None), Ok(Route::Board));
    assert_eq!(Route::from_view(Some("classic-render"), Some("r1")), Ok(Route::ClassicRender { id: "r1".into() }));
    assert!(Route::from_view(Some("classic-render"), None).unwrap_err().contains("view=\"classic-render\" needs"));
    assert_eq!(
        Route::from_view(Some("render"), Some("rnd_1")),
        Ok(Route::Render { id: "rnd_1".into(), back: Back::Renders })
    );
    assert!(Route::from_view(Some("render"), None).unwrap_err().contains("render-id"));
    assert!(Route::from_view(Some("render"), Some("a b")).unwrap_err().contains("not a render id"));
    assert!(Route::from_view(Some("gallery"), None).unwrap_err().contains("renders, new-render"));
}

#[wasm_bindgen_test]
async fn memory_routes_leave_the_address_alone_and_address_routes_follow_it() {
    let window = web_sys::window().unwrap();
    let before = window.location().href().unwrap();
    let history_length = window.history().unwrap().length().unwrap();
    let owner = Owner::new();
    owner.with(|| {
        let navigator = provide_navigator(History::Memory, Route::Renders);
        navigator.go(Route::Account);
        assert_eq!(navigator.route(), Route::Account);
    });
    assert_eq!(window.location().href().unwrap(), before);
    assert_eq!(window.history().unwrap().length().unwrap(), history_length);

    owner.with(|| {
        let navigator = provide_navigator(History::Address, Route::Renders);
        navigator.go(Route::Render { id: "rnd_42".into(), back: Back::Renders });
        assert_eq!(window.location().pathname().unwrap(), "/renders/rnd_42");
    });
    window.history().unwrap().replace_state_with_url(&JsValue::NULL, "", Some(&before)).unwrap();
    owner.cleanup();
}

#[wasm_bindgen_test]
fn event_details_are_plain_objects_with_the_contract_names() {
    let variation = Variation {
        id: "var_1".into(),
        kind: Some(VariationType::Staging),
        render_id: "rnd_1".into(),
        created_at: serde_json::from_str("1795000000000").unwrap(),
        status: VariationStatus::Done,
        result: Some(VariationResult::One(ResultImage {
            url: "https://img.example/full.jpg".into(),
            optimized_url: None,
            thumbnail_url: Some("https://img.example/thumb.jpg".into()),
        })),
        base_variation_id: None,
        eta: None,
        config: None,
        error_message: None,
    };
    let chosen = ResultChosen::of(&variation, 0, Some("https://a.example/photo.jpg")).unwrap();
    let detail = event_detail(&chosen);
    assert!(detail.is_object() && !detail.is_instance_of::<js_sys::Map>(), "a plain object");
    let field = |name: &str| Reflect::get(&detail, &name.into()).unwrap();
    assert_eq!(field("variation_type").as_string().as_deref(), Some("staging"));
    assert_eq!(field("virtually_staged").as_bool(), Some(true));
    assert!(field("optimized_url").is_null());
    assert_eq!(field("replaces").as_string().as_deref(), Some("https://a.example/photo.jpg"), "the photo it replaces");
    assert_eq!(
        field("disclosure").as_string().as_deref(),
        Some(
            "Virtually staged: this image was digitally altered. The unaltered original can be accessed at the \
             linked page: https://a.example/photo.jpg"
        )
    );

    // dispatched on the element, it leaves a shadow root and bubbles to the document
    let element = container();
    let root = element.attach_shadow(&web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Open)).unwrap();
    let inner: web_sys::HtmlElement =
        web_sys::window().unwrap().document().unwrap().create_element("div").unwrap().unchecked_into();
    root.append_child(&inner).unwrap();
    let heard = Arc::new(Mutex::new(None::<JsValue>));
    let record = heard.clone();
    let listener = Closure::<dyn Fn(web_sys::CustomEvent)>::new(move |event: web_sys::CustomEvent| {
        *record.lock().unwrap() = Some(event.detail());
    });
    let document = web_sys::window().unwrap().document().unwrap();
    document.add_event_listener_with_callback(RESULT_CHOSEN, listener.as_ref().unchecked_ref()).unwrap();
    Host::new(inner).emit(RESULT_CHOSEN, &chosen);
    document.remove_event_listener_with_callback(RESULT_CHOSEN, listener.as_ref().unchecked_ref()).unwrap();
    let detail = heard.lock().unwrap().clone().expect("the composed event reached the document");
    assert_eq!(Reflect::get(&detail, &"render_id".into()).unwrap().as_string().as_deref(), Some("rnd_1"));
}

#[wasm_bindgen_test]
fn a_panic_leaves_a_notice_in_each_widget_and_tells_each_host() {
    let document = web_sys::window().unwrap().document().unwrap();
    let widgets: Vec<web_sys::HtmlElement> = (0..2)
        .map(|_| {
            let widget: web_sys::HtmlElement = document.create_element("vstage-widget").unwrap().unchecked_into();
            let root = widget.attach_shadow(&web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Open)).unwrap();
            root.set_inner_html("<p>a studio</p>");
            document.body().unwrap().append_child(&widget).unwrap();
            widget
        })
        .collect();
    let errors = Arc::new(Mutex::new(0));
    let count = errors.clone();
    let listener = Closure::<dyn Fn(web_sys::CustomEvent)>::new(move |_| *count.lock().unwrap() += 1);
    for widget in &widgets {
        widget.add_event_listener_with_callback("vstage-error", listener.as_ref().unchecked_ref()).unwrap();
    }
    crash::show_everywhere(crash::STUDIO);
    for widget in &widgets {
        let text = widget.shadow_root().unwrap().text_content().unwrap_or_default();
        assert_eq!(text, crash::STUDIO.message);
        widget.remove();
    }
    assert_eq!(*errors.lock().unwrap(), 2);
}

// ---- the locale ----

#[wasm_bindgen_test]
fn numbers_and_times_follow_the_locale_through_intl() {
    use vstage_widget::locale::{Locale, format};
    assert_eq!(format::number(Locale::en, 1234.5), "1,234.5");
    assert_eq!(format::number(Locale::de, 1234.5), "1.234,5");
    assert_eq!(format::relative(Locale::en, -3, "minute"), "3 minutes ago");
    assert_eq!(format::relative(Locale::de, -3, "minute"), "vor 3 Minuten");
    assert_eq!(format::relative(Locale::es, 0, "second"), "ahora");
    // French counts 0 and 1 as singular, English only 1
    assert!(format::is_singular(Locale::fr, 0.0) && !format::is_singular(Locale::en, 0.0));
}
