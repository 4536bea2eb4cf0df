//! The widget's connection to `vstage serve`: one `vstage-api` client per studio, shared through context, whose
//! transport adds the host's widget token (and its references to creations) and, when the server refuses the
//! token, waits for the host to give a new one.

use std::sync::{Arc, Mutex};

use futures::channel::oneshot;
use leptos::prelude::*;
use vstage_api::transport::{BrowserTransport, HttpRequest, HttpResponse, Method, Transport, TransportError};

pub type ApiClient = vstage_api::Client<WidgetTransport>;

#[derive(Clone)]
pub struct Api(pub Arc<ApiClient>);

/// The widget token the host gave (the `token` attribute's signal), used by calls, uploads and the event stream.
/// A new value wakes every call that waits for one; the studio's removal ends those waits.
#[derive(Clone)]
pub struct Token {
    current: RwSignal<Option<String>>,
    waiting: Arc<Mutex<Vec<oneshot::Sender<()>>>>,
    /// The host is told once per refused token, with the server's sentence.
    refused: Arc<Mutex<Option<String>>>,
    on_refused: Arc<dyn Fn(String) + Send + Sync>,
}

impl Token {
    /// Follows `current` (under the studio's owner).
    pub fn new(current: RwSignal<Option<String>>, on_refused: impl Fn(String) + Send + Sync + 'static) -> Self {
        let token =
            Token { current, waiting: Arc::default(), refused: Arc::default(), on_refused: Arc::new(on_refused) };
        let waiting = token.waiting.clone();
        Effect::new(move |_| {
            current.track();
            wake(&waiting);
        });
        let waiting = token.waiting.clone();
        on_cleanup(move || wake(&waiting));
        token
    }

    /// The token now (reactive: the event stream reopens with a new one).
    pub fn get(&self) -> Option<String> {
        self.current.try_get().flatten()
    }

    pub fn get_untracked(&self) -> Option<String> {
        self.current.try_get_untracked().flatten()
    }

    /// Tells the host, once for this token, that the server refused it.
    fn refuse(&self, token: Option<&str>, message: String) {
        let Ok(mut refused) = self.refused.lock() else { return };
        let key = token.unwrap_or_default().to_string();
        if refused.as_ref() != Some(&key) {
            *refused = Some(key);
            drop(refused);
            (self.on_refused)(message);
        }
    }

    /// After `response` to a call made with `used`: when the server refused that token, tells the host (once per
    /// token) and waits for a new one. True when the call is to be sent again with the new token; false when the
    /// answer stands (not a refusal, or the studio was removed meanwhile).
    pub async fn renewed_after(&self, used: Option<&str>, response: &HttpResponse) -> bool {
        if !token_refused(response) {
            return false;
        }
        self.refuse(used, refusal_sentence(response));
        self.renewed(used).await;
        matches!(self.current.try_get_untracked(), Some(renewed) if renewed.as_deref() != used)
    }

    /// Resolves when the host sets another token than `refused`, or the studio is removed.
    async fn renewed(&self, refused: Option<&str>) {
        let (sender, receiver) = oneshot::channel();
        if let Ok(mut list) = self.waiting.lock() {
            list.push(sender);
        }
        match self.current.try_get_untracked() {
            Some(now) if now.as_deref() == refused => {
                let _ = receiver.await;
            }
            _ => {}
        }
    }
}

fn wake(waiting: &Mutex<Vec<oneshot::Sender<()>>>) {
    for waiter in waiting.lock().map(|mut list| std::mem::take(&mut *list)).unwrap_or_default() {
        let _ = waiter.send(());
    }
}

/// `fetch` with `Authorization: Bearer <token>` when the host gave one; a call with no answer says so when the
/// server does not allow this page's origin (see `refused_origin`). A call the server refuses because the
/// token is invalid or expired (RFC 6750's `invalid_token`) is held, the host is told, and it is sent again with
/// the host's new token: the person loses nothing.
#[derive(Clone)]
pub struct WidgetTransport {
    token: Token,
    /// The `Vstage-Reference` header of the host's references, sent with each creation as a screen that creates
    /// renders made it (`host_reference::send_with_creations`).
    reference_header: RwSignal<Option<String>>,
    events_start: EventsStart,
}

/// Where the studio's first event stream starts: the `Vstage-Event-Id` of the server's first answer that had one
/// (its usage, read as the studio starts). Every event after it reaches that stream, so a screen that read after
/// that answer misses nothing while the stream opens.
#[derive(Clone, Copy)]
pub struct EventsStart(pub StoredValue<Option<String>>);

/// Whether `request` creates renders, and so carries the host's references.
fn creates_renders(request: &HttpRequest) -> bool {
    // Bytes, not `str::split`: its searcher would load with the first screen for this one use.
    let url = request.url.as_bytes();
    let path = &url[..url.iter().position(|&b| b == b'?').unwrap_or(url.len())];
    let creations: [&[u8]; 3] = [b"/v2/renders", b"/v2/renders/bulk", b"/v1/render/create"];
    request.method == Method::Post && creations.iter().any(|end| path.ends_with(end))
}

impl Transport for WidgetTransport {
    async fn send(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        loop {
            // Nothing is sent for a studio that was removed.
            let Some(token) = self.token.current.try_get_untracked() else {
                return Err(TransportError::Network("the studio was removed from the page".into()));
            };
            let mut attempt = request.clone();
            if let Some(token) = &token {
                attempt.headers.push(("Authorization", format!("Bearer {token}")));
            }
            if creates_renders(&request)
                && let Some(reference) = self.reference_header.get_untracked()
            {
                attempt.headers.push(("Vstage-Reference", reference));
            }
            let response = match BrowserTransport.send(attempt).await {
                Err(TransportError::Network(_)) if let Some(origin) = refused_origin() => {
                    return Err(TransportError::OriginRefused { origin });
                }
                other => other?,
            };
            if let Some(id) = &response.event_id
                && self.events_start.0.try_with_value(Option::is_none).unwrap_or(false)
            {
                self.events_start.0.set_value(Some(id.clone()));
            }
            if !self.token.renewed_after(token.as_deref(), &response).await {
                return Ok(response);
            }
        }
    }

    async fn sleep(&self, duration: std::time::Duration) {
        BrowserTransport.sleep(duration).await;
    }

    fn random_unit(&self) -> f64 {
        BrowserTransport.random_unit()
    }
}

/// The page's origin when the server does not allow it: its `/embed.js` says so (`crates/server/src/site/loader.rs`),
/// since the browser hides why a call to another origin got no answer.
fn refused_origin() -> Option<String> {
    let said = js_sys::Reflect::get(&js_sys::global(), &js_sys::Symbol::for_("vstage.widget.refused")).ok()?;
    said.as_string()
}

/// A 401 whose `WWW-Authenticate` says the bearer token is not good (missing tokens are a set-up error instead).
fn token_refused(response: &HttpResponse) -> bool {
    response.status == 401
        && response
            .www_authenticate
            .as_deref()
            .is_some_and(|challenge| challenge.starts_with("Bearer") && challenge.contains("invalid_token"))
}

fn refusal_sentence(response: &HttpResponse) -> String {
    serde_json::from_slice::<vstage_api::Message>(&response.body)
        .map(|body| body.message)
        .unwrap_or_else(|_| "The widget token is no longer valid; the host page must give a new one.".into())
}

/// Makes a client for `base_url` with the host's token available to every component below; its creations carry
/// `reference_header`, the host's references.
pub fn provide_api(base_url: &str, token: Token, reference_header: RwSignal<Option<String>>) {
    let events_start = EventsStart(StoredValue::new(None));
    provide_context(token.clone());
    provide_context(events_start);
    let transport = WidgetTransport { token, reference_header, events_start };
    provide_context(Api(Arc::new(ApiClient::new(base_url, transport))));
}

/// The client provided by `provide_api`.
pub fn use_api() -> Arc<ApiClient> {
    use_context::<Api>().map(|api| api.0).expect("provide_api is called by App before any component uses the API")
}

/// The host's token, for what does not go through the client (uploads, the event stream).
pub fn use_token() -> Option<Token> {
    use_context::<Token>()
}

/// An address the browser opens itself (an event stream, a download link), which cannot send the token in a
/// header: it goes in the query, the one place `vstage serve` reads it for those two.
pub fn with_access_token(address: String, token: Option<&str>) -> String {
    match token {
        Some(token) => format!("{address}?access_token={}", js_sys::encode_uri_component(token)),
        None => address,
    }
}
