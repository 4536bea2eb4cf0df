//! `/healthz` and `/readyz` as a load balancer sees them, with a PostgreSQL of the test's own that goes down and
//! comes back.

use std::time::{Duration, Instant};

use serde_json::Value;
use vstage_postgres_cluster::Cluster;

use crate::support::{Server, widget_dir};

/// `/readyz`'s status and answer.
async fn readiness(server: &Server) -> (u16, Value) {
    let answer = reqwest::get(format!("{}/readyz", server.url)).await.unwrap();
    assert_eq!(answer.headers()["cache-control"], "no-store");
    (answer.status().as_u16(), answer.json().await.unwrap())
}

/// Asks `/readyz` until it answers `status` (within 30 s: readiness is kept for a few seconds).
pub async fn until_readiness_is(server: &Server, status: u16) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (now, report) = readiness(server).await;
        if now == status {
            return report;
        }
        assert!(Instant::now() < deadline, "/readyz stayed {now} ({report}), not {status}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

#[tokio::test]
async fn readiness_follows_the_database_while_liveness_stays() {
    let folder = tempfile::tempdir().unwrap();
    let cluster_dir = folder.path().join("cluster");
    let cluster = tokio::task::spawn_blocking(move || Cluster::shared(&cluster_dir)).await.unwrap().unwrap();
    let _stopped_at_the_end = StopsOnDrop(cluster.clone());
    let url = cluster.fresh_database("ready").unwrap();
    let dist = widget_dir();
    let server = Server::start_with(dist.path(), &["--database", &url], &[]).await;
    let report = until_readiness_is(&server, 200).await;
    assert_eq!(
        report,
        serde_json::json!({
            "ready": true, "database": "ready", "store": "ready", "upstream": "ready", "webhooks": "none_yet"
        })
    );

    let paused = cluster.clone();
    tokio::task::spawn_blocking(move || paused.pause()).await.unwrap().unwrap();
    let report = until_readiness_is(&server, 503).await;
    assert_eq!((report["ready"].clone(), report["database"].clone()), (false.into(), "unready".into()));
    assert_eq!(report["store"], "ready", "only the database is down: {report}");
    let alive = reqwest::get(format!("{}/healthz", server.url)).await.unwrap();
    assert_eq!(alive.status(), 200, "the process still serves");
    let answer = report.to_string();
    assert!(!answer.contains("127.0.0.1") && !answer.contains("refused"), "no why in the answer: {answer}");

    let resumed = cluster.clone();
    tokio::task::spawn_blocking(move || resumed.resume()).await.unwrap().unwrap();
    until_readiness_is(&server, 200).await;
    server.wait_for_output("readiness changed").await;
}

/// The test's own cluster, stopped however the test ends (its server would outlive the test otherwise).
struct StopsOnDrop(Cluster);

impl Drop for StopsOnDrop {
    fn drop(&mut self) {
        let _ = self.0.pause();
    }
}
