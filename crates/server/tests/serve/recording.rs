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
    /// Answers every call with `{"id": "rnd_recorded", ...}` (but a path ending in `/html-page` with an HTML page),
    /// after `delay_ms` milliseconds when the query has that parameter, and remembers it.
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

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
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
        headers: parts.headers,
        body,
    });
    let delay_ms = parts.uri.query().unwrap_or_default().split('&').find_map(|pair| pair.strip_prefix("delay_ms="));
    if let Some(delay_ms) = delay_ms.and_then(|ms| ms.parse().ok()) {
        tokio::time::sleep(std::time::Duration::from_millis(delay_ms)).await;
    }
    if parts.uri.path().ends_with("/html-page") {
        // what a proxy in front of the service might send instead of its answer
        return ([("content-type", "text/html")], "<script>document.title = 'gotcha'</script>").into_response();
    }
    (
        [("content-type", "application/json"), ("set-cookie", "upstream=secret"), ("x-upstream-internal", "1")],
        r#"{"id":"rnd_recorded","created_at":1,"eta":null,"variations":{"total_count":0,"next_cursor":null,"items":[]}}"#,
    )
        .into_response()
}
