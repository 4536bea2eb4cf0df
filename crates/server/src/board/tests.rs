//! `/api/board` through the whole app, in-process: the listing board each subject returns to, holding only the
//! subject's own renders, and its ZIP with each photo under the agent's name for it.

use axum::http::Method;
use serde_json::{Value, json};

use crate::testing::TestApp;
use crate::testing::photos::pictures_in;

async fn call(server: &TestApp, (method, path): (Method, &str), token: &str, body: Option<Value>) -> (u16, Value) {
    let asking = server.ask(method, &format!("/api{path}")).bearer(token);
    match body {
        Some(body) => asking.json(&body).answer().await,
        None => asking.answer().await,
    }
}

fn ids(board: &Value) -> Vec<&str> {
    board["renders"].as_array().unwrap().iter().map(|r| r["render_id"].as_str().unwrap()).collect()
}

#[tokio::test]
async fn a_board_holds_its_subjects_renders_and_downloads_them_by_the_agents_names() {
    let server = TestApp::with_tokens(&[]).await;
    let (alice, bob) = (server.token("alice"), server.token("bob"));
    let photo = server.sample_url("living-empty.jpg").await;
    let first = server.staged(&alice, &photo, 2).await["id"].as_str().unwrap().to_string();
    let second = server.staged(&alice, &photo, 1).await["id"].as_str().unwrap().to_string();
    let (status, board) = call(&server, (Method::GET, "/board"), &alice, None).await;
    assert_eq!((status, ids(&board)), (200, vec![]), "a new subject's board is empty");

    // Two photos the agent called the same: the ZIP tells them apart.
    let entries = json!({"renders": [
        {"render_id": first, "label": "Front Room.jpg"},
        {"render_id": second, "label": "Front Room.jpg"},
    ]});
    let (status, board) = call(&server, (Method::POST, "/board/renders"), &alice, Some(entries.clone())).await;
    assert_eq!((status, ids(&board)), (200, vec![first.as_str(), second.as_str()]));
    assert_eq!(board["renders"][0]["label"], "Front Room.jpg");

    // bob can neither add alice's renders nor see her board
    let (status, body) = call(&server, (Method::POST, "/board/renders"), &bob, Some(entries)).await;
    assert_eq!(status, 404, "{body}");
    let (_, bobs) = call(&server, (Method::GET, "/board"), &bob, None).await;
    assert!(ids(&bobs).is_empty());
    let not_a_list = Some(json!({"renders": "no"}));
    assert_eq!(call(&server, (Method::POST, "/board/renders"), &alice, not_a_list).await.0, 400);

    let (head, zip) = server.bytes(&format!("/api/board/results.zip?access_token={alice}")).await;
    assert_eq!(head.status(), 200);
    assert_eq!(head.headers()["content-disposition"], "attachment; filename=\"board-results.zip\"");
    assert_eq!(
        pictures_in(&zip),
        [
            "front-room-2_living-room-scandinavian_01.jpg",
            "front-room_living-room-scandinavian_01.jpg",
            "front-room_living-room-scandinavian_02.jpg"
        ]
    );
    let bobs = server.get(&format!("/api/board/results.zip?access_token={bob}")).await;
    assert_eq!(bobs.status(), 409, "bob's empty board has nothing to download");

    // Taken off the board, the render stays; cleared, the board starts again.
    let (status, board) = call(&server, (Method::DELETE, &format!("/board/renders/{first}")), &alice, None).await;
    assert_eq!((status, ids(&board)), (200, vec![second.as_str()]));
    assert_eq!(call(&server, (Method::GET, &format!("/v2/renders/{first}")), &alice, None).await.0, 200);
    let (status, board) = call(&server, (Method::DELETE, "/board"), &alice, None).await;
    assert_eq!((status, ids(&board)), (200, vec![]));
    let (_, board) = call(&server, (Method::GET, "/board"), &alice, None).await;
    assert!(ids(&board).is_empty());
}
