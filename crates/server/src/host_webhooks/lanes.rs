//! Each receiver's own lane: a task per `--host-webhook-url` (and per receiver that still has entries pending
//! though no server names it any more) claims that receiver's due entries and sends up to `per_receiver` of them
//! at once, each within the attempt's time-out. A receiver that hangs or answers slowly so holds back its own
//! events only, never another receiver's. Order per render and receiver holds because a claim takes only the
//! earliest pending entry of each render (`HostOutbox::claim_due`): the next is claimed once it is settled.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tokio::task::{JoinHandle, JoinSet};

use super::HostWebhooks;
use crate::metrics::metrics;
use crate::upstream::http_client::HttpClient;

/// The pause of a lane when nothing was due (events written by another server are found within it).
const IDLE: Duration = Duration::from_secs(1);
/// How often the outbox is searched for receivers no longer named that still have entries pending.
const LOOK_FOR_RECEIVERS: Duration = Duration::from_secs(60);
/// How often at most a lane counts what is pending, for the metrics (a count reads the whole outbox).
const COUNT_EVERY: Duration = Duration::from_secs(1);
/// How often settled deliveries past their time are forgotten (and at start).
const PRUNE_EVERY: Duration = Duration::from_secs(3600);

impl HostWebhooks {
    /// Delivers the outbox for as long as the server runs: a lane for each receiver.
    pub async fn deliver_forever(self: Arc<Self>) {
        let client = match HttpClient::new() {
            Ok(client) => client,
            Err(error) => {
                tracing::error!("the host's webhooks cannot be delivered: {error:#}");
                return;
            }
        };
        let mut lanes: HashMap<String, JoinHandle<()>> = HashMap::new();
        let mut pruned: Option<std::time::Instant> = None;
        loop {
            if pruned.is_none_or(|at| at.elapsed() >= PRUNE_EVERY) {
                self.forget_settled().await;
                pruned = Some(std::time::Instant::now());
            }
            let mut receivers = self.targets.clone();
            match self.store.pending_targets().await {
                Ok(pending) => receivers.extend(pending),
                Err(error) => tracing::warn!(%error, "could not read the host's webhooks' outbox; trying again"),
            }
            for target in receivers {
                if lanes.get(&target).is_none_or(JoinHandle::is_finished) {
                    let lasting = self.targets.contains(&target);
                    let lane = tokio::spawn(self.clone().lane(target.clone(), client.clone(), lasting));
                    lanes.insert(target, lane);
                }
            }
            tokio::time::sleep(LOOK_FOR_RECEIVERS).await;
        }
    }

    /// Forgets deliveries sent more than 30 days ago and given up more than 90 days ago: the outbox holds what is
    /// under way and a month's history (`vstage deliveries list`), not every event ever sent.
    async fn forget_settled(&self) {
        const DAY_MS: i64 = 24 * 60 * 60 * 1000;
        let now = vstage_api::time::now_millis();
        match self.store.forget_settled(now - 30 * DAY_MS, now - 90 * DAY_MS).await {
            Ok(0) => {}
            Ok(forgotten) => tracing::info!(forgotten, "settled host webhooks forgotten"),
            Err(error) => tracing::warn!(%error, "settled host webhooks could not be forgotten; trying again later"),
        }
    }

    /// Delivers `target`'s entries: claims what is due whenever an attempt ends, events are written, or a second
    /// has passed, with at most `per_receiver` attempts under way. A lane of a receiver no longer named
    /// (`lasting` false) ends once it has nothing left to send.
    async fn lane(self: Arc<Self>, target: String, client: HttpClient, lasting: bool) {
        let mut written = self.due.subscribe();
        let mut under_way = JoinSet::new();
        let (mut settled, mut counted_at) = (false, None::<std::time::Instant>);
        loop {
            written.borrow_and_update();
            let free = self.pacing.per_receiver.saturating_sub(under_way.len());
            if free > 0 {
                let now = vstage_api::time::now_millis();
                let limit = i64::try_from(free).unwrap_or(i64::MAX);
                match self.store.claim_due(&target, now, self.lease_ms(), limit).await {
                    Ok(claimed) if claimed.is_empty() && under_way.is_empty() && !lasting => return,
                    Ok(claimed) => {
                        for claim in claimed {
                            under_way.spawn(self.clone().deliver(client.clone(), claim));
                        }
                    }
                    Err(error) => {
                        tracing::warn!(%error, target, "could not read the host's webhooks' outbox; trying again");
                    }
                }
            }
            // Counted once what is due is on its way: the count reads the whole outbox, and must not hold up an event.
            if settled && counted_at.is_none_or(|at| at.elapsed() >= COUNT_EVERY) {
                self.count_pending().await;
                (settled, counted_at) = (false, Some(std::time::Instant::now()));
            }
            tokio::select! {
                Some(_) = under_way.join_next(), if !under_way.is_empty() => {
                    while under_way.try_join_next().is_some() {}
                    settled = true;
                }
                Ok(()) = written.changed() => {}
                () = tokio::time::sleep(IDLE) => {}
            }
        }
    }

    /// Sets the metric of what is pending, after attempts ended.
    async fn count_pending(&self) {
        if let Ok(counts) = self.store.delivery_counts().await {
            metrics().host_webhooks_pending.set(i64::try_from(counts.pending).unwrap_or(i64::MAX));
        }
    }
}
