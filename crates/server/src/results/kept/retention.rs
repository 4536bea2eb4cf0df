//! What was kept longer than the retention period, removed.

use super::*;

impl KeptResults {
    /// Removes what was kept longer than the retention period, every tenth of it (at most hourly), for ever.
    pub async fn remove_expired_forever(self: Arc<Self>) {
        let Some(retention) = self.limits.retention else { return };
        crate::storage::sweep_forever(retention, "kept results", || self.remove_expired(retention)).await;
    }

    async fn remove_expired(&self, retention: Duration) -> Result<(), ServerError> {
        let cutoff = now_millis() - i64::try_from(retention.as_millis()).unwrap_or(i64::MAX);
        let expired = self.store.expired_kept(cutoff).await?;
        if expired.is_empty() {
            return Ok(());
        }
        let locations = expired
            .iter()
            .map(|kept| Location::from(format!("{}/{}/{}", kept.render_id, kept.variation_id, kept.file)))
            .collect();
        self.forget(locations).await;
        self.store.mark_kept_expired(cutoff).await?;
        tracing::info!(count = expired.len(), "removed kept results past their retention");
        Ok(())
    }
}
