//! In-process servers for the handler tests (the quick loop): `vstage serve`'s state started from its arguments
//! as the command starts it (`commands::serve::start`), its app called with `tower::ServiceExt::oneshot` as axum's
//! own tests call theirs: no process, no socket per call. The same app is also served on a loopback port, for what
//! reaches the server over the network (the embedded sandbox's webhooks, fetches of this server's files).
//! Process tests (`tests/serve/`) keep what is about processes: start-up, signals, several servers, the CLI.

pub mod csv;
pub mod deliveries;
pub mod exiftool;
pub mod jose;
pub mod phone;
pub mod photos;
pub mod pyjwt;
pub mod real_service;
#[allow(dead_code)] // shared with the process tests, which use its TLS half
pub mod recording;
pub mod sockets;
#[allow(dead_code)] // shared with the process tests, which read over reqwest
pub mod sse;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{HeaderValue, Method, Request, header};
use axum::response::Response;
use clap::Parser;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;
use tower::util::BoxCloneSyncService;

use crate::access::token::WidgetSecret;
use crate::cli::{Cli, Command};
use crate::commands::serve::{Started, serving_options, start};
use crate::serving;
pub use crate::startup::Secrets;
use recording::RecordingUpstream;

/// One server in this process.
pub struct TestApp {
    /// The worker's app, called in-process (boxed: its type is the layers' own).
    app: BoxCloneSyncService<Request<Body>, Response, Infallible>,
    /// `http://127.0.0.1:PORT`, where the same app is served.
    pub url: String,
    address: SocketAddr,
    widget_secret: Option<String>,
    data: tempfile::TempDir,
    _dist: tempfile::TempDir,
    _sandbox: Option<vstage_sandbox::RunningSandbox>,
}

impl TestApp {
    /// A server started with `args` after `vstage serve`'s own (a data dir and a widget build of its own), with
    /// the embedded sandbox unless `args` name an upstream.
    pub async fn start(args: &[&str]) -> TestApp {
        TestApp::serving(widget_files(), args, Secrets::default()).await
    }

    /// The same with `secrets`, as its environment would give them.
    pub async fn with_secrets(args: &[&str], secrets: Secrets) -> TestApp {
        TestApp::serving(widget_files(), args, secrets).await
    }

    /// A server with token access (`--access token` and a widget secret of its own) and `args`.
    pub async fn with_tokens(args: &[&str]) -> TestApp {
        let secrets = Secrets { widget: Some(TEST_WIDGET_SECRET.into()), ..Secrets::default() };
        TestApp::with_secrets(&[&["--access", "token"], args].concat(), secrets).await
    }

    /// A server in front of `upstream` (with the key `TEST_API_KEY`, a widget secret and a webhook secret) and
    /// `args`; the stand-in forgets the server's start-up check.
    pub async fn in_front_of(upstream: &RecordingUpstream, args: &[&str]) -> TestApp {
        let secrets = Secrets {
            widget: Some(TEST_WIDGET_SECRET.into()),
            api_key: Some(TEST_API_KEY.into()),
            webhook: Some("whs_0123".into()),
            ..Secrets::default()
        };
        let server = TestApp::with_secrets(&[&["--upstream", &upstream.url], args].concat(), secrets).await;
        upstream.forget();
        server
    }

    /// The same, serving the widget's files in `dist`.
    pub async fn serving(dist: tempfile::TempDir, args: &[&str], secrets: Secrets) -> TestApp {
        let data = tempfile::tempdir().expect("a data dir");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a loopback port");
        let address = listener.local_addr().expect("its address");
        let (listen, data_dir, dist_dir) =
            (address.to_string(), data.path().display().to_string(), dist.path().display().to_string());
        let mut command = vec!["vstage", "serve", "--listen", &listen, "--data-dir", &data_dir, "--dist", &dist_dir];
        command.extend_from_slice(args);
        let Command::Serve(args) = Cli::try_parse_from(command).expect("the arguments parse").command else {
            unreachable!("serve was asked for")
        };
        let widget_secret = secrets.widget.clone();
        let Started { state, embedded_sandbox, .. } = start(&args, address, secrets).await.expect("the server starts");
        let app = BoxCloneSyncService::new(crate::app::build(&state).expect("the worker's app"));
        let factory: serving::AppFactory<_> = {
            let state = state.clone();
            Arc::new(move || crate::app::build(&state))
        };
        let options = serving::Options { workers: std::num::NonZeroUsize::MIN, ..serving_options(&args, &state) };
        tokio::spawn(serving::serve(listener, options, None, factory, std::future::pending()));
        let url = format!("http://{address}");
        TestApp { app, url, address, widget_secret, data, _dist: dist, _sandbox: embedded_sandbox }
    }

    /// `/api{path}` on this server, at its loopback address (for what reaches it over the network).
    pub fn api(&self, path: &str) -> String {
        format!("{}/api{path}", self.url)
    }

    /// A request for `path` on this server, as a browser on it would address it (the server answers only to its
    /// own names).
    pub fn request(&self, method: Method, path: &str) -> axum::http::request::Builder {
        let host = HeaderValue::from_str(&self.address.to_string()).expect("an address is a header value");
        Request::builder().method(method).uri(format!("{}{path}", self.url)).header(header::HOST, host)
    }

    /// The app's answer to `request`, called in-process from a loopback client.
    pub async fn call(&self, request: Request<Body>) -> Response {
        let mut request = request;
        request.extensions_mut().insert(axum::extract::ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40_000))));
        self.app.clone().oneshot(request).await.unwrap_or_else(|never| match never {})
    }

    /// The answer to `GET path`.
    pub async fn get(&self, path: &str) -> Response {
        self.call(self.request(Method::GET, path).body(Body::empty()).expect("a request")).await
    }

    /// A call of `method path` to build up and send.
    pub fn ask(&self, method: Method, path: &str) -> Asking<'_> {
        Asking { server: self, request: self.request(method, path), body: Body::empty() }
    }

    /// A token of `subject`'s, valid for an hour, signed with this server's widget secret.
    pub fn token(&self, subject: &str) -> String {
        let secret = self.widget_secret.as_deref().expect("a server started with a widget secret");
        WidgetSecret::new(secret).expect("a usable secret").mint(subject, std::time::Duration::from_secs(3600), None)
    }

    /// The address of the embedded sandbox's sample photo `name`, as the server lists it.
    pub async fn sample_url(&self, name: &str) -> String {
        let (status, samples) = self.ask(Method::GET, "/api/samples").answer().await;
        assert_eq!(status, 200, "{samples}");
        let sample = samples.as_array().into_iter().flatten().find(|sample| sample["name"] == name);
        sample.and_then(|sample| sample["url"].as_str()).expect("the sample is listed").to_string()
    }

    /// Creates a render of `image_url` with `config` (`token`'s when given), waiting for it when `wait`; its JSON.
    pub async fn create_render(&self, token: Option<&str>, image_url: &str, config: Value, wait: bool) -> Value {
        let body = json!({"image_url": image_url, "variation_count": 1, "config": config, "wait_for_completion": wait});
        let mut asking = self.ask(Method::POST, "/api/v2/renders").json(&body);
        if let Some(token) = token {
            asking = asking.bearer(token);
        }
        let (status, render) = asking.answer().await;
        assert_eq!(status, 200, "{render}");
        render
    }

    /// `token`'s staging render of `photo` with `count` variations (Scandinavian living room), once finished.
    pub async fn staged(&self, token: &str, photo: &str, count: u64) -> Value {
        let body = json!({"image_url": photo, "variation_count": count, "wait_for_completion": true,
            "config": {"type": "staging", "add_furniture": {"style": "scandinavian", "room_type": "living"}}});
        let (status, render) = self.ask(Method::POST, "/api/v2/renders").bearer(token).json(&body).answer().await;
        assert_eq!(status, 200, "{render}");
        render
    }

    /// This server's data folder.
    pub fn data_dir(&self) -> &std::path::Path {
        self.data.path()
    }

    /// The webhook secret this server made and keeps in its data folder (with the embedded sandbox, which signs
    /// with it).
    pub fn webhook_secret(&self) -> String {
        let kept = std::fs::read(self.data.path().join("webhook-secret.json")).expect("a kept webhook secret");
        let kept: Value = serde_json::from_slice(&kept).expect("JSON");
        kept["secret"].as_str().expect("the secret").to_string()
    }

    /// The status of the webhook receiver's answer to `body`, signed with `signature` when given.
    pub async fn deliver(&self, body: &[u8], signature: Option<&str>) -> u16 {
        let mut asking = self.ask(Method::POST, "/api/webhooks/service").header("content-type", "application/json");
        if let Some(signature) = signature {
            asking = asking.header("X-SERVICE-Signature", signature);
        }
        asking.body(body.to_vec()).send().await.status().as_u16()
    }

    /// The answer to `GET path`: its head, and its body's bytes.
    pub async fn bytes(&self, path: &str) -> (Response<()>, Vec<u8>) {
        let (head, body) = self.get(path).await.into_parts();
        let bytes = body.collect().await.expect("the body arrives").to_bytes().to_vec();
        (Response::from_parts(head, ()), bytes)
    }
}

/// The service's key of `TestApp::in_front_of`.
pub const TEST_API_KEY: &str = "sk-live-0123456789abcdef";

/// The widget secret of `TestApp::with_tokens`.
pub const TEST_WIDGET_SECRET: &str = "in-process-widget-secret-0123456789abcdef";

/// A call being built, as a browser would send it.
pub struct Asking<'a> {
    server: &'a TestApp,
    request: axum::http::request::Builder,
    body: Body,
}

impl Asking<'_> {
    /// With `token` as its bearer.
    pub fn bearer(self, token: &str) -> Self {
        self.header(header::AUTHORIZATION.as_str(), &format!("Bearer {token}"))
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.request = self.request.header(name, value);
        self
    }

    /// With `value` as its JSON body.
    pub fn json(self, value: &Value) -> Self {
        self.header("content-type", "application/json").body(value.to_string())
    }

    pub fn body(mut self, body: impl Into<Body>) -> Self {
        self.body = body.into();
        self
    }

    /// With a form holding `bytes` as file field `field` named `file_name`, and `texts` as plain fields.
    pub fn form(self, (field, file_name, mime): (&str, &str, &str), bytes: &[u8], texts: &[(&str, &str)]) -> Self {
        const BOUNDARY: &str = "vstage-test-boundary-7d3f";
        let mut body = Vec::new();
        for (name, text) in texts {
            body.extend(
                format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{text}\r\n").bytes(),
            );
        }
        let head = format!(
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{file_name}\"\r\n\
             Content-Type: {mime}\r\n\r\n"
        );
        body.extend(head.bytes());
        body.extend_from_slice(bytes);
        body.extend(format!("\r\n--{BOUNDARY}--\r\n").bytes());
        self.header("content-type", &format!("multipart/form-data; boundary={BOUNDARY}")).body(body)
    }

    /// The app's answer.
    pub async fn send(self) -> Response {
        self.server.call(self.request.body(self.body).expect("a request")).await
    }

    /// The answer's status and JSON (`null` when it is not).
    pub async fn answer(self) -> (u16, Value) {
        json(self.send().await).await
    }
}

/// An answer's status and its body as text.
pub async fn text(answer: Response) -> (u16, String) {
    let status = answer.status().as_u16();
    let bytes = answer.into_body().collect().await.expect("the body arrives").to_bytes();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

/// An answer's status and its body as JSON (`null` when it is not).
pub async fn json(answer: Response) -> (u16, serde_json::Value) {
    let (status, body) = text(answer).await;
    (status, serde_json::from_str(&body).unwrap_or(serde_json::Value::Null))
}

/// A stand-in for the widget's build: a page, a script and a hashed module, as the server looks for.
pub fn widget_files() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a folder");
    let files: [(&str, &[u8]); 4] = [
        ("index.html", b"<!doctype html><title>widget</title>"),
        ("app.js", b"console.log('widget')"),
        ("vstage-widget-0123abcd.js", b"export default function init() {}"),
        ("vstage-widget-0123abcd_bg.wasm", b"\0asm\x01\0\0\0"),
    ];
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).expect("a file");
    }
    dir
}
