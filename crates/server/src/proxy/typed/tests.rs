//! Nothing relayed that was not read, through the whole app in-process: what a token holder (or another site's
//! page) sends is read into the contract's types before anything leaves, the service is sent this server's own
//! serialisation, and what the service answers is examined before the browser sees it; a multi-view render's
//! photos are each checked. A recording stand-in shows what reached the service.
//! After them, its parts alone, called directly.

use std::time::Duration;

use axum::http::Method;
use serde_json::{Value, json};

use crate::testing::exiftool::assert_drawing_only;
use crate::testing::phone::{SECRETS, phone_jpeg};
use crate::testing::photos::contains;
use crate::testing::recording::RecordingUpstream;
use crate::testing::sockets::{post_raw, raw_http};
use crate::testing::{TEST_API_KEY, TestApp, text};

/// A server with token access in front of `upstream`, naming itself `https://studio.example`; alice's token.
async fn behind_tokens(upstream: &RecordingUpstream) -> (TestApp, String) {
    let args = ["--access", "token", "--public-url", "https://studio.example"];
    let server = TestApp::in_front_of(upstream, &args).await;
    let alice = server.token("alice");
    (server, alice)
}

#[tokio::test]
async fn a_body_that_cannot_be_read_is_refused_and_nothing_is_sent() {
    let upstream = RecordingUpstream::start().await;
    let (server, alice) = behind_tokens(&upstream).await;
    let attack = r#""image_url": "http://169.254.169.254/latest/meta-data/", "webhook_url": "https://attacker.example/h",
                    "variation_count": 1, "config": {"type": "enhancement"}"#;
    let utf16: Vec<u8> = format!("{{{attack}}}").encode_utf16().flat_map(u16::to_le_bytes).collect();
    let bodies: Vec<(&str, Vec<u8>)> = vec![
        ("a lone surrogate", format!(r#"{{{attack}, "style": "\ud800"}}"#).into_bytes()),
        ("a lone surrogate where it is read", format!("{{{}}}", attack.replace("meta-data/", r"\ud800")).into_bytes()),
        ("UTF-16", [&[0xFF, 0xFE][..], &utf16].concat()),
        ("a number past f64", format!(r#"{{{attack}, "n": 1e400}}"#).into_bytes()),
        ("201 levels deep", format!(r#"{{{attack}, "x": {}1{}}}"#, "[".repeat(201), "]".repeat(201)).into_bytes()),
        ("a key given twice", format!(r#"{{{attack}, "image_url": "https://photos.example/a.jpg"}}"#).into_bytes()),
    ];
    for (what, body) in bodies {
        let asking = server.ask(Method::POST, "/api/v2/renders").bearer(&alice);
        let (status, answer) = asking.header("content-type", "application/json").body(body).answer().await;
        assert_eq!(status, 400, "{what}: {answer}");
    }
    // a bulk entry whose render_id is not a string is not a bulk request at all
    let bulk =
        json!({"renders": [{"render_id": {"$ne": ""}, "variation_count": 1, "config": {"type": "enhancement"}}]});
    let asking = server.ask(Method::POST, "/api/v2/renders/variations/bulk").bearer(&alice).json(&bulk);
    assert_eq!(asking.answer().await.0, 400);
    assert!(upstream.seen().is_empty(), "nothing reached the service: {:?}", upstream.seen());
}

#[tokio::test]
async fn the_service_is_sent_what_was_read_and_nothing_else() {
    let upstream = RecordingUpstream::start().await;
    let (server, alice) = behind_tokens(&upstream).await;
    let body = json!({"image_url": "https://photos.example/a.jpg", "variation_count": 1, "smuggled": {"a": [1, 2]},
                      "webhook_url": "https://attacker.example/h",
                      "config": {"type": "staging", "sky_style": "dusk", "extra": "x",
                                 "add_furniture": {"style": "modern", "room_type": "living", "more": 1}}});
    let (status, answer) = server.ask(Method::POST, "/api/v2/renders").bearer(&alice).json(&body).answer().await;
    assert_eq!(status, 200, "{answer}");
    let seen = upstream.seen();
    let sent: Value = serde_json::from_slice(&seen[0].body).unwrap();
    let receiver = sent["webhook_url"].as_str().unwrap();
    assert!(receiver.starts_with("https://studio.example/api/webhooks/service?creation=crt_"), "{receiver}");
    let without_receiver = json!({"image_url": "https://photos.example/a.jpg", "variation_count": 1,
        "config": {"type": "staging", "add_furniture": {"style": "modern", "room_type": "living"}}});
    let mut compared = sent.clone();
    compared.as_object_mut().unwrap().remove("webhook_url");
    assert_eq!(compared, without_receiver);
    assert_eq!(seen[0].headers["content-type"], "application/json");
}

#[tokio::test]
async fn each_body_is_capped_to_what_its_call_needs() {
    let upstream = RecordingUpstream::start().await;
    let (server, alice) = behind_tokens(&upstream).await;
    let array = |bytes: usize| format!("[{}0]", "0,".repeat(bytes / 2));
    for (path, size) in [("/v2/renders", 1024 * 1024), ("/v1/render/create", 26 * 1024 * 1024 - 16)] {
        let status = post_raw(&server.url, &format!("/api{path}"), Some(&alice), &array(size)).await;
        assert_eq!(status, 413, "{path}");
    }
    // A declared length over the cap is refused before any of the body comes (it never does here).
    let host = server.url.trim_start_matches("http://");
    let head = format!(
        "POST /api/v2/renders HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {alice}\r\n\
         Content-Type: application/json\r\nContent-Length: 1048576\r\nConnection: close\r\n\r\n"
    );
    let (status, answer) = tokio::time::timeout(Duration::from_secs(30), raw_http(&server.url, &head))
        .await
        .expect("the refusal comes without the body");
    assert_eq!(status, 413, "{answer}");
    assert!(answer.contains("more than this call needs"), "{answer}");
    assert!(upstream.seen().is_empty());
}

#[tokio::test]
async fn a_v1_photo_goes_on_without_its_metadata_or_name_and_a_non_photo_not_at_all() {
    let upstream = RecordingUpstream::start().await;
    let (server, alice) = behind_tokens(&upstream).await;
    let original = phone_jpeg();
    assert!(SECRETS.iter().all(|secret| contains(&original, secret.as_bytes())));
    let create = |bytes: &[u8]| {
        let path = "/api/v1/render/create?room_type=living&style=modern&ROOM_TYPE=x";
        let file = ("file", "12 Oak Lane, Springfield.jpg", "image/jpeg");
        server.ask(Method::POST, path).bearer(&alice).form(file, bytes, &[("note", "dropped")]).answer()
    };
    let (status, answer) = create(&original).await;
    assert_eq!(status, 200, "{answer}");
    let seen = upstream.seen();
    assert_eq!(seen[0].path_and_query, "/v1/render/create?room_type=living&style=modern");
    let sent = &seen[0].body;
    // the file's name can say where the photo was taken: the service is told only what kind of photo it is
    assert!(
        contains(sent, b"filename=\"photo.jpg\"") && !contains(sent, b"Oak Lane"),
        "{}",
        String::from_utf8_lossy(sent)
    );
    assert!(!contains(sent, b"note"), "{}", String::from_utf8_lossy(sent));
    // the photo as the service got it: from its start of image to the form's closing boundary
    let start = sent.windows(2).position(|w| w == [0xFF, 0xD8]).expect("the photo in the form");
    let end = sent.windows(4).rposition(|w| w == b"\r\n--").expect("the form's end");
    assert_drawing_only(&sent[start..end], "the photo v1's create sent on");
    let refused = create(&original[..original.len() / 3]).await;
    assert_eq!(refused.0, 400, "a photo cut short: {}", refused.1);
    assert_eq!(create(b"<svg><script>alert(1)</script></svg>").await.0, 415);
    assert_eq!(upstream.seen().len(), 1);
}

#[tokio::test]
async fn an_inline_photo_and_mask_go_on_and_are_kept_without_their_metadata() {
    use base64::Engine;
    use base64::engine::general_purpose::STANDARD;
    let upstream = RecordingUpstream::start().await;
    let (server, alice) = behind_tokens(&upstream).await;
    let inline = format!("data:image/jpeg;base64,{}", STANDARD.encode(phone_jpeg()));
    let removal = json!({"type": "staging", "remove_furniture": {"mode": "on", "mask_url": inline}});
    server.create_render(Some(&alice), &inline, removal, false).await;
    let sent: Value = serde_json::from_slice(&upstream.seen()[0].body).unwrap();
    for address in [&sent["image_url"], &sent["config"]["remove_furniture"]["mask_url"]] {
        let data = address.as_str().and_then(|a| a.strip_prefix("data:image/jpeg;base64,")).expect("an inline JPEG");
        assert_drawing_only(&STANDARD.decode(data).unwrap(), "an inline photo as the service got it");
    }
    // nothing this server keeps holds what the photo said
    let mut folders = vec![server.data_dir().to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let kept = std::fs::read(&path).unwrap();
                let inline_kept = String::from_utf8_lossy(&kept).contains(&inline[..200]);
                assert!(!inline_kept, "{} holds the photo as it was given", path.display());
            }
        }
    }
    let not_a_photo = json!({"image_url": "data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=", "variation_count": 1,
                             "config": {"type": "enhancement"}});
    let (status, answer) = server.ask(Method::POST, "/api/v2/renders").bearer(&alice).json(&not_a_photo).answer().await;
    assert_eq!(status, 415, "{answer}");
    assert_eq!(upstream.seen().len(), 1);
}

#[tokio::test]
async fn a_variation_of_another_render_is_neither_read_nor_built_on() {
    let upstream = RecordingUpstream::start().await;
    let (server, alice) = behind_tokens(&upstream).await;
    let enhancement = json!({"type": "enhancement"});
    server.create_render(Some(&alice), "https://photos.example/a.jpg", enhancement, false).await;
    let mine = "/api/v2/renders/rnd_recorded";
    let read = |variation: &str| server.ask(Method::GET, &format!("{mine}/variations/{variation}")).bearer(&alice);
    let (status, answer) = read("var_1").answer().await;
    assert_eq!((status, answer["render_id"].as_str()), (200, Some("rnd_recorded")), "{answer}");
    // the stand-in answers a `foreign...` variation as another render's, as a lax service might
    let (status, answer) = read("foreign-1").answer().await;
    assert_eq!(status, 404, "{answer}");

    let on_base = |base: &str| {
        json!({"variation_count": 1, "config": {"type": "staging",
               "add_furniture": {"style": "modern", "room_type": "living", "base_variation_id": base}}})
    };
    let add = |body: Value| server.ask(Method::POST, &format!("{mine}/variations")).bearer(&alice).json(&body).answer();
    let posts = || upstream.seen().iter().filter(|seen| seen.method == "POST").count();
    let before = posts();
    let (status, answer) = add(on_base("foreign-2")).await;
    assert_eq!(status, 400, "{answer}");
    assert!(answer["message"].as_str().unwrap().contains("not a variation of render"), "{answer}");
    assert_eq!(posts(), before, "nothing was added");
    let (status, answer) = add(on_base("var_2")).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(posts(), before + 1);
}

#[tokio::test]
async fn the_services_words_reach_the_browser_only_when_they_are_safe() {
    let upstream = RecordingUpstream::start().await;
    let server = TestApp::in_front_of(&upstream, &[]).await;
    // a refusal that echoes the request's Authorization: our own sentence, never the key, and not a 401 (which
    // the widget would take for its own token refused)
    let (status, words) = text(server.get("/api/v2/renders/echo-401").await).await;
    assert_eq!(status, 502);
    assert!(!words.contains(TEST_API_KEY) && !words.contains("Api-Key") && !words.contains("0123456789"), "{words}");
    assert!(words.contains("VSTAGE_API_KEY"), "{words}");
    // an SVG with a script is not relayed at all
    let svg = server.get("/api/v2/renders/svg-image").await;
    assert_eq!(svg.status(), 502);
    assert_eq!(svg.headers()["content-type"], "application/json");

    // an image relayed under this origin is inert: the sandbox's, as the service's would be
    let sandbox = TestApp::start(&[]).await;
    let photo = sandbox.sample_url("living-empty.jpg").await;
    let image = sandbox.get(photo.strip_prefix(&sandbox.url).unwrap()).await;
    assert_eq!(image.status(), 200);
    assert!(image.headers()["content-security-policy"].to_str().unwrap().starts_with("sandbox"));
    assert_eq!(image.headers()["x-content-type-options"], "nosniff");
}

#[tokio::test]
async fn the_sandbox_demo_is_not_offered_with_tokens_and_its_subjects_are_refused_elsewhere() {
    let sandbox_with_tokens = TestApp::with_tokens(&[]).await;
    let agent = json!({"agent": "ana"});
    let (status, _) = sandbox_with_tokens.ask(Method::POST, "/demo/token").json(&agent).answer().await;
    assert!(!(200..300).contains(&status), "no demo tokens from a server that takes real ones");
    let page = sandbox_with_tokens.get("/demo/listing.html").await;
    assert_ne!(page.headers().get("content-type").map(|v| v.to_str().unwrap()), Some("text/html; charset=utf-8"));

    let demo_token = sandbox_with_tokens.token("demo:ana");
    let (status, answer) = sandbox_with_tokens.ask(Method::GET, "/api/v2/user").bearer(&demo_token).answer().await;
    assert_eq!(status, 401, "{answer}");
    let upstream = RecordingUpstream::start().await;
    let (real, _) = behind_tokens(&upstream).await;
    let (status, answer) = real.ask(Method::GET, "/api/v2/renders").bearer(&demo_token).answer().await;
    assert_eq!(status, 401, "{answer}");
    assert!(upstream.seen().is_empty());

    // the open sandbox still offers its demo page, whose tokens work there
    let open = TestApp::start(&[]).await;
    let (_, minted) = open.ask(Method::POST, "/demo/token").json(&agent).answer().await;
    let token = minted["token"].as_str().unwrap();
    assert_eq!(open.ask(Method::GET, "/api/v2/user").bearer(token).answer().await.0, 200);
}

#[tokio::test]
async fn another_sites_page_spends_none_of_the_studios_rate_limit() {
    let server = TestApp::start(&["--rate-limit", "60"]).await;
    // what an <img> tag on another site's page sends
    for _ in 0..260 {
        let answer = server
            .ask(Method::GET, "/api/v2/status")
            .header("sec-fetch-site", "cross-site")
            .header("sec-fetch-mode", "no-cors")
            .header("sec-fetch-dest", "image")
            .send()
            .await;
        assert_eq!(answer.status(), 403);
    }
    for _ in 0..6 {
        let own = server.ask(Method::GET, "/api/v2/status").header("sec-fetch-site", "same-origin").send().await;
        assert_eq!(own.status(), 200);
    }
}

#[tokio::test]
async fn the_browser_gets_what_the_server_read_of_an_answer_and_nothing_unsafe() {
    let upstream = RecordingUpstream::start().await;
    let (server, alice) = behind_tokens(&upstream).await;
    let enhancement = json!({"type": "enhancement"});
    let answer = server.create_render(Some(&alice), "https://photos.example/a.jpg", enhancement, false).await;
    assert_eq!(answer["id"], "rnd_recorded");
    assert!(answer.get("account_email").is_none(), "{answer}");
    for path in ["/api/v2/renders/rnd_recorded", "/api/v2/renders"] {
        let (status, answer) = server.ask(Method::GET, path).bearer(&alice).answer().await;
        assert_eq!(status, 200, "{path}: {answer}");
        assert!(!answer.to_string().contains("account_email"), "{path}: {answer}");
        assert!(answer.to_string().contains(r#""room_detected":"living_room""#), "{path}: {answer}");
    }
}

/// Multi-view staging through the proxy, with a token: the compatibility check and a render of two photos reach
/// the sandbox; a photo on a private address among the views is refused before anything is sent.
#[tokio::test]
async fn multi_view_staging_goes_through_with_its_photos_checked() {
    let server = TestApp::with_tokens(&[]).await;
    let alice = server.token("alice");
    let photos = [server.sample_url("living-empty.jpg").await, server.sample_url("living-furnished.jpg").await];
    let check = |body: Value| server.ask(Method::POST, "/api/v2/multi-view-compatability").bearer(&alice).json(&body);
    assert_eq!(check(json!({"image_urls": photos})).answer().await, (200, json!({"compatible": true})));

    let render = json!({"image_urls": photos, "variation_count": 1, "wait_for_completion": true,
                        "config": {"type": "staging", "add_furniture": {"room_type": "living", "style": "coastal"}}});
    let (status, created) = server.ask(Method::POST, "/api/v2/renders").bearer(&alice).json(&render).answer().await;
    assert_eq!(status, 200, "{created}");
    let views = created["variations"]["items"][0]["result"].as_array().expect("one image per photo");
    assert_eq!(views.len(), 2, "{created}");

    let private = json!({"image_urls": [photos[0].clone(), "http://169.254.169.254/latest/meta-data/photo.jpg"]});
    let (status, refused) = check(private).answer().await;
    assert_eq!(status, 400);
    assert!(refused["message"].as_str().unwrap().contains("image_urls[1]"), "{refused}");
}

use super::*;

fn render_call(render_id: &str) -> Call {
    Call::GetRender { render_id: render_id.into(), query: Default::default() }
}

fn relayed_text(call: &Call, answer: &'static [u8]) -> (String, bool) {
    let body = Bytes::from_static(answer);
    let relayed = rewritten(Operation::GetRender, call, &body).unwrap();
    let passed = relayed.body.as_ptr() == body.as_ptr();
    (String::from_utf8(relayed.body.to_vec()).unwrap(), passed)
}

#[test]
fn what_the_contract_does_not_hold_is_passed_on_when_safe() {
    let answer = br#"{"id":"rnd_1","created_at":1700000000000,"eta":null,"account_email":"ops@example.com",
        "room_detected":"bedroom","variations":{"items":[],"next_cursor":null,"internal":{"cost":3}}}"#;
    let (written, passed) = relayed_text(&render_call("rnd_1"), answer);
    assert!(written.contains(r#""id":"rnd_1""#) && written.contains(r#""room_detected":"bedroom""#), "{written}");
    assert!(!written.contains("account_email") && !written.contains("internal"), "{written}");
    assert!(!passed, "written again without the unsafe fields");
}

#[test]
fn an_answer_this_server_would_write_as_it_came_passes_as_its_bytes() {
    let answer = br#"{"id":"rnd_1", "created_at":1700000000000.5,"eta":null,"room_detected":"bed\u0072oom",
        "variations":{"total_count":1,"next_cursor":null,"items":[{"id":"var_1","render_id":"rnd_1",
        "created_at":1,"status":"processing","eta":null,"seed":7}]},"thumbnail":{"url":"https://x/t.jpg"}}"#;
    let (written, passed) = relayed_text(&render_call("rnd_1"), answer);
    assert!(passed, "the service's own bytes: {written}");
    // a value the reading writes otherwise, a field it adds, a name repeated, an unsafe name deep down
    for answer in [
        br#"{"id":"rnd_1","created_at":1,"eta":null,"variations":{"items":[{"id":"v","render_id":"rnd_1",
            "created_at":1,"status":"done","eta":null,"config":{"type":"staging","style":"modern"}}]}}"#
            .as_slice(),
        br#"{"id":"rnd_1","created_at":1}"#,
        br#"{"id":"rnd_1","created_at":1,"eta":null,"seed":1,"seed":2}"#,
        br#"{"id":"rnd_1","created_at":1,"eta":null,"extra":{"list":[{"owner":"o"}]}}"#,
    ] {
        let body = Bytes::copy_from_slice(answer);
        let relayed = rewritten(Operation::GetRender, &render_call("rnd_1"), &body).unwrap();
        let as_read: Value = serde_json::from_slice(&relayed.body).unwrap();
        let render: Render = serde_json::from_slice(answer).unwrap();
        let expected =
            unlisted::merged(serde_json::from_slice(answer).unwrap(), serde_json::to_value(&render).unwrap());
        assert_eq!(as_read, expected, "written as before: {}", String::from_utf8_lossy(answer));
    }
}

#[test]
fn an_answer_of_another_shape_is_a_bad_gateway() {
    let call = Call::GetVariation { render_id: "rnd_1".into(), variation_id: "var_1".into() };
    let error = rewritten(Operation::GetVariation, &call, &Bytes::from_static(br#"{"hello":"world"}"#)).unwrap_err();
    assert!(matches!(error, ServerError::BadGateway(_)), "{error:?}");
    let up = rewritten(Operation::Status, &Call::Status, &Bytes::from_static(b"<html>up</html>")).unwrap();
    assert!(up.body.is_empty());
    let another = Bytes::from_static(br#"{"id":"rnd_2","created_at":1,"eta":null}"#);
    assert!(matches!(
        rewritten(Operation::GetRender, &render_call("rnd_1"), &another),
        Err(ServerError::BadGateway(_))
    ));
    let not_json = Bytes::from_static(b"<html>Bad gateway</html>");
    let Err(ServerError::BadGateway(message)) = rewritten(Operation::GetRender, &render_call("rnd_1"), &not_json)
    else {
        panic!("not JSON is a 502")
    };
    assert!(message.contains("something other than data"), "{message}");
}
