//! Who created what: the renders and analyses recorded with their subject, paged for a subject, the creations
//! under way (an event naming one finds its subject), the photo each render was made from, and the host's
//! references kept with it (`listing_id`, `photo_id`, `metadata`).

use vstage_api::host_reference::HostReference;

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

/// A creation under way: its token, what it makes, for whom, the photo of the one render it makes, and the
/// host's references of every render it makes (when they are the same for all), or whether its renders have
/// references of their own, which a delivery before the answer cannot tell apart (its render then awaits them).
#[derive(Debug, Clone, Copy)]
pub struct Creation<'a> {
    pub token: &'a str,
    pub kind: Kind,
    pub subject: &'a str,
    pub photo: Option<&'a str>,
    pub reference: Option<&'a HostReference>,
    pub references_differ: bool,
}

/// A photo a render was made from, at the address its creation named: `view` 0, or for a multi-view render the
/// place of the photo in its `image_urls` (a result's image `image_index` is of view `image_index`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderPhoto {
    pub render_id: String,
    pub view: u32,
    pub address: String,
}

/// How long a render adopted by a delivery before its creation's answer awaits its own references (a bulk
/// creation's, `Creation::references_differ`), and the host's webhooks about it with them: the longest a creation
/// waits for its answer (direct-sync's ten minutes), and a minute. Past it they go without.
pub const REFERENCES_AWAITED_MS: i64 = 11 * 60 * 1000;

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
    /// `limit` of `subject`'s ids after `cursor` (one of them), newest first unless `ascending`, only those of
    /// `listing` when it names one; a cursor that is not one of the subject's is a `BadRequest`.
    async fn owned_page(
        &self,
        kind: Kind,
        subject: &str,
        listing: Option<&str>,
        limit: u32,
        cursor: Option<&str>,
        ascending: bool,
    ) -> Result<OwnedPage, ServerError>;
    /// Remembers that `subject` started a creation of `kind` named `creation`, before it is sent to the service,
    /// with the photo of the one render it makes (a delivery adopting the render adopts the photo too).
    async fn record_creation(&self, creation: &Creation<'_>, now: i64) -> Result<(), ServerError>;
    /// Records the renders' photos as their creations named them (a retried record changes nothing).
    async fn record_photos(&self, photos: &[RenderPhoto]) -> Result<(), ServerError>;
    /// The address of the photo `render_id` was made from (its view `view`: 0 but for a multi-view render's
    /// later photos), when it was created through this server.
    async fn photo_of(&self, render_id: &str, view: u32) -> Result<Option<String>, ServerError>;
    /// Records each render's references from the host (a retried record changes nothing: they never change); a
    /// render that awaited them awaits no more, and the host's webhooks held for them are due.
    async fn record_references(&self, references: &[(String, HostReference)]) -> Result<(), ServerError>;
    /// The host's references kept with `render_id`; all `None` when it has none.
    async fn reference_of(&self, render_id: &str) -> Result<HostReference, ServerError>;
    /// The listing of each of `render_ids` that has one, as `(render id, listing id)`.
    async fn listings_of(&self, render_ids: &[String]) -> Result<Vec<(String, String)>, ServerError>;
}

/// A reference as the database keeps it: its JSON.
pub(in crate::storage) fn reference_json(reference: &HostReference) -> String {
    serde_json::to_string(reference).unwrap_or_else(|_| "{}".into())
}

/// The reference kept as `json`; all `None` for none (or for JSON no longer read, which cannot be written).
pub(in crate::storage) fn reference_of_json(json: Option<&str>) -> HostReference {
    json.and_then(|json| serde_json::from_str(json).ok()).unwrap_or_default()
}

/// `payload` with the host's references of the render it is about (the JSON `reference` the database keeps,
/// read in the transaction that writes the entry) in its `data`: `listing_id`, `photo_id` and `metadata`, `null`
/// when the render has none. So every event about a render carries them, whatever wrote it.
pub(in crate::storage) fn with_reference(payload: &str, reference: Option<&str>) -> String {
    let Ok(mut body) = serde_json::from_str::<serde_json::Value>(payload) else { return payload.to_string() };
    let reference = reference_of_json(reference);
    let Ok(serde_json::Value::Object(fields)) = serde_json::to_value(reference) else { return payload.to_string() };
    match body.get_mut("data") {
        Some(serde_json::Value::Object(data)) => data.extend(fields),
        _ => return payload.to_string(),
    }
    body.to_string()
}
