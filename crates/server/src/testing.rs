//! In-process servers for the handler tests (the quick loop): `vstage serve`'s state started from its arguments
//! as the command starts it (`commands::serve::start`), its app called with `tower::ServiceExt::oneshot` as axum's
//! own tests call theirs: no process, no socket per call. The same app is also served on a loopback port, for what
//! reaches the server over the network (the embedded sandbox's webhooks, fetches of this server's files).
//! Process tests (`tests/serve/`) keep what is about processes: start-up, signals, several servers, the CLI.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{HeaderValue, Method, Request, header};
use axum::response::Response;
use clap::Parser;
use http_body_util::BodyExt;
use tower::ServiceExt;

use crate::cli::{Cli, Command};
use crate::commands::serve::{Started, serving_options, start};
use crate::serving::{self, App, Peer};
pub use crate::startup::Secrets;

/// One server in this process.
pub struct TestApp {
    app: App,
    /// `http://127.0.0.1:PORT`, where the same app is served.
    pub url: String,
    address: SocketAddr,
    _data: tempfile::TempDir,
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
        let Started { state, embedded_sandbox, .. } = start(&args, address, secrets).await.expect("the server starts");
        let app = crate::app::for_this_worker(&state).expect("the worker's app");
        let factory: serving::AppFactory = {
            let state = state.clone();
            Arc::new(move || crate::app::for_this_worker(&state))
        };
        let options = serving::Options { workers: std::num::NonZeroUsize::MIN, ..serving_options(&args) };
        tokio::spawn(serving::serve(listener, options, None, factory, std::future::pending()));
        TestApp { app, url: format!("http://{address}"), address, _data: data, _dist: dist, _sandbox: embedded_sandbox }
    }

    /// A request for `path` on this server, as a browser on it would address it (the server answers only to its
    /// own names).
    pub fn request(&self, method: Method, path: &str) -> axum::http::request::Builder {
        let host = HeaderValue::from_str(&self.address.to_string()).expect("an address is a header value");
        Request::builder().method(method).uri(format!("{}{path}", self.url)).header(header::HOST, host)
    }

    /// The app's answer to `request`, called in-process from a loopback client.
    pub async fn call(&self, request: Request<Body>) -> Response {
        let (app, peer) = (self.app.clone(), Peer(SocketAddr::from(([127, 0, 0, 1], 40_000))));
        let service = tower::service_fn(move |request| {
            let answer = app(request, peer);
            async move { Ok::<_, Infallible>(answer.await) }
        });
        service.oneshot(request).await.unwrap_or_else(|never| match never {})
    }

    /// The answer to `GET path`.
    pub async fn get(&self, path: &str) -> Response {
        self.call(self.request(Method::GET, path).body(Body::empty()).expect("a request")).await
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
