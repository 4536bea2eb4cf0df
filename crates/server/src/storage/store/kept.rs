//! The kept results' records: which files of which variation are kept for whom, until removed or expired.

use super::*;

/// One kept file of a finished variation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptFile {
    pub render_id: String,
    pub variation_id: String,
    pub file: String,
    pub image_index: u32,
    /// `url`, `optimized_url` or `thumbnail_url`.
    pub role: String,
    pub subject: String,
    pub bytes: u64,
    pub kept_at: i64,
    /// Removed by its owner or the retention period: never copied again.
    pub removed: bool,
}

#[async_trait]
pub trait KeptRecords: Send + Sync {
    /// Every kept file of `renders`, removed ones included.
    async fn kept_files(&self, renders: &[String]) -> Result<Vec<KeptFile>, ServerError>;
    /// Whether a variation has ever been kept (removed ones count).
    async fn ever_kept(&self, render_id: &str, variation_id: &str) -> Result<bool, ServerError>;
    /// Records a variation's files (all of one subject's), all or none (one kept already stays as it is), and the
    /// host's webhooks that report them when any file is new, in one transaction; if the subject keeps more than
    /// `quota` bytes with the new ones, `Err(bytes kept before)` and nothing is recorded. Counted and written one
    /// of a subject's at a time, whichever server records, so copies recorded at once never go past the quota.
    async fn record_kept(
        &self,
        files: &[KeptFile],
        reported: &[OutboxEntry],
        quota: Option<u64>,
    ) -> Result<Result<(), u64>, ServerError>;
    /// The bytes `subject` keeps now.
    async fn kept_bytes(&self, subject: &str) -> Result<u64, ServerError>;
    /// Marks a variation's files removed.
    async fn mark_kept_removed(&self, render_id: &str, variation_id: &str) -> Result<(), ServerError>;
    /// Marks the files kept before `cutoff` (ms), not removed yet and not disclosed, removed, and returns them: in
    /// one statement, so a file is either marked and returned (its object then deleted) or left as it is (one
    /// disclosed meanwhile).
    async fn take_expired_kept(&self, cutoff: i64) -> Result<Vec<KeptFile>, ServerError>;
}
