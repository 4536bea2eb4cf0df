//! Open access's guard through the whole app, in-process: a foreign `Host` (DNS rebinding) is refused; a
//! state-changing request from another site's page is refused and spends nothing; same-origin pages and clients
//! without `Origin` work.
//! After them, its parts alone, called directly.

use axum::http::Method;
use serde_json::json;

use crate::testing::TestApp;
use crate::testing::sockets::raw_http;

#[tokio::test]
async fn a_name_that_is_not_the_servers_own_is_refused() {
    let server = TestApp::start(&[]).await;
    let port = server.url.rsplit(':').next().unwrap().to_string();
    let get = |host: &str| format!("GET /api/v2/user HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");

    // a page of attacker.example whose name was made to resolve to 127.0.0.1
    let (status, body) = raw_http(&server.url, &get(&format!("attacker.example:{port}"))).await;
    assert_eq!(status, 421, "{body}");
    assert!(body.contains("own address") && !body.contains("email"), "{body}");
    assert_eq!(raw_http(&server.url, &get("attacker.example")).await.0, 421);
    // the page and the widget's files too
    let page = format!("GET / HTTP/1.1\r\nHost: attacker.example:{port}\r\nConnection: close\r\n\r\n");
    assert_eq!(raw_http(&server.url, &page).await.0, 421);

    for own in [format!("127.0.0.1:{port}"), format!("localhost:{port}")] {
        let (status, body) = raw_http(&server.url, &get(&own)).await;
        assert_eq!(status, 200, "{own}: {body}");
    }
}

#[tokio::test]
async fn another_sites_page_cannot_create_renders() {
    let server = TestApp::start(&[]).await;
    let photo = server.sample_url("living-empty.jpg").await;
    let render = json!({"image_url": photo, "variation_count": 1, "config": {"type": "enhancement"}});
    let create = || server.ask(Method::POST, "/api/v2/renders").json(&render);

    // a form post from another site needs no preflight: v1's multipart create with a photo
    let (status, body) = server
        .ask(Method::POST, "/api/v1/render/create?room_type=living&style=modern")
        .header("Origin", "http://attacker.example")
        .header("Sec-Fetch-Site", "cross-site")
        .form(("file", "room.jpg", "application/octet-stream"), &[0xff, 0xd8, 0xff], &[])
        .answer()
        .await;
    assert_eq!(status, 403);
    assert!(body["message"].as_str().unwrap().contains("--allow-origin"), "{body}");
    // a foreign Origin, or Sec-Fetch-Site alone
    assert_eq!(create().header("Origin", "http://attacker.example").send().await.status(), 403);
    assert_eq!(create().header("Sec-Fetch-Site", "cross-site").send().await.status(), 403);
    assert_eq!(create().header("Origin", "null").send().await.status(), 403);
    // ...while reading stays open, and the server's own page and curl-like clients create
    let listed = || async {
        let (_, list) = server.ask(Method::GET, "/api/v2/renders").answer().await;
        list["items"].as_array().map(Vec::len).unwrap_or_default()
    };
    assert_eq!(listed().await, 0, "nothing was created, nothing was spent");
    let own = create().header("Origin", &server.url).header("Sec-Fetch-Site", "same-origin").send().await;
    assert_eq!(own.status(), 200);
    assert_eq!(create().send().await.status(), 200);
    assert_eq!(listed().await, 2);
}

use axum::http::HeaderValue;

use super::*;

fn guard() -> OpenGuard {
    OpenGuard::new("127.0.0.1:8080".parse().unwrap(), None, &["https://listings.example".to_string()])
}

fn page() -> Uri {
    Uri::from_static("/renders/new")
}

fn api() -> Uri {
    Uri::from_static("/api/v2/renders")
}

fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
    pairs.iter().map(|(name, value)| (name.parse().unwrap(), HeaderValue::from_static(value))).collect()
}

#[test]
fn only_the_servers_own_names_get_through() {
    let guard = guard();
    for host in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080"] {
        assert!(guard.check(&Method::GET, &page(), &headers(&[("host", host)])).is_ok(), "{host}");
    }
    for host in ["attacker.example", "attacker.example:8080", "127.0.0.1:9090", ""] {
        let refused = guard.check(&Method::GET, &page(), &headers(&[("host", host)]));
        assert!(matches!(refused, Err(ServerError::Misdirected(_))), "{host}");
    }
    let public = OpenGuard::new("127.0.0.1:8080".parse().unwrap(), Some("https://studio.example"), &[]);
    assert!(public.check(&Method::GET, &page(), &headers(&[("host", "studio.example")])).is_ok());
}

#[test]
fn state_changing_requests_from_other_sites_are_refused() {
    let guard = guard();
    let host = ("host", "127.0.0.1:8080");
    let allowed = [
        headers(&[host]),
        headers(&[host, ("origin", "http://127.0.0.1:8080"), ("sec-fetch-site", "same-origin")]),
        headers(&[host, ("origin", "https://listings.example"), ("sec-fetch-site", "cross-site")]),
    ];
    for (index, request) in allowed.iter().enumerate() {
        assert!(guard.check(&Method::POST, &api(), request).is_ok(), "case {index}");
    }
    let refused = [
        headers(&[host, ("origin", "http://attacker.example")]),
        headers(&[host, ("sec-fetch-site", "cross-site")]),
        headers(&[host, ("origin", "null")]),
        headers(&[host, ("origin", "http://127.0.0.1:3000"), ("sec-fetch-site", "same-site")]),
    ];
    for (index, request) in refused.iter().enumerate() {
        assert!(matches!(guard.check(&Method::POST, &api(), request), Err(ServerError::Forbidden(_))), "case {index}");
        assert!(guard.check(&Method::GET, &page(), request).is_ok(), "reading a page stays open, case {index}");
    }
}

#[test]
fn another_site_reads_no_api_but_the_links_that_are_their_own_permission() {
    let guard = guard();
    let host = ("host", "127.0.0.1:8080");
    let image_tag = headers(&[host, ("sec-fetch-site", "cross-site"), ("sec-fetch-dest", "image")]);
    let foreign = headers(&[host, ("origin", "http://attacker.example")]);
    for request in [&image_tag, &foreign] {
        for path in ["/api/v2/renders", "/api/v2/user", "/api/events", "/api/results/r/v/0-url.jpg"] {
            let refused = guard.check(&Method::GET, &Uri::from_static(path), request);
            assert!(matches!(refused, Err(ServerError::Forbidden(_))), "{path}");
        }
        for path in ["/api/results/r/v/0-url.jpg?sig=abc", "/api/uploads/0123abcd.jpg", "/embed.js", "/"] {
            assert!(guard.check(&Method::GET, &Uri::from_static(path), request).is_ok(), "{path}");
        }
    }
    let own = headers(&[host, ("sec-fetch-site", "same-origin")]);
    let allowed = headers(&[host, ("origin", "https://listings.example"), ("sec-fetch-site", "cross-site")]);
    for request in [&own, &allowed, &headers(&[host])] {
        assert!(guard.check(&Method::GET, &api(), request).is_ok());
    }
}
