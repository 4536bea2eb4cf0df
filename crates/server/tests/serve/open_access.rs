//! Open access's guard over real HTTP: a foreign `Host` (DNS rebinding) is refused; a state-changing request from
//! another site's page is refused and spends nothing; same-origin pages and clients without `Origin` work.

use serde_json::{Value, json};

use crate::support::{Server, widget_dir};
use crate::{raw_http, sample_url};

#[tokio::test]
async fn a_name_that_is_not_the_servers_own_is_refused() {
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
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
    let dist = widget_dir();
    let server = Server::start(dist.path()).await;
    let photo = sample_url(&server, "living-empty.jpg").await;
    let http = reqwest::Client::new();
    let render = json!({"image_url": photo, "variation_count": 1, "config": {"type": "enhancement"}});
    let create = || http.post(server.api("/v2/renders")).json(&render);

    // a form post from another site needs no preflight: v1's multipart create with a photo
    let form = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(vec![0xff, 0xd8, 0xff]).file_name("room.jpg"));
    let v1 = http
        .post(server.api("/v1/render/create?room_type=living&style=modern"))
        .header("Origin", "http://attacker.example")
        .header("Sec-Fetch-Site", "cross-site")
        .multipart(form);
    let answer = v1.send().await.unwrap();
    assert_eq!(answer.status().as_u16(), 403);
    let body: Value = answer.json().await.unwrap();
    assert!(body["message"].as_str().unwrap().contains("--allow-origin"), "{body}");
    // a foreign Origin, or Sec-Fetch-Site alone
    assert_eq!(create().header("Origin", "http://attacker.example").send().await.unwrap().status().as_u16(), 403);
    assert_eq!(create().header("Sec-Fetch-Site", "cross-site").send().await.unwrap().status().as_u16(), 403);
    assert_eq!(create().header("Origin", "null").send().await.unwrap().status().as_u16(), 403);
    // ...while reading stays open, and the server's own page and curl-like clients create
    let list = || async {
        let list: Value = http.get(server.api("/v2/renders")).send().await.unwrap().json().await.unwrap();
        list["items"].as_array().map(Vec::len).unwrap_or_default()
    };
    assert_eq!(list().await, 0, "nothing was created, nothing was spent");
    let own_origin = server.url.clone();
    let own = create().header("Origin", &own_origin).header("Sec-Fetch-Site", "same-origin").send().await.unwrap();
    assert_eq!(own.status().as_u16(), 200);
    assert_eq!(create().send().await.unwrap().status().as_u16(), 200);
    assert_eq!(list().await, 2);
}
