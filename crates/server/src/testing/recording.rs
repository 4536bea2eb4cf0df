//! A stand-in for the real service that records what reaches it, to check what the proxy sends upstream
//! (headers, paths, bodies) without the sandbox's own checks in the way; over plain HTTP or over TLS with a
//! certificate from a test authority.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::HeaderMap;
use axum::response::IntoResponse;
use hyper_util::rt::TokioIo;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::crypto::aws_lc_rs;
use tower::ServiceExt;

#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    pub path_and_query: String,
    pub headers: HeaderMap,
    pub body: Bytes,
}

pub struct RecordingUpstream {
    pub url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    /// TLS connections accepted (over TLS only).
    connections: Arc<AtomicUsize>,
}

/// The test authority's certificate (PEM), in a file to give as `SSL_CERT_FILE`, which the platform's certificate
/// store reads on Linux.
pub struct TestAuthority {
    _dir: tempfile::TempDir,
    pub pem_file: PathBuf,
}

impl RecordingUpstream {
    /// Remembers every call and answers it as `answer` says: mostly as the service would, and as a misbehaving
    /// service might for the paths that ask for it.
    pub async fn start() -> RecordingUpstream {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let app = Router::new().fallback(record).with_state(seen.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        RecordingUpstream { url, seen, connections: Arc::default() }
    }

    /// The same over TLS at `https://localhost:PORT`, with a certificate for `localhost` issued by a new test
    /// authority.
    pub async fn start_tls() -> (RecordingUpstream, TestAuthority) {
        let (config, authority) = tls_config();
        let acceptor = TlsAcceptor::from(Arc::new(config));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let connections = Arc::new(AtomicUsize::new(0));
        let app = Router::new().fallback(record).with_state(seen.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("https://localhost:{}", listener.local_addr().unwrap().port());
        let counted = connections.clone();
        tokio::spawn(async move {
            loop {
                let (stream, _) = listener.accept().await.unwrap();
                let (acceptor, app, counted) = (acceptor.clone(), app.clone(), counted.clone());
                tokio::spawn(async move {
                    // A client that refuses the certificate ends the handshake; nothing to serve then.
                    let Ok(tls) = acceptor.accept(stream).await else { return };
                    counted.fetch_add(1, Ordering::SeqCst);
                    let service = hyper::service::service_fn(move |request| app.clone().oneshot(request));
                    let _ =
                        hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(tls), service).await;
                });
            }
        });
        (RecordingUpstream { url, seen, connections }, authority)
    }

    /// Forgets what reached it so far: a server's start-up check (`GET /v2/user` with the key, on a connection of
    /// its own), before a test's calls.
    pub fn forget(&self) {
        self.seen.lock().unwrap().clear();
        self.connections.store(0, Ordering::SeqCst);
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    /// Waits until `count` calls have reached it (failing after a generous bound).
    pub async fn until_seen(&self, count: usize) {
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
        while self.seen.lock().unwrap().len() < count {
            assert!(tokio::time::Instant::now() < deadline, "{count} calls reach the stand-in: {:?}", self.seen());
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    }

    pub fn tls_connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}

/// A server configuration for `localhost` whose certificate a new authority issued, and that authority.
fn tls_config() -> (ServerConfig, TestAuthority) {
    let authority_key = rcgen::KeyPair::generate().unwrap();
    let mut authority_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    authority_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    authority_params.distinguished_name.push(rcgen::DnType::CommonName, "vstage test authority");
    let authority_cert = authority_params.self_signed(&authority_key).unwrap();
    let issuer = rcgen::Issuer::new(authority_params, authority_key);
    let server_key = rcgen::KeyPair::generate().unwrap();
    let server_cert =
        rcgen::CertificateParams::new(vec!["localhost".to_string()]).unwrap().signed_by(&server_key, &issuer).unwrap();

    let dir = tempfile::tempdir().unwrap();
    let pem_file = dir.path().join("authority.pem");
    std::fs::write(&pem_file, authority_cert.pem()).unwrap();
    let key = tokio_rustls::rustls::pki_types::PrivatePkcs8KeyDer::from(server_key.serialize_der());
    let config = ServerConfig::builder_with_provider(Arc::new(aws_lc_rs::default_provider()))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![server_cert.der().clone()], key.into())
        .unwrap();
    (config, TestAuthority { _dir: dir, pem_file })
}

async fn record(State(seen): State<Arc<Mutex<Vec<Seen>>>>, request: Request) -> impl IntoResponse {
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX).await.unwrap();
    seen.lock().unwrap().push(Seen {
        method: parts.method.to_string(),
        path_and_query: parts.uri.path_and_query().map(|p| p.to_string()).unwrap_or_default(),
        headers: parts.headers.clone(),
        body: body.clone(),
    });
    answer(&parts, &body).await
}

/// Each call's answer in the contract's shape: a render about whatever render the path names (decoded, as the
/// service reads it), a variation of the render the path names, the variations added, v1's render and creation,
/// bulk variations, the secret's message; and for the last segments that say so: an HTML page, an SVG image with a script, a
/// refusal that echoes the request's `Authorization`, another render's variation; a 422 for the photo
/// `photos.example/refused.jpg`, a 503 for `photos.example/unavailable.jpg`, a gateway's 504 for
/// `photos.example/gateway-timeout.jpg`, a 403 naming the account's figures
/// for `photos.example/over-the-plan.jpg`; and after `MS` milliseconds
/// when the path or the body holds `slow-MS`.
async fn answer(parts: &axum::http::request::Parts, body: &[u8]) -> axum::response::Response {
    let segments: Vec<&str> = parts.uri.path().split('/').collect();
    let last = segments.last().copied().unwrap_or_default();
    let text = format!("{}{}", parts.uri.path(), String::from_utf8_lossy(body));
    let delay = text.split("slow-").nth(1).and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next());
    if let Some(ms) = delay.and_then(|ms| ms.parse().ok()) {
        tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
    }
    let json = |body: String| ([("content-type", "application/json"), ("set-cookie", "upstream=secret")], body);
    let decoded = |segment: &str| percent_encoding::percent_decode_str(segment).decode_utf8_lossy().into_owned();
    let variation = |variation: &str, render: &str| {
        let render = if variation.starts_with("foreign") { "rnd_someone_elses".to_string() } else { decoded(render) };
        serde_json::json!({"id": variation, "render_id": render, "created_at": 1, "status": "done",
            "type": "staging", "result": {"url": "https://img.example/a.jpg"}})
    };
    match (segments.as_slice(), last) {
        // what a proxy in front of the service might send instead of its answer
        (_, "html-page") => {
            ([("content-type", "text/html")], "<script>document.title = 'gotcha'</script>").into_response()
        }
        (_, "svg-image") => (
            [("content-type", "image/svg+xml")],
            r#"<svg xmlns="http://www.w3.org/2000/svg"><script>document.title = 'gotcha'</script></svg>"#,
        )
            .into_response(),
        // a photo the service fails on at once
        _ if text.contains("photos.example/unavailable.jpg") => {
            let message = r#"{"message":"The service is briefly unavailable."}"#;
            (axum::http::StatusCode::SERVICE_UNAVAILABLE, json(message.into())).into_response()
        }
        // a gateway before the service that gave up waiting for it
        _ if text.contains("photos.example/gateway-timeout.jpg") => {
            (axum::http::StatusCode::GATEWAY_TIMEOUT, "upstream timed out").into_response()
        }
        // the account's plan used up
        _ if text.contains("photos.example/over-the-plan.jpg") => {
            let message = r#"{"message":"The account's staging photo limit is reached: 100 of 100 used."}"#;
            (axum::http::StatusCode::FORBIDDEN, json(message.into())).into_response()
        }
        // a photo the service refuses to stage
        _ if text.contains("photos.example/refused.jpg") => {
            let message = r#"{"message":"The photo could not be read."}"#;
            (axum::http::StatusCode::UNPROCESSABLE_ENTITY, json(message.into())).into_response()
        }
        (_, "echo-401") => {
            let sent = parts.headers.get("authorization").and_then(|v| v.to_str().ok()).unwrap_or_default();
            let message = serde_json::json!({ "message": format!("Invalid credentials: {sent}") });
            (axum::http::StatusCode::UNAUTHORIZED, json(message.to_string())).into_response()
        }
        (["", "v2", "renders", render, "variations", id], _) => json(variation(id, render).to_string()).into_response(),
        (["", "v2", "renders", "variations", "bulk"], _) => {
            json(serde_json::json!({"results": [variation("var_added", "rnd_bulk")]}).to_string()).into_response()
        }
        (["", "v2", "renders", render, "variations"], _) if parts.method == axum::http::Method::POST => {
            json(serde_json::json!({"variations": [variation("var_added", render)]}).to_string()).into_response()
        }
        (["", "v2", "renders", render], _) if !matches!(*render, "bulk" | "") => {
            let render = decoded(render);
            let variations = variation_page(&render, parts.uri.query().unwrap_or_default());
            json(format!(
                r#"{{"id":"{render}","created_at":1,"eta":null,"variations":{variations},{NOT_IN_THE_CONTRACT}}}"#
            ))
            .into_response()
        }
        (["", "v2", "user", "webhook-secret"], _) => {
            json(r#"{"message":"Webhook secret updated."}"#.into()).into_response()
        }
        (["", "v1", "render"], _) => {
            let query = parts.uri.query().unwrap_or_default();
            let render = query.split('&').find_map(|pair| pair.strip_prefix("render_id=")).unwrap_or("rnd_v1");
            let body = serde_json::json!({"render_id": decoded(render), "status": "done", "outputs": []});
            json(body.to_string()).into_response()
        }
        (["", "v1", "render", "create" | "create-variation"], _) => {
            json(r#"{"render_id":"rnd_v1"}"#.into()).into_response()
        }
        _ => {
            // a creation whose photo is named `as-NAME.jpg` creates render `rnd_NAME`
            let named = text.split("photos.example/as-").nth(1).and_then(|rest| rest.split('.').next());
            let render = named.map_or("rnd_recorded".to_string(), |name| format!("rnd_{name}"));
            json(format!(r#"{{"id":"{render}","created_at":1,"eta":null,"variations":{RENDER_VARIATIONS},{NOT_IN_THE_CONTRACT}}}"#))
                .into_response()
        }
    }
}

/// Render `render`'s page of variations for `query`: none, but for renders named to misbehave: `rnd_cycling...`
/// pages A, B, A, ... (cursors that come back), `rnd_endless...` a new cursor every page, each with one finished
/// variation; `rnd_failed...` two variations that failed; `rnd_mixed...` holds a finished variation of another
/// render.
fn variation_page(render: &str, query: &str) -> String {
    let cursor = query.split('&').find_map(|pair| pair.strip_prefix("variations_cursor=")).unwrap_or("0");
    let done = |id: &str, of: &str| {
        serde_json::json!({"id": id, "render_id": of, "created_at": 1, "status": "done", "type": "staging",
            "result": {"url": format!("https://img.example/{id}.jpg")}})
    };
    let page = |id: String, next: String| {
        serde_json::json!({"total_count": 1, "next_cursor": next, "items": [done(&id, render)]}).to_string()
    };
    let number: u64 = cursor.trim_start_matches('c').parse().unwrap_or(0);
    if render.starts_with("rnd_cycling") {
        page(format!("var_{cursor}"), if cursor == "A" { "B".into() } else { "A".into() })
    } else if render.starts_with("rnd_endless") {
        page(format!("var_{number}"), format!("c{}", number + 1))
    } else if render.starts_with("rnd_failed") {
        let failed = |id: &str| serde_json::json!({"id": id, "render_id": render, "created_at": 1, "status": "error", "type": "staging"});
        serde_json::json!({"total_count": 2, "next_cursor": null, "items": [failed("var_1"), failed("var_2")]})
            .to_string()
    } else if render.starts_with("rnd_partly") {
        // one variation made, one failed, and no `total_count` (the contract has it optional)
        let failed = serde_json::json!({"id": "var_2", "render_id": render, "created_at": 2, "status": "error", "type": "staging"});
        let items = match cursor {
            "var_1" => vec![failed],
            _ => vec![done("var_1", render), failed],
        };
        serde_json::json!({"next_cursor": null, "items": items}).to_string()
    } else if render.starts_with("rnd_mixed") {
        let items = [done("var_own", render), done("var_theirs", "rnd_someone_elses")];
        serde_json::json!({"total_count": 2, "next_cursor": null, "items": items}).to_string()
    } else {
        RENDER_VARIATIONS.into()
    }
}

const RENDER_VARIATIONS: &str = r#"{"total_count":0,"next_cursor":null,"items":[]}"#;
/// Fields of the stand-in's render answers that the contract does not have: the server passes on the second, and
/// never the first, which names the account's people.
const NOT_IN_THE_CONTRACT: &str = r#""account_email":"ops@service.example","room_detected":"living_room""#;
