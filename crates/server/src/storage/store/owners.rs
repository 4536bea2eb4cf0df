//! Who created what: the renders and analyses recorded with their subject, paged for a subject, and the
//! creations under way (an event naming one finds its subject).

use super::*;

/// The kinds of thing a subject owns; each has its own id space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Render,
    Analysis,
    V1Render,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Render => "render",
            Kind::Analysis => "analysis",
            Kind::V1Render => "v1_render",
        }
    }
}

/// One page of a subject's render ids, in the order asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnedPage {
    pub ids: Vec<String>,
    pub next_cursor: Option<String>,
    pub total: u64,
}

impl OwnedPage {
    /// A page from the ids read, up to `limit + 1` of them (one more says that another page follows), and the
    /// total.
    pub(in crate::storage) fn from_rows(mut ids: Vec<String>, limit: u32, total: i64) -> Self {
        let next_cursor = if ids.len() > limit as usize {
            ids.truncate(limit as usize);
            ids.last().cloned()
        } else {
            None
        };
        OwnedPage { ids, next_cursor, total: total.max(0) as u64 }
    }
}

/// A cursor that is not one of the subject's ids.
pub(in crate::storage) fn not_a_cursor(cursor: &str) -> ServerError {
    ServerError::BadRequest(format!("cursor: `{cursor}` is not one of your renders; start again from the first page."))
}

#[async_trait]
pub trait OwnerRecords: Send + Sync {
    /// Records `ids` as created by `subject` (a retried record changes nothing), and the host's webhooks that
    /// report it, in one transaction.
    async fn record_owners(
        &self,
        kind: Kind,
        ids: &[String],
        subject: &str,
        reported: &[OutboxEntry],
    ) -> Result<(), ServerError>;
    /// Whether `subject` created every one of `ids`.
    async fn owns_all(&self, kind: Kind, ids: &[String], subject: &str) -> Result<bool, ServerError>;
    /// `limit` of `subject`'s ids after `cursor` (one of them), newest first unless `ascending`; a cursor that is
    /// not one of the subject's is a `BadRequest`.
    async fn owned_page(
        &self,
        kind: Kind,
        subject: &str,
        limit: u32,
        cursor: Option<&str>,
        ascending: bool,
    ) -> Result<OwnedPage, ServerError>;
    /// Remembers that `subject` started a creation of `kind` named `creation`, before it is sent to the service.
    async fn record_creation(&self, creation: &str, kind: Kind, subject: &str, now: i64) -> Result<(), ServerError>;
}
