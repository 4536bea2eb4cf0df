//! The host's webhooks delivered to real receivers on loopback at once: one that never answers, one that answers
//! only when the test lets it (slow), one that answers at once. The healthy one receives every event while the
//! others still hold their first requests; each receiver gets each render's events in order, and each event once,
//! from one server on SQLite and from two sharing one PostgreSQL database.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::http::{HeaderMap, StatusCode};
use serde_json::json;
use tokio::sync::{mpsc, watch};

use super::{HostWebhooks, Pacing};
use crate::storage::outbox::OutboxEntry;
use crate::storage::postgres::Postgres;
use crate::storage::sqlite::Sqlite;
use crate::storage::store::{Kind, Store};

const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const RENDERS: usize = 6;
/// Each render's events, in the order they were written.
const KINDS: [&str; 3] = ["render.created", "variation.done", "result.chosen"];
const PER_RECEIVER: usize = 2;
/// Far longer than the test: the hanging receiver's first requests stay open throughout.
const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(3600);
/// How long the test waits for what must come before it fails.
const PATIENCE: Duration = Duration::from_secs(60);

/// How a receiver answers.
#[derive(Clone)]
enum Answers {
    AtOnce,
    /// 204 once the gate is open.
    WhenLet(watch::Receiver<bool>),
    Never,
}

/// A receiver on a loopback port: its address, and the `webhook-id` of each request as it arrives.
async fn receiver(answers: Answers) -> (String, mpsc::UnboundedReceiver<String>) {
    let (arrived, arrivals) = mpsc::unbounded_channel();
    let app = axum::Router::new().route(
        "/hooks",
        axum::routing::post(move |headers: HeaderMap, _body: String| {
            let (arrived, answers) = (arrived.clone(), answers.clone());
            async move {
                let id = headers.get("webhook-id").and_then(|id| id.to_str().ok()).unwrap_or_default();
                arrived.send(id.to_string()).ok();
                match answers {
                    Answers::AtOnce => {}
                    Answers::WhenLet(mut gate) => drop(gate.wait_for(|open| *open).await),
                    Answers::Never => std::future::pending::<()>().await,
                }
                StatusCode::NO_CONTENT
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hooks", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.ok() });
    (url, arrivals)
}

/// The next `count` arrivals, in order.
async fn next_arrivals(arrivals: &mut mpsc::UnboundedReceiver<String>, count: usize) -> Vec<String> {
    let mut got = Vec::new();
    while got.len() < count {
        let next = tokio::time::timeout(PATIENCE, arrivals.recv()).await;
        got.push(next.unwrap_or_else(|_| panic!("only {got:?} of {count} arrived")).expect("the receiver runs"));
    }
    got
}

/// Event `kind` of render `render`'s id.
fn event_id(render: usize, kind: usize) -> String {
    format!("msg_{render}_{kind}")
}

/// Every render's events for every receiver, written as the server writes them.
async fn write_events(store: &Arc<dyn Store>, targets: &[String]) {
    for render in 0..RENDERS {
        let render_id = format!("rnd_{render}");
        let mut entries = Vec::new();
        for (kind, name) in KINDS.iter().enumerate() {
            for target in targets {
                let payload = json!({"type": name, "data": {"render_id": render_id}}).to_string();
                let (id, kind, target) = (event_id(render, kind), name.to_string(), target.clone());
                entries.push(OutboxEntry { id, target, render_id: render_id.clone(), kind, payload, created_at: 1 });
            }
        }
        store.record_owners(Kind::Render, &[render_id], "alice", &entries).await.unwrap();
    }
}

/// Each event exactly once, and each render's in the order they were written.
fn assert_all_once_in_order(arrived: &[String], who: &str) {
    let mut at: HashMap<&str, usize> = HashMap::new();
    for (index, id) in arrived.iter().enumerate() {
        assert!(at.insert(id, index).is_none(), "{who} was sent {id} twice: {arrived:?}");
    }
    assert_eq!(at.len(), RENDERS * KINDS.len(), "{who}: {arrived:?}");
    for render in 0..RENDERS {
        let order: Vec<usize> = (0..KINDS.len()).map(|kind| at[event_id(render, kind).as_str()]).collect();
        assert!(order.is_sorted(), "{who} got render {render}'s events out of order: {arrived:?}");
    }
}

/// The test on `servers`, each a deliverer over its own connection to one database.
async fn a_hanging_and_a_slow_receiver_delay_no_other(servers: Vec<Arc<dyn Store>>) {
    let (hanging, mut hanging_got) = receiver(Answers::Never).await;
    let (let_slow_answer, gate) = watch::channel(false);
    let (slow, mut slow_got) = receiver(Answers::WhenLet(gate)).await;
    let (healthy, mut healthy_got) = receiver(Answers::AtOnce).await;
    let targets = [hanging.clone(), slow.clone(), healthy.clone()];
    write_events(&servers[0], &targets).await;
    let pacing =
        Pacing { first_retry: Duration::from_secs(1), attempt_timeout: ATTEMPT_TIMEOUT, per_receiver: PER_RECEIVER };
    for store in &servers {
        let hooks = HostWebhooks::new(&targets, Some(SECRET), store.clone(), pacing).unwrap().unwrap();
        tokio::spawn(hooks.deliver_forever());
    }

    // the healthy receiver gets every event while each of the others holds its first requests unanswered
    let held = PER_RECEIVER * servers.len();
    let first_to_hanging = next_arrivals(&mut hanging_got, held).await;
    let first_to_slow = next_arrivals(&mut slow_got, held).await;
    let healthy_arrived = next_arrivals(&mut healthy_got, RENDERS * KINDS.len()).await;
    assert_all_once_in_order(&healthy_arrived, "the healthy receiver");
    for (first, who) in [(&first_to_hanging, "hanging"), (&first_to_slow, "slow")] {
        let mut distinct = first.clone();
        distinct.sort();
        distinct.dedup();
        assert!(first.iter().all(|id| id.ends_with("_0")), "each render's first event, to {who}: {first:?}");
        assert_eq!(distinct.len(), held, "the {who} receiver holds the first events of {held} renders: {first:?}");
    }
    assert!(hanging_got.try_recv().is_err() && slow_got.try_recv().is_err(), "nothing more while they are full");

    // the outbox tells the truth per receiver: all sent to the healthy one, nothing yet to the others
    let store = &servers[0];
    let deadline = tokio::time::Instant::now() + PATIENCE;
    let rows = loop {
        let rows = store.deliveries(None, 1000).await.unwrap();
        let sent_to_healthy = rows.iter().filter(|row| row.target == healthy && row.outcome == "sent").count();
        if sent_to_healthy == RENDERS * KINDS.len() || tokio::time::Instant::now() > deadline {
            break rows;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    for row in &rows {
        let expected = if row.target == healthy { "sent" } else { "pending" };
        assert_eq!(row.outcome, expected, "{row:?}");
        let tried = if row.target == healthy || row.id.ends_with("_0") { 1 } else { 0 };
        assert!(row.attempts <= tried && row.last_error.is_empty(), "{row:?}");
    }
    let in_flight = |target: &str| rows.iter().filter(|row| row.target == target && row.attempts == 1).count();
    assert_eq!((in_flight(&hanging), in_flight(&slow)), (held, held), "as many under way as they hold");

    // let go, the slow receiver gets every event, in order per render; the hanging one still holds its first
    let_slow_answer.send(true).unwrap();
    let rest = next_arrivals(&mut slow_got, RENDERS * KINDS.len() - held).await;
    assert_all_once_in_order(&[first_to_slow, rest].concat(), "the slow receiver");
    assert!(hanging_got.try_recv().is_err(), "the hanging receiver is still full");
}

#[tokio::test]
async fn a_hanging_and_a_slow_receiver_delay_no_other_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let sqlite: Arc<dyn Store> = Arc::new(Sqlite::open(dir.path()).unwrap());
    a_hanging_and_a_slow_receiver_delay_no_other(vec![sqlite]).await;
}

#[tokio::test]
async fn two_servers_on_one_postgresql_database_deliver_each_event_once_per_receiver() {
    let database = tokio::task::spawn_blocking(|| vstage_postgres_cluster::Cluster::fresh_test_database("lanes"))
        .await
        .unwrap()
        .expect("a fresh database on the private PostgreSQL cluster");
    let mut servers: Vec<Arc<dyn Store>> = Vec::new();
    for _ in 0..2 {
        servers.push(Arc::new(Postgres::connect(&database).await.expect("connects and migrates")));
    }
    a_hanging_and_a_slow_receiver_delay_no_other(servers).await;
}
