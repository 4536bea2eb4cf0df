//! `/api/board`: the listing board each subject returns to, kept by the server, holding only the subject's own
//! renders, and its ZIP with each photo under the agent's name for it.

use serde_json::{Value, json};

use crate::results::{pictures_in, staged};
use crate::support::{Server, widget_dir};
use crate::{WIDGET_SECRET, alice_and_bob, sample_url};

async fn call(method: reqwest::Method, server: &Server, path: &str, token: &str, body: Option<Value>) -> (u16, Value) {
    let mut request = reqwest::Client::new().request(method, server.api(path)).bearer_auth(token);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let answer = request.send().await.unwrap();
    (answer.status().as_u16(), answer.json().await.unwrap_or(Value::Null))
}

fn ids(board: &Value) -> Vec<&str> {
    board["renders"].as_array().unwrap().iter().map(|r| r["render_id"].as_str().unwrap()).collect()
}

#[tokio::test]
async fn a_board_holds_its_subjects_renders_and_downloads_them_by_the_agents_names() {
    use reqwest::Method;
    let dist = widget_dir();
    let server =
        Server::start_with(dist.path(), &["--access", "token"], &[("VSTAGE_WIDGET_SECRET", WIDGET_SECRET)]).await;
    let (alice, bob) = alice_and_bob().await;
    let photo = sample_url(&server, "living-empty.jpg").await;
    let first = staged(&server, &alice, &photo, 2).await["id"].as_str().unwrap().to_string();
    let second = staged(&server, &alice, &photo, 1).await["id"].as_str().unwrap().to_string();
    let (status, board) = call(Method::GET, &server, "/board", &alice, None).await;
    assert_eq!((status, ids(&board)), (200, vec![]), "a new subject's board is empty");

    // Two photos the agent called the same: the ZIP tells them apart.
    let entries = json!({"renders": [
        {"render_id": first, "label": "Front Room.jpg"},
        {"render_id": second, "label": "Front Room.jpg"},
    ]});
    let (status, board) = call(Method::POST, &server, "/board/renders", &alice, Some(entries.clone())).await;
    assert_eq!((status, ids(&board)), (200, vec![first.as_str(), second.as_str()]));
    assert_eq!(board["renders"][0]["label"], "Front Room.jpg");

    // bob can neither add alice's renders nor see her board
    let (status, body) = call(Method::POST, &server, "/board/renders", &bob, Some(entries)).await;
    assert_eq!(status, 404, "{body}");
    let (_, bobs) = call(Method::GET, &server, "/board", &bob, None).await;
    assert!(ids(&bobs).is_empty());
    let (status, _) = call(Method::POST, &server, "/board/renders", &alice, Some(json!({"renders": "no"}))).await;
    assert_eq!(status, 400);

    let address = format!("{}?access_token={alice}", server.api("/board/results.zip"));
    let answer = reqwest::get(&address).await.unwrap();
    assert_eq!(answer.status(), 200);
    assert_eq!(answer.headers()["content-disposition"], "attachment; filename=\"board-results.zip\"");
    assert_eq!(
        pictures_in(answer).await,
        [
            "front-room-2_living-room-scandinavian_01.jpg",
            "front-room_living-room-scandinavian_01.jpg",
            "front-room_living-room-scandinavian_02.jpg"
        ]
    );
    let bobs = reqwest::get(format!("{}?access_token={bob}", server.api("/board/results.zip"))).await.unwrap();
    assert_eq!(bobs.status(), 409, "bob's empty board has nothing to download");

    // Taken off the board, the render stays; cleared, the board starts again.
    let (status, board) = call(Method::DELETE, &server, &format!("/board/renders/{first}"), &alice, None).await;
    assert_eq!((status, ids(&board)), (200, vec![second.as_str()]));
    let (status, _) = call(Method::GET, &server, &format!("/v2/renders/{first}"), &alice, None).await;
    assert_eq!(status, 200);
    let (status, board) = call(Method::DELETE, &server, "/board", &alice, None).await;
    assert_eq!((status, ids(&board)), (200, vec![]));
    let (_, board) = call(Method::GET, &server, "/board", &alice, None).await;
    assert!(ids(&board).is_empty());
}
