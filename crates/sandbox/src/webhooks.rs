//! Webhook deliveries (service-api.md part 6): one per variation that completes or fails, one per analysis, signed with
//! the account's secret (`X-SERVICE-Signature`: lowercase hex HMAC-SHA256 of the exact body). A delivery not
//! answered 200 is retried up to 3 times with growing delays; pending deliveries live in the store, so they
//! survive a restart. Deliveries due together are sent together, none waiting for another's answer.

use std::sync::Arc;
use std::time::Duration;

use tokio::task::AbortHandle;

use rusqlite::{Connection, params};
use vstage_api::WebhookEvent;
use vstage_api::signature;
use vstage_api::time::now_millis;

use crate::SandboxState;
use crate::error::SandboxError;

/// Attempts in all: the first and three retries.
pub const MAX_ATTEMPTS: i64 = 4;

/// Queues `event` for `url`, inside the caller's transaction.
pub fn enqueue(db: &Connection, account_uid: &str, url: &str, event: &WebhookEvent) -> Result<(), SandboxError> {
    let payload = serde_json::to_string(event).map_err(|e| SandboxError::Internal(e.to_string()))?;
    db.prepare_cached("INSERT INTO deliveries (account_uid, url, payload, next_attempt_at) VALUES (?1, ?2, ?3, ?4)")?
        .execute(params![account_uid, url, payload, now_millis()])?;
    Ok(())
}

struct Due {
    seq: i64,
    url: String,
    payload: String,
    attempts: i64,
    secret: Option<String>,
}

/// The most deliveries sent at once: variations that finish together are told together, as the service's own
/// deliveries are not queued one behind another.
const AT_ONCE: usize = 16;

/// Starts the delivery loop; it stops when the returned handle is aborted.
pub fn start(state: &Arc<SandboxState>) -> Result<AbortHandle, SandboxError> {
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(10))
        .build()
        .map_err(|e| SandboxError::Startup(format!("cannot set up the HTTP client for webhooks: {e}")))?;
    let state = state.clone();
    let task = tokio::spawn(async move {
        loop {
            // Listening before looking: a delivery queued while the store is read still wakes this loop.
            let added = state.deliveries_added.notified();
            tokio::pin!(added);
            added.as_mut().enable();
            match due(&state).await {
                Ok(due) if !due.is_empty() => {
                    let mut sending = tokio::task::JoinSet::new();
                    for due in due {
                        let (state, http) = (state.clone(), http.clone());
                        sending.spawn(async move { deliver(&state, &http, due).await });
                    }
                    sending.join_all().await;
                }
                Ok(_) => {
                    let _ = tokio::time::timeout(Duration::from_millis(200), added).await;
                }
                Err(error) => {
                    tracing::error!(%error, "could not read pending webhook deliveries");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        }
    });
    Ok(task.abort_handle())
}

/// The deliveries due now, oldest first, at most `AT_ONCE`.
async fn due(state: &Arc<SandboxState>) -> Result<Vec<Due>, SandboxError> {
    state
        .store
        .run(|db| {
            let rows = db
                .prepare_cached(
                    "SELECT d.seq, d.url, d.payload, d.attempts, a.webhook_secret
                     FROM deliveries d JOIN accounts a ON a.uid = d.account_uid
                     WHERE d.state = 'pending' AND d.next_attempt_at <= ?1 ORDER BY d.next_attempt_at, d.seq LIMIT ?2",
                )?
                .query_map(params![now_millis(), AT_ONCE as i64], |row| {
                    Ok(Due {
                        seq: row.get(0)?,
                        url: row.get(1)?,
                        payload: row.get(2)?,
                        attempts: row.get(3)?,
                        secret: row.get(4)?,
                    })
                })?
                .collect::<Result<_, _>>()?;
            Ok(rows)
        })
        .await
}

async fn deliver(state: &Arc<SandboxState>, http: &reqwest::Client, due: Due) {
    let mut request = http.post(&due.url).header("Content-Type", "application/json");
    if let Some(secret) = &due.secret {
        request = request.header(signature::HEADER, signature::sign(secret, due.payload.as_bytes()));
    }
    let delivered = request.body(due.payload.clone()).send().await.is_ok_and(|r| r.status().as_u16() == 200);
    let attempts = due.attempts + 1;
    let retry_ms = state.webhook_retry_ms as i64;
    let recorded = state
        .store
        .run(move |db| {
            let (next_state, delay) = if delivered {
                ("delivered", 0)
            } else if attempts >= MAX_ATTEMPTS {
                ("failed", 0)
            } else {
                ("pending", retry_ms << (attempts - 1))
            };
            db.prepare_cached("UPDATE deliveries SET attempts = ?1, state = ?2, next_attempt_at = ?3 WHERE seq = ?4")?
                .execute(params![attempts, next_state, now_millis() + delay, due.seq])?;
            Ok(())
        })
        .await;
    if let Err(error) = recorded {
        tracing::error!(%error, "could not record a webhook delivery");
    }
    if !delivered {
        tracing::info!(url = due.url, attempts, "webhook delivery not answered 200");
    }
}
