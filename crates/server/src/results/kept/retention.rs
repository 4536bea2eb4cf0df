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
        // Marked first, then deleted: a result disclosed meanwhile is either not marked (and stays) or, marked,
        // no longer kept when the disclosure looks (which then says so), never a page without its photos.
        let expired = self.store.take_expired_kept(cutoff).await?;
        if expired.is_empty() {
            return Ok(());
        }
        let locations = expired
            .iter()
            .map(|kept| Location::from(format!("{}/{}/{}", kept.render_id, kept.variation_id, kept.file)))
            .collect();
        self.forget(locations).await;
        tracing::info!(count = expired.len(), "removed kept results past their retention");
        Ok(())
    }
}
