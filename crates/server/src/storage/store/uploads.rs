//! The uploads' records: whose each is and its size, within its subject's quota.

use super::*;

/// An upload's record: its file name, whose it is and its size.
#[derive(Debug, Clone)]
pub struct UploadRecord {
    pub name: String,
    pub subject: String,
    pub bytes: u64,
    pub stored_at: i64,
}

#[async_trait]
pub trait UploadRecords: Send + Sync {
    /// Records an upload if its subject's uploads stay within `quota` with it (checked and recorded in one
    /// transaction); otherwise `Err(bytes used)` and nothing is recorded.
    async fn reserve_upload(&self, upload: &UploadRecord, quota: Option<u64>) -> Result<Result<(), u64>, ServerError>;
    async fn forget_uploads(&self, names: &[String]) -> Result<(), ServerError>;
}
