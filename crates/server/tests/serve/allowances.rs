//! Each agent's allowance, over real HTTP at the recording stand-in: what the allowance cannot cover is refused
//! with a sentence before anything reaches the service, regenerations are free, a refusal or a failure by the
//! service (at once, or of every variation later) gives the photo back, a period other than the month is kept, the ledger is reported by `vstage usage`, a subject's own allowance set by `vstage allowance`
//! comes first, and two servers on one PostgreSQL database never forward more than the allowance.

use serde_json::{Value, json};

use crate::recording::RecordingUpstream;
use crate::support::{Server, widget_dir};
use crate::{WIDGET_SECRET, mint};

/// The service key the servers here are given.
const KEY: &str = "sk-live-0123456789abcdef";

async fn start(upstream: &RecordingUpstream, args: &[&str]) -> (tempfile::TempDir, Server) {
    let dist = widget_dir();
    let mut all = vec!["--access", "token", "--upstream", &upstream.url];
    all.extend(args);
    let envs =
        [("VSTAGE_API_KEY", KEY), ("VSTAGE_WIDGET_SECRET", WIDGET_SECRET), ("VSTAGE_WEBHOOK_SECRET", "whs_0123")];
    let server = Server::start_with(dist.path(), &all, &envs).await;
    (dist, server)
}

/// Creates a render of `photo` (a name at photos.example) as `token`'s holder; the status and answer.
async fn create(server: &Server, token: &str, photo: &str) -> (u16, Value, Option<String>) {
    create_in(server, token, photo, None).await
}

/// Creates a render of `photo` as `token`'s holder, for the host's listing `listing` if named.
async fn create_in(server: &Server, token: &str, photo: &str, listing: Option<&str>) -> (u16, Value, Option<String>) {
    let body = json!({"image_url": format!("https://photos.example/{photo}.jpg"), "variation_count": 3,
        "config": {"type": "staging", "add_furniture": {"room_type": "living", "style": "modern"}}});
    let mut request = reqwest::Client::new().post(server.api("/v2/renders")).bearer_auth(token).json(&body);
    if let Some(listing) = listing {
        request = request.header("Vstage-Reference", json!({"listing_id": listing}).to_string());
    }
    let answer = request.send().await.unwrap();
    let retry_after = answer.headers().get("retry-after").map(|value| value.to_str().unwrap().to_string());
    (answer.status().as_u16(), answer.json().await.unwrap_or(Value::Null), retry_after)
}

fn creations(upstream: &RecordingUpstream) -> usize {
    upstream.seen().iter().filter(|seen| seen.method == "POST" && seen.path_and_query == "/v2/renders").count()
}

/// `GET /api/usage` as `token`'s holder.
async fn usage_of(server: &Server, token: &str) -> Value {
    let answer = reqwest::Client::new().get(server.api("/usage")).bearer_auth(token).send().await.unwrap();
    answer.json().await.unwrap()
}

/// `vstage ARGS` on `server`'s database; its standard output.
pub fn vstage(server: &Server, args: &[&str]) -> String {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_vstage"))
        .args(args)
        .arg("--data-dir")
        .arg(server.data_dir())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

#[tokio::test]
async fn an_allowance_is_charged_before_sending_refunded_on_refusal_and_reported() {
    let upstream = RecordingUpstream::start().await;
    let (_dist, server) = start(&upstream, &["--allowance", "staging=2"]).await;
    upstream.forget();
    let alice = mint(WIDGET_SECRET, "alice", "1h", None).await;

    let (status, refused, _) = create(&server, &alice, "refused").await;
    assert_eq!(status, 422, "the service's refusal is relayed: {refused}");
    assert_eq!(create(&server, &alice, "as-one").await.0, 200, "and its photo was given back");
    assert_eq!(create_in(&server, &alice, "as-two", Some("L-7")).await.0, 200);
    let (status, spent, retry_after) = create(&server, &alice, "as-three").await;
    assert_eq!(status, 429, "{spent}");
    let sentence = spent["message"].as_str().unwrap();
    assert!(
        sentence.contains("2 of 2 photos used this month, 0 left") && sentence.contains("renews on 1 "),
        "{sentence}"
    );
    assert!(retry_after.unwrap().parse::<u64>().unwrap() > 0);
    assert_eq!(creations(&upstream), 3, "the refused creation never reached the service");

    // variations of the kind the render was charged for are free
    let more = json!({"variation_count": 2, "config": {"type": "staging", "add_furniture": {"room_type": "living", "style": "modern"}}});
    let added =
        reqwest::Client::new().post(server.api("/v2/renders/rnd_one/variations")).bearer_auth(&alice).json(&more);
    assert_eq!(added.send().await.unwrap().status(), 200);

    let usage = usage_of(&server, &alice).await;
    assert_eq!((&usage["allowance"]["staging"], &usage["used"]["staging"]), (&json!(2), &json!(2)), "{usage}");
    assert_eq!(usage["rows"].as_array().unwrap().len(), 4, "three charges and a refund: {usage}");
    let bobs = usage_of(&server, &mint(WIDGET_SECRET, "bob", "1h", None).await).await;
    assert_eq!(bobs["rows"], json!([]), "bob sees his own rows only");

    let today = tomorrow();
    let report = vstage(&server, &["usage", "--from", "2000-01-01", "--to", &today, "--format", "csv"]);
    let header = "\"line\",\"subject\",\"listing\",\"kind\",\"charged\",\"refunded\",\"net\"\n";
    assert_eq!(
        report,
        format!(
            "{header}\"subject\",\"alice\",\"\",\"staging\",2,1,1\n\"subject\",\"alice\",\"L-7\",\"staging\",1,0,1\n\
             \"total\",\"\",\"\",\"staging\",3,1,2\n"
        ),
        "a line per listing of alice's, none for the renders without one"
    );
    let of_listing = vstage(&server, &["usage", "--from", "2000-01-01", "--to", &today, "--listing", "L-7"]);
    assert_eq!(
        of_listing,
        format!("{header}\"subject\",\"alice\",\"L-7\",\"staging\",1,0,1\n\"total\",\"\",\"\",\"staging\",1,0,1\n")
    );

    let said = vstage(&server, &["allowance", "set", "alice", "staging=3"]);
    assert_eq!(said.trim(), "alice: staging 3 a period, image-editing default");
    assert_eq!(create(&server, &alice, "as-three").await.0, 200, "her own allowance comes first");
    assert_eq!(vstage(&server, &["allowance", "list"]).trim(), "alice: staging 3 a period, image-editing default");
}

#[tokio::test]
async fn failed_creations_and_renders_give_their_photos_back_within_the_period_set() {
    let upstream = RecordingUpstream::start().await;
    let (_dist, server) = start(&upstream, &["--allowance", "staging=1", "--allowance-period", "day"]).await;
    let alice = mint(WIDGET_SECRET, "alice", "1h", None).await;

    assert_eq!(create(&server, &alice, "unavailable").await.0, 503, "the service's failure is relayed");
    assert_eq!(create(&server, &alice, "as-failed").await.0, 200, "and its photo was given back");
    // a gateway that gave up waiting says nothing of whether the service took the call: the charge stands
    let (_timed_dist, timed) = start(&upstream, &["--allowance", "staging=1"]).await;
    let (status, said, _) = create(&timed, &alice, "gateway-timeout").await;
    assert!(status >= 500, "{status} {said}");
    assert_eq!(usage_of(&timed, &alice).await["used"]["staging"], json!(1), "kept for what may have been made");
    let (status, spent, _) = create(&server, &alice, "as-more").await;
    assert_eq!(status, 429, "{spent}");
    let sentence = spent["message"].as_str().unwrap();
    assert!(sentence.contains("1 of 1 photos used today, 0 left"), "a day's allowance says so: {sentence}");

    // the service failed every variation of rnd_failed: reading it says so, and gives the photo back, once
    for _ in 0..2 {
        let read = reqwest::Client::new()
            .get(server.api("/v2/renders/rnd_failed?include_variations=true"))
            .bearer_auth(&alice)
            .send()
            .await
            .unwrap();
        assert_eq!(read.status(), 200);
    }
    let usage = usage_of(&server, &alice).await;
    assert_eq!(usage["used"]["staging"], json!(0), "{usage}");
    let whys: Vec<&str> = usage["rows"].as_array().unwrap().iter().map(|row| row["what"].as_str().unwrap()).collect();
    assert_eq!(whys.len(), 4, "two charges, two refunds: {usage}");
    assert!(whys.contains(&"refunded: the service failed every variation"), "{whys:?}");
    assert_eq!(usage["period"]["end"].as_i64().unwrap() - usage["period"]["start"].as_i64().unwrap(), 86_400_000);
    assert_eq!(create(&server, &alice, "as-more").await.0, 200, "the failed render's photo is there again");
}

#[tokio::test]
async fn an_addition_made_free_by_one_the_service_refuses_pays_in_its_place() {
    let upstream = RecordingUpstream::start().await;
    let (_dist, server) = start(&upstream, &["--allowance", "staging=5"]).await;
    let alice = mint(WIDGET_SECRET, "alice", "1h", None).await;
    // an enhancement: the render stands charged for image editing, not staging
    let body = json!({"image_url": "https://photos.example/as-lone.jpg", "variation_count": 1,
                      "config": {"type": "enhancement"}});
    let created = reqwest::Client::new().post(server.api("/v2/renders")).bearer_auth(&alice).json(&body);
    assert_eq!(created.send().await.unwrap().status(), 200);
    let add = |config: Value| {
        let request = reqwest::Client::new()
            .post(server.api("/v2/renders/rnd_lone/variations"))
            .bearer_auth(&alice)
            .json(&json!({"variation_count": 1, "config": config}));
        async move { request.send().await.unwrap().status().as_u16() }
    };
    // a removal the service refuses after a while (its mask's address tells the stand-in so) ...
    let mask = "https://photos.example/refused.jpg?slow-3000";
    let refused = add(json!({"type": "staging", "remove_furniture": {"mode": "on", "mask_url": mask}}));
    let refused = tokio::spawn(refused);
    // ... and, once its photo is charged, another removal: free while that charge stands, and made by the service
    while usage_of(&server, &alice).await["used"]["staging"] != json!(1) {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(add(json!({"type": "staging", "remove_furniture": {"mode": "on"}})).await, 200);
    assert_eq!(refused.await.unwrap(), 422);
    let usage = usage_of(&server, &alice).await;
    assert_eq!(usage["used"]["staging"], json!(1), "the removal the service made pays in its place: {usage}");
}

#[tokio::test]
async fn a_page_of_only_failed_variations_after_a_cursor_gives_nothing_back() {
    let upstream = RecordingUpstream::start().await;
    let (_dist, server) = start(&upstream, &["--allowance", "staging=1"]).await;
    let alice = mint(WIDGET_SECRET, "alice", "1h", None).await;
    assert_eq!(create(&server, &alice, "as-partly").await.0, 200);
    // rnd_partly made var_1 and failed var_2; a page that starts after var_1 holds only the failure
    for query in ["include_variations=true&variations_cursor=var_1", "include_variations=true"] {
        let path = format!("/v2/renders/rnd_partly?{query}");
        let read = reqwest::Client::new().get(server.api(&path)).bearer_auth(&alice).send().await.unwrap();
        assert_eq!(read.status(), 200, "{query}");
    }
    let usage = usage_of(&server, &alice).await;
    assert_eq!(usage["used"]["staging"], json!(1), "a render that made a photo keeps its charge: {usage}");
    assert_eq!(usage["rows"].as_array().unwrap().len(), 1, "{usage}");
}

/// The day after today (UTC), `YYYY-MM-DD`, as `vstage usage --to` takes it.
fn tomorrow() -> String {
    let tomorrow = std::time::SystemTime::now() + std::time::Duration::from_secs(86_400);
    humantime::format_rfc3339_seconds(tomorrow).to_string()[..10].to_string()
}

#[tokio::test]
async fn two_servers_on_one_database_never_forward_more_than_the_allowance() {
    let database = tokio::task::spawn_blocking(|| vstage_postgres_cluster::Cluster::fresh_test_database("allowance"))
        .await
        .unwrap()
        .unwrap();
    let upstream = RecordingUpstream::start().await;
    let shared = ["--allowance", "staging=5", "--database", &database, "--rate-limit", "0"];
    let (_first_dist, first) = start(&upstream, &shared).await;
    let (_second_dist, second) = start(&upstream, &shared).await;
    upstream.forget();
    let alice = mint(WIDGET_SECRET, "alice", "1h", None).await;
    let tries = (0..24).map(|n| {
        let (server, alice) = (if n % 2 == 0 { &first } else { &second }, alice.clone());
        async move { create(server, &alice, &format!("as-r{n}")).await.0 }
    });
    let statuses = futures_util::future::join_all(tries).await;
    assert_eq!(statuses.iter().filter(|status| **status == 200).count(), 5, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|status| **status == 429).count(), 19, "{statuses:?}");
    assert_eq!(creations(&upstream), 5, "exactly the allowance reached the service");
}
