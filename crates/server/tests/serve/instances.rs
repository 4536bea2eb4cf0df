//! Two `vstage serve` behind one public address, on one PostgreSQL and one S3-compatible store, with `vstage
//! sandbox` as the service: what is made through one is the same through the other, events cross over, and a
//! server killed in the middle of a creation loses nothing the service accepted.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::process::Child;
use vstage_postgres_cluster::unused_loopback_port;

use crate::deliveries::signature;
use crate::sse::EventStream;
use crate::support::balancer::Balancer;
use crate::support::s3::S3Server;
use crate::support::{ONE_PIXEL_PNG, Server, sandbox, widget_dir};
use crate::webhooks::deliver;
use crate::{WIDGET_SECRET, alice_and_bob};

const API_KEY: &str = "k_instances_0123";
const WEBHOOK_SECRET: &str = "whs_instances_0123";
const BUCKET: &str = "vstage";

/// The service, the database and the store two servers share, and the two servers.
struct Deployment {
    first: Server,
    second: Server,
    /// The address the studio is reached at.
    public_url: String,
    balancer: Option<Balancer>,
    s3: S3Server,
    /// `vstage sandbox`'s address, for calls with the account's key.
    service: String,
    _service: Child,
    _service_data: tempfile::TempDir,
    _dist: tempfile::TempDir,
}

/// Where the public address (the service's webhooks, the uploads' addresses) leads: nginx balancing over both
/// as `docs/server.md` configures it, or one of the two, as if the other were out of the balancer's rotation.
#[derive(Clone, Copy)]
enum Public {
    First,
    Second,
    Balancer,
}

impl Deployment {
    async fn start(public: Public, processing_ms: u64) -> Deployment {
        let ports = [unused_loopback_port(), unused_loopback_port()];
        let balancer_port = unused_loopback_port();
        let public_url = format!(
            "http://127.0.0.1:{}",
            match public {
                Public::First => ports[0],
                Public::Second => ports[1],
                Public::Balancer => balancer_port,
            }
        );
        let service_data = tempfile::tempdir().unwrap();
        // the service fetches the uploads from the public address, which is on loopback here
        let uploads = format!("{public_url}/api/uploads/");
        let (service_process, service) = service(&service_data, processing_ms, &uploads).await;
        let s3 = S3Server::start().await;
        s3.create_bucket(BUCKET).await;
        let database = tokio::task::spawn_blocking(|| vstage_postgres_cluster::Cluster::fresh_test_database("two"))
            .await
            .unwrap()
            .expect("a fresh database on the private PostgreSQL cluster");
        let storage = format!("s3://{BUCKET}/studio");
        // Both servers set the service's webhook secret as they start, as a deployment's would.
        let args = [
            "--set-webhook-secret",
            "--upstream",
            service.as_str(),
            "--access",
            "token",
            "--public-url",
            public_url.as_str(),
            "--database",
            database.as_str(),
            "--storage",
            storage.as_str(),
        ];
        let mut env = s3.env();
        env.extend(
            [
                ("VSTAGE_API_KEY", API_KEY),
                ("VSTAGE_WIDGET_SECRET", WIDGET_SECRET),
                ("VSTAGE_WEBHOOK_SECRET", WEBHOOK_SECRET),
            ]
            .map(|(name, value)| (name.to_string(), value.to_string())),
        );
        let env: Vec<(&str, &str)> = env.iter().map(|(name, value)| (name.as_str(), value.as_str())).collect();
        let dist = widget_dir();
        let listen = |port: u16| format!("127.0.0.1:{port}");
        let first = Server::start_listening(&listen(ports[0]), dist.path(), &args, &env).await;
        let second = Server::start_listening(&listen(ports[1]), dist.path(), &args, &env).await;
        let balancer = match public {
            Public::Balancer => Some(Balancer::start(balancer_port, ports).await),
            Public::First | Public::Second => None,
        };
        Deployment {
            first,
            second,
            public_url,
            balancer,
            s3,
            service,
            _service: service_process,
            _service_data: service_data,
            _dist: dist,
        }
    }

    /// `/api{path}` at the public address.
    fn api(&self, path: &str) -> String {
        format!("{}/api{path}", self.public_url)
    }

    /// The service's own view of its renders, with the account's key.
    async fn service_renders(&self) -> Vec<Value> {
        let list: Value = reqwest::Client::new()
            .get(format!("{}/v2/renders", self.service))
            .header("Authorization", format!("Api-Key {API_KEY}"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        list["items"].as_array().cloned().unwrap_or_default()
    }
}

/// `vstage sandbox` with one account in `data`, which may fetch photos from `uploads` on loopback, and its address.
async fn service(data: &tempfile::TempDir, processing_ms: u64, uploads: &str) -> (Child, String) {
    let data = data.path().to_str().unwrap();
    let processing_ms = processing_ms.to_string();
    let args = [
        "--api-key",
        API_KEY,
        "--webhook-retry-ms",
        "200",
        "--processing-ms",
        &processing_ms,
        "--data-dir",
        data,
        "--local-photos",
        uploads,
    ];
    sandbox(&args, &[]).await
}

/// A JPEG photo of a room-like gradient.
fn photo() -> Vec<u8> {
    let image = image::RgbImage::from_fn(320, 200, |x, y| image::Rgb([(x % 256) as u8, (y % 256) as u8, 140]));
    let mut bytes = std::io::Cursor::new(Vec::new());
    image.write_to(&mut bytes, image::ImageFormat::Jpeg).unwrap();
    bytes.into_inner()
}

async fn json_of(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn what_is_made_through_one_server_is_the_same_through_the_other() {
    let deployment = Deployment::start(Public::First, 300).await;
    let (first, second) = (&deployment.first, &deployment.second);
    let (alice, bob) = alice_and_bob().await;
    let http = reqwest::Client::new();

    // An upload made through the second is kept in S3 and served by both, at the public address.
    let photo = photo();
    let (status, uploaded) = json_of(
        http.post(second.api("/uploads"))
            .bearer_auth(&alice)
            .header("Content-Type", "image/jpeg")
            .body(photo.clone())
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{uploaded}");
    let address = uploaded["url"].as_str().unwrap().to_string();
    let name = address.strip_prefix(&first.api("/uploads/")).expect("the public address is the first's").to_string();
    assert!(deployment.s3.keys(BUCKET).await.contains(&format!("studio/uploads/{name}")), "kept in S3");
    for server in [first, second] {
        let served = http.get(server.api(&format!("/uploads/{name}"))).send().await.unwrap();
        assert_eq!(served.status().as_u16(), 200);
        assert_eq!(served.bytes().await.unwrap().len(), uploaded["bytes"].as_u64().unwrap() as usize);
    }

    // Alice watches through the second; her render is made through the first, from the upload.
    let mut alices = EventStream::open(http.get(second.api("/events")).bearer_auth(&alice)).await;
    let body = json!({"image_url": address, "variation_count": 1, "config": {"type": "enhancement"}});
    let (status, render) =
        json_of(http.post(first.api("/v2/renders")).bearer_auth(&alice).json(&body).send().await.unwrap()).await;
    assert_eq!(status, 200, "{render}");
    let render_id = render["id"].as_str().unwrap().to_string();

    // Read, listed and extended through the second with the same token; refused to bob there.
    let on_render = second.api(&format!("/v2/renders/{render_id}"));
    assert_eq!(http.get(&on_render).bearer_auth(&alice).send().await.unwrap().status().as_u16(), 200);
    assert_eq!(http.get(&on_render).bearer_auth(&bob).send().await.unwrap().status().as_u16(), 404);
    let (_, listed) = json_of(http.get(second.api("/v2/renders")).bearer_auth(&alice).send().await.unwrap()).await;
    let ids: Vec<&str> = listed["items"].as_array().unwrap().iter().filter_map(|r| r["id"].as_str()).collect();
    assert_eq!(ids, [render_id.as_str()]);
    let (_, bobs) = json_of(http.get(second.api("/v2/renders")).bearer_auth(&bob).send().await.unwrap()).await;
    assert!(bobs["items"].as_array().unwrap().is_empty(), "{bobs}");
    let more = json!({"variation_count": 1, "config": {"type": "enhancement"}});
    let variations = format!("{on_render}/variations");
    assert_eq!(http.post(&variations).bearer_auth(&bob).json(&more).send().await.unwrap().status().as_u16(), 404);
    let added = http.post(&variations).bearer_auth(&alice).json(&more).send().await.unwrap();
    assert_eq!(added.status().as_u16(), 200);

    // The service's webhooks go to the first; both variations' `done` reach alice's stream on the second.
    let mut done = Vec::new();
    while done.len() < 2 {
        let event = alices.next(Duration::from_secs(30)).await.expect("the done events reach the second");
        assert_eq!(event.event.as_deref(), Some("done"));
        done.push(event);
    }
    assert!(done.iter().all(|event| event.data.contains(&render_id)));
    // A reconnect to either server replays from the shared log.
    let first_id: i64 = done[0].id.as_deref().unwrap().parse().unwrap();
    for server in [first, second] {
        let resume = http.get(server.api("/events")).bearer_auth(&alice).header("Last-Event-ID", first_id.to_string());
        let replayed = EventStream::open(resume).await.next(Duration::from_secs(30)).await.expect("replayed");
        assert_eq!(replayed.id, done[1].id);
    }
    let mut bobs =
        EventStream::open(http.get(first.api("/events")).bearer_auth(&bob).header("Last-Event-ID", "0")).await;
    assert!(bobs.next(Duration::from_millis(500)).await.is_none(), "bob hears nothing of alice's");

    // A webhook delivered to the first reaches a stream on the second, as it commits.
    let body = json!({"event_type": "done", "render_id": render_id, "variation_id": "var_extra",
                      "timestamp": vstage_api::time::now_millis(), "result": {"url": "https://cdn.example/extra.jpg"}})
    .to_string();
    let signature = hex::encode(signature(WEBHOOK_SECRET, body.as_bytes()));
    assert_eq!(deliver(first, body.as_bytes(), Some(&signature)).await, 200);
    let crossed = alices.next(Duration::from_secs(30)).await.expect("the delivery crosses to the second");
    assert!(crossed.data.contains("var_extra"), "{}", crossed.data);
}

#[tokio::test]
async fn a_server_killed_in_the_middle_of_a_creation_loses_nothing_the_service_accepted() {
    // The service's webhooks and the uploads' addresses lead to the second, which lives on.
    let deployment = Deployment::start(Public::Second, 1500).await;
    let (alice, _) = alice_and_bob().await;
    let http = reqwest::Client::new();
    let mut alices = EventStream::open(http.get(deployment.second.api("/events")).bearer_auth(&alice)).await;

    // A creation that waits for its variations holds the first until the service is done.
    let body = json!({"image_url": ONE_PIXEL_PNG, "variation_count": 2, "config": {"type": "enhancement"},
                      "wait_for_completion": true});
    let creation = http.post(deployment.first.api("/v2/renders")).bearer_auth(&alice).json(&body).send();
    let creation = tokio::spawn(creation);
    let mut accepted = Vec::new();
    for _ in 0..100 {
        accepted = deployment.service_renders().await;
        if !accepted.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(accepted.len(), 1, "the service accepted the creation");
    let render_id = accepted[0]["id"].as_str().unwrap().to_string();
    deployment.first.kill().await;
    assert!(creation.await.unwrap().is_err(), "the caller of the killed server got no answer");

    // The service's deliveries name the creation: the render is alice's, through the second.
    let mut done = 0;
    while done < 2 {
        let event = alices.next(Duration::from_secs(30)).await.expect("the render's events reach alice");
        assert!(event.data.contains(&render_id), "{}", event.data);
        done += 1;
    }
    let (status, render) = json_of(
        http.get(deployment.second.api(&format!("/v2/renders/{render_id}"))).bearer_auth(&alice).send().await.unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{render}");
    let (_, listed) =
        json_of(http.get(deployment.second.api("/v2/renders")).bearer_auth(&alice).send().await.unwrap()).await;
    assert_eq!(listed["items"][0]["id"], render_id.as_str());
}

#[tokio::test]
async fn behind_the_readme_s_nginx_two_servers_are_one_studio() {
    let deployment = Deployment::start(Public::Balancer, 300).await;
    let (alice, bob) = alice_and_bob().await;
    let http = reqwest::Client::new();
    // Every call goes through the balancer, which takes turns: the stream, the upload, the creation and the
    // reads land on either server.
    let mut alices = EventStream::open(http.get(deployment.api("/events")).bearer_auth(&alice)).await;
    let upload = http.post(deployment.api("/uploads")).bearer_auth(&alice).header("Content-Type", "image/jpeg");
    let (status, uploaded) = json_of(upload.body(photo()).send().await.unwrap()).await;
    assert_eq!(status, 200, "{uploaded}");
    let address = uploaded["url"].as_str().unwrap().to_string();
    assert!(address.starts_with(&deployment.api("/uploads/")), "{address}");
    for _ in 0..4 {
        assert_eq!(http.get(&address).send().await.unwrap().status().as_u16(), 200);
    }
    let body = json!({"image_url": address, "variation_count": 1, "config": {"type": "enhancement"}});
    let create = http.post(deployment.api("/v2/renders")).bearer_auth(&alice).json(&body);
    let (status, render) = json_of(create.send().await.unwrap()).await;
    assert_eq!(status, 200, "{render}");
    let render_id = render["id"].as_str().unwrap();
    for _ in 0..4 {
        let read = http.get(deployment.api(&format!("/v2/renders/{render_id}")));
        assert_eq!(read.try_clone().unwrap().bearer_auth(&alice).send().await.unwrap().status().as_u16(), 200);
        assert_eq!(read.bearer_auth(&bob).send().await.unwrap().status().as_u16(), 404);
    }
    // The service's webhook comes through the balancer too, and the stream is not held back by it.
    let done = alices.next(Duration::from_secs(30)).await.expect("the done event through nginx");
    assert_eq!(done.event.as_deref(), Some("done"));
    assert!(done.data.contains(render_id), "{}", done.data);

    // The block's log keeps each call's path and leaves out its query: a token in the address, a link's signature.
    let with_token = deployment.api(&format!("/renders/{render_id}/results.zip?access_token={alice}"));
    assert_eq!(http.get(with_token).send().await.unwrap().status().as_u16(), 200, "a link with its token");
    let signed = format!("{address}?sig=logged-signature");
    http.get(signed).send().await.unwrap();
    drop(alices);
    let mut deployment = deployment;
    let log = deployment.balancer.take().expect("behind nginx").stop().await;
    assert!(log.contains(&format!("\"GET /api/renders/{render_id}/results.zip HTTP/1.1\" 200")), "{log}");
    assert!(!log.contains(&alice) && !log.contains("access_token") && !log.contains("logged-signature"), "{log}");
}

/// A deployment starts its replicas together: servers started at one instant on an empty database all come up,
/// and each migration is applied once.
#[tokio::test]
async fn servers_started_together_on_an_empty_database_all_come_up() {
    const SERVERS: usize = 4;
    let database = tokio::task::spawn_blocking(|| vstage_postgres_cluster::Cluster::fresh_test_database("together"))
        .await
        .unwrap()
        .expect("a fresh database on the private PostgreSQL cluster");
    let dist = widget_dir();
    let barrier = std::sync::Arc::new(tokio::sync::Barrier::new(SERVERS));
    let starts = (0..SERVERS).map(|_| {
        let (barrier, database, dist) = (barrier.clone(), database.clone(), dist.path().to_path_buf());
        async move {
            barrier.wait().await;
            Server::start_with(&dist, &["--database", &database], &[]).await
        }
    });
    let servers = futures_util::future::join_all(starts).await;
    for server in &servers {
        crate::health::until_readiness_is(server, 200).await;
    }
    let (admin, connection) = tokio_postgres::connect(&database, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    let rows = admin.query("SELECT version, count(*) FROM vstage_schema GROUP BY version", &[]).await.unwrap();
    assert!(!rows.is_empty() && rows.iter().all(|row| row.get::<_, i64>(1) == 1), "each migration once");
    let signers: i64 = admin.query_one("SELECT count(*) FROM content_signer", &[]).await.unwrap().get(0);
    let made = i64::from(cfg!(feature = "content-credentials"));
    assert_eq!(signers, made, "one content credentials signer for all (none in a build without them)");
}
