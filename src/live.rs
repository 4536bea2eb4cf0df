//! Live status behind one interface: `follow_render` keeps a render fresh until every variation is final, from
//! Server-Sent Events (`/api/events`) when the server offers them, else by polling timed by each variation's `eta`.

use std::sync::{Arc, OnceLock};

use leptos::prelude::*;
use vstage_api::WebhookEvent;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

use crate::account::use_account;
use crate::api::{EventsStart, Token, use_api, use_token, with_access_token};
use crate::clock::now_ms;
use crate::hooks::use_polling::{MAX_POLL_MS, PollTimer, next_poll_delay};

/// How the widget hears about changes right now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    /// Still finding out what the server offers.
    Starting,
    /// The server offers events and the stream is opening: it brings what happens meanwhile.
    Opening,
    /// An open event stream.
    Events,
    /// Polling (no events offered, or the stream is down and reconnecting).
    Polling,
}

#[derive(Clone, Copy)]
pub struct Live {
    pub channel: RwSignal<Channel>,
    /// The newest event (the service's webhook, as the server relayed it), with a counter so that two equal
    /// events are both seen.
    pub last_event: RwSignal<Option<(u64, Arc<RelayedEvent>)>>,
    /// Bumped when a stream opens with nothing to resume from (no event heard, no starting point from the
    /// server): whatever happened before it may have been missed, and unfinished work is read again.
    pub opened_afresh: RwSignal<u64>,
    /// Bumped when the server says events were missed for good (`reset`): what is shown is read again.
    pub reset: RwSignal<u64>,
    /// The id of the last event heard, which a stream opened again resumes after.
    last_event_id: StoredValue<Option<String>>,
    /// Where the first stream starts when no event was heard yet: the server's `Vstage-Event-Id` of its first
    /// answer that had one (`crate::api::EventsStart`).
    start: StoredValue<Option<String>>,
    /// Set once the server has said where the first stream starts (or that it has none to say: a plain
    /// proxy, no events): a screen's first read waits for it, so that the stream follows it from then on.
    pub start_known: RwSignal<bool>,
}

impl Live {
    /// Live state on `channel`, nothing heard, no starting point.
    pub fn new(channel: Channel) -> Self {
        Live {
            channel: RwSignal::new(channel),
            last_event: RwSignal::new(None),
            opened_afresh: RwSignal::new(0),
            reset: RwSignal::new(0),
            last_event_id: StoredValue::new(None),
            start: StoredValue::new(None),
            start_known: RwSignal::new(channel != Channel::Starting),
        }
    }

    /// The same, the first stream starting after event `id` of the server's.
    pub fn starting_after(self, id: &str) -> Self {
        self.start.set_value(Some(id.to_string()));
        self.start_known.set(true);
        self
    }

    /// Where a stream opened now resumes from: after the last event heard, else from the server's starting point.
    fn resume_from(&self) -> Option<String> {
        self.last_event_id.get_value().or_else(|| self.start.get_value())
    }

    /// Whether what a screen reads now is followed from then on: a stream is open, or the next one resumes from
    /// an event the server had sent before this read.
    pub fn follows_reads_now(&self) -> bool {
        self.channel.get_untracked() == Channel::Events || self.resume_from().is_some()
    }
}

/// One event as the server relayed it, read into a [`WebhookEvent`] once, by the first screen that follows a render:
/// the shell only passes it on, so the reading is in the screens' chunks and not in the first load.
#[derive(Debug)]
pub struct RelayedEvent {
    text: String,
    read: OnceLock<Option<WebhookEvent>>,
}

impl RelayedEvent {
    pub fn new(text: String) -> Self {
        RelayedEvent { text, read: OnceLock::new() }
    }

    /// The event, or `None` when the widget cannot read it (the poll on reconnect or the next event catches up).
    pub fn read(&self) -> Option<&WebhookEvent> {
        self.read.get_or_init(|| serde_json::from_str(&self.text).ok()).as_ref()
    }
}

/// Starts listening for live events once the server says it offers them, polling until then; a new token
/// opens a new stream. The stream closes with the studio, and while the page is away in the browser's
/// back-forward cache: a cached page's open stream would keep holding one of the few connections a browser opens to
/// a host over HTTP/1.1 (six in Chromium), until the pages that came after could not load. Back on the page, the
/// stream opens again from the last event seen.
pub fn provide_live() {
    let live = Live {
        start: use_context::<EventsStart>().map_or_else(|| StoredValue::new(None), |start| start.0),
        ..Live::new(Channel::Starting)
    };
    provide_context(live);
    let account = use_account();
    let token = use_token();
    let base = use_api().base_url().to_string();
    let stream = StoredValue::new_local(None::<EventStream>);
    let page_shown = RwSignal::new(true);
    let on_hide = window_event_listener(leptos::ev::pagehide, move |_| page_shown.set(false));
    let on_show = window_event_listener(leptos::ev::pageshow, move |_| {
        if !page_shown.get_untracked() {
            page_shown.set(true);
        }
    });
    // The first stream waits for the usage's answer, which says where it starts (a plain proxy's 404 too).
    Effect::new(move |_| {
        let known = account.usage_answered() || account.offers_events() == Some(false);
        if known && !live.start_known.get_untracked() {
            live.start_known.set(true);
        }
    });
    Effect::new(move |_| {
        let offered = account.offers_events();
        let token = token.as_ref().and_then(Token::get);
        stream.set_value(None);
        if !page_shown.get() || !live.start_known.get() {
            return;
        }
        match offered {
            None => {}
            Some(false) => live.channel.set(Channel::Polling),
            Some(true) => {
                let url = events_url(&base, token.as_deref(), live.resume_from().as_deref());
                match EventStream::open(&url, live) {
                    Ok(opened) => {
                        stream.set_value(Some(opened));
                        if live.channel.get_untracked() == Channel::Starting {
                            live.channel.set(Channel::Opening);
                        }
                    }
                    Err(_) => live.channel.set(Channel::Polling),
                }
            }
        }
    });
    on_cleanup(move || {
        stream.set_value(None);
        on_hide.remove();
        on_show.remove();
    });
}

/// `{base}/events`, with the token and the last event seen in the query: an `EventSource` cannot send headers, and
/// sends `Last-Event-ID` only when it reconnects by itself.
pub fn events_url(base: &str, token: Option<&str>, last_event_id: Option<&str>) -> String {
    let url = with_access_token(format!("{base}/events"), token);
    match last_event_id {
        Some(id) => {
            let separator = if url.contains('?') { '&' } else { '?' };
            format!("{url}{separator}last_event_id={}", js_sys::encode_uri_component(id))
        }
        None => url,
    }
}

pub fn use_live() -> Live {
    use_context::<Live>().expect("provide_live is called by App")
}

/// An open `EventSource` and its handlers; dropping it closes the stream.
struct EventStream {
    source: web_sys::EventSource,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_control: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_open: Closure<dyn FnMut()>,
    _on_error: Closure<dyn FnMut()>,
}

/// The service's webhook events, as the server relays them.
const EVENT_NAMES: [&str; 6] = ["done", "error", "update", "analysis_completion", "analysis_error", "unknown"];
/// The server's own: `reset` (events were missed for good) and `token_expired` (the stream ended with its token).
const CONTROL_NAMES: [&str; 2] = ["reset", "token_expired"];

impl EventStream {
    /// Opens `url`; the id of each event heard goes to `live`.
    fn open(url: &str, live: Live) -> Result<Self, wasm_bindgen::JsValue> {
        let source = web_sys::EventSource::new(url)?;
        // It resumes when its address names where from, and when it reopens after an event it heard (the browser
        // sends `Last-Event-ID`).
        let resumes = live.resume_from().is_some();
        let last_event_id = live.last_event_id;
        let mut counter = 0u64;
        let remember = move |message: &web_sys::MessageEvent| {
            let id = message.last_event_id();
            if !id.is_empty() {
                last_event_id.set_value(Some(id));
            }
        };
        let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |message: web_sys::MessageEvent| {
            remember(&message);
            let Some(data) = message.data().as_string() else { return };
            counter += 1;
            let _ = live.last_event.try_set(Some((counter, Arc::new(RelayedEvent::new(data)))));
        });
        for name in EVENT_NAMES {
            source.add_event_listener_with_callback(name, on_message.as_ref().unchecked_ref())?;
        }
        let ended = source.clone();
        let on_control = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |message: web_sys::MessageEvent| {
            remember(&message);
            if message.type_() == "reset" {
                let _ = live.reset.try_update(|n| *n += 1);
            } else {
                // The browser would reconnect with the expired token and be refused: stop, and poll. The next
                // call says the token expired (the host hears it); a new token opens a new stream.
                ended.close();
                let _ = live.channel.try_set(Channel::Polling);
            }
        });
        for name in CONTROL_NAMES {
            source.add_event_listener_with_callback(name, on_control.as_ref().unchecked_ref())?;
        }
        let on_open = Closure::<dyn FnMut()>::new(move || {
            if !resumes && last_event_id.try_with_value(Option::is_none).unwrap_or(false) {
                let _ = live.opened_afresh.try_update(|n| *n += 1);
            }
            let _ = live.channel.try_set(Channel::Events);
        });
        source.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        // The browser reconnects by itself (sending Last-Event-ID); meanwhile, poll.
        let on_error = Closure::<dyn FnMut()>::new(move || {
            let _ = live.channel.try_set(Channel::Polling);
        });
        source.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(EventStream {
            source,
            _on_message: on_message,
            _on_control: on_control,
            _on_open: on_open,
            _on_error: on_error,
        })
    }
}

impl Drop for EventStream {
    fn drop(&mut self) {
        self.source.close();
        self.source.set_onopen(None);
        self.source.set_onerror(None);
        for name in EVENT_NAMES {
            let _ = self.source.remove_event_listener_with_callback(name, self._on_message.as_ref().unchecked_ref());
        }
        for name in CONTROL_NAMES {
            let _ = self.source.remove_event_listener_with_callback(name, self._on_control.as_ref().unchecked_ref());
        }
    }
}

/// Keeps one render fresh. An event about `render_id` goes to `apply`, which updates the page from the event
/// itself and returns `false` when it cannot (then `refresh` reads the render again). While polling, `refresh`
/// runs on the eta schedule as long as `pending_etas` (the etas of its unfinished variations) is not empty;
/// polling pauses while the tab is hidden and checks at once when it shows again. `read_followed` is what
/// `Live::follows_reads_now` said when the screen's latest read was sent: when it was not, the first stream to
/// open reads unfinished work again.
pub fn follow_render(
    render_id: Signal<String>,
    pending_etas: Signal<Vec<Option<i64>>>,
    read_followed: StoredValue<bool>,
    refresh: impl Fn() + Clone + Send + Sync + 'static,
    apply: impl Fn(&WebhookEvent) -> bool + Send + Sync + 'static,
) {
    let live = use_live();

    // events
    let on_event = refresh.clone();
    Effect::new(move |_| {
        if let Some((_, relayed)) = live.last_event.get()
            && let Some(event) = relayed.read()
            && event.render_id() == Some(render_id.get_untracked().as_str())
            && !apply(event)
        {
            on_event();
        }
    });
    // A stream opened afresh may have missed the end of unfinished work, and so may a stream opening after this
    // screen read before it knew where that stream would start; a reset may have missed anything.
    let on_reconnect = refresh.clone();
    Effect::new(move |previous: Option<(u64, u64, bool)>| {
        let now = (live.opened_afresh.get(), live.reset.get(), live.channel.get() == Channel::Events);
        if let Some((afresh, reset, open)) = previous {
            let first_open_unfollowed = now.2 && !open && !read_followed.get_value();
            if now.2 {
                read_followed.set_value(true);
            }
            let pending = !pending_etas.get_untracked().is_empty();
            if reset != now.1 || (pending && (afresh != now.0 || first_open_unfollowed)) {
                on_reconnect();
            }
        }
        now
    });

    // polling
    let timer = PollTimer::new(refresh);
    Effect::new(move |previous_pending: Option<usize>| {
        let pending = pending_etas.get();
        let channel = live.channel.get();
        // Progress resets the back-off; the same pending set again counts as a late check.
        if previous_pending.is_some_and(|previous| previous != pending.len()) {
            timer.reset_count();
        }
        // With events (or a stream opening, which brings what happens meanwhile), a slow safety check still runs,
        // in case a delivery never came.
        let delay = next_poll_delay(now_ms(), &pending, timer.fired()).map(|delay| match channel {
            Channel::Events | Channel::Opening => delay.max(MAX_POLL_MS),
            Channel::Polling | Channel::Starting => delay,
        });
        match delay {
            Some(delay) => timer.schedule(delay),
            None => timer.cancel(),
        }
        pending.len()
    });
}
