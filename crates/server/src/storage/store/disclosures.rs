//! The records of results chosen for a listing, one per choice, paged newest first.

use super::*;

/// A result chosen for a listing, as recorded (`disclosure/`): the facts, from which the words are made in the
/// language asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisclosureRecord {
    pub id: String,
    pub subject: String,
    pub created_at: i64,
    pub render_id: String,
    pub variation_id: String,
    pub image_index: u32,
    /// The variation's type as the service names it (`staging`), `""` when it gave none.
    pub variation_type: String,
    /// The staging style, `""` for none.
    pub style: String,
    /// Whether the room's furniture was taken out (removal, or staging that removed first).
    pub furniture_removed: bool,
    /// The profile's name (`smart-mls`) and the listing's language (`de`).
    pub profile: String,
    pub lang: String,
    /// The kept file shown (`render/variation/file`), labelled when the profile asks for a watermark.
    pub photo_file: String,
    /// The kept original photo (`render/original.jpg`).
    pub original_file: String,
    /// The kept copies of the result for screens and lists, when they are kept and the shown photo is not a
    /// labelled copy (they carry no label).
    pub optimized_file: Option<String>,
    pub thumbnail_file: Option<String>,
    /// The address the render was made from: the listing's photo the result takes the place of.
    pub replaces: Option<String>,
    /// The host's references kept with the render, copied when the result was chosen.
    pub reference: vstage_api::host_reference::HostReference,
}

impl DisclosureRecord {
    /// What makes two records one choice: `choice_of` its subject, result, profile and language.
    pub fn choice(&self) -> String {
        choice_of(&self.subject, &self.render_id, &self.variation_id, self.image_index, &self.profile, &self.lang)
    }
}

/// The same subject choosing the same image of the same result for the same profile and language makes one
/// record, however often it asks.
pub fn choice_of(subject: &str, render_id: &str, variation_id: &str, index: u32, profile: &str, lang: &str) -> String {
    // Ids, profile and language names never hold a line feed; a subject might, so it goes last.
    format!("{render_id}\n{variation_id}\n{index}\n{profile}\n{lang}\n{subject}")
}

/// Where a page of disclosure records (newest first) goes on: after the record made at `created_at` with `id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisclosureCursor {
    pub created_at: i64,
    pub id: String,
}

impl DisclosureCursor {
    /// The cursor after `record`.
    pub fn after(record: &DisclosureRecord) -> Self {
        DisclosureCursor { created_at: record.created_at, id: record.id.clone() }
    }

    /// As a caller passes it on: `created_at.id`.
    pub fn encoded(&self) -> String {
        format!("{}.{}", self.created_at, self.id)
    }

    pub fn decoded(text: &str) -> Result<Self, ServerError> {
        let refused = || {
            ServerError::BadRequest(format!(
                "cursor: `{text}` is not a page of disclosures; start again from the first page."
            ))
        };
        let (at, id) = text.split_once('.').ok_or_else(refused)?;
        Ok(DisclosureCursor { created_at: at.parse().map_err(|_| refused())?, id: id.to_string() })
    }
}

/// How many new records a subject may make: at most `most` made at or after `since` (ms).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordsCap {
    pub most: u64,
    pub since: i64,
}

/// A record not made: the subject made `made` records since the cap's `since` (the oldest of them at `oldest`), as
/// many as it may.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CapReached {
    pub made: u64,
    pub oldest: Option<i64>,
}

#[async_trait]
pub trait DisclosureRecords: Send + Sync {
    /// Records a chosen result's disclosure, unless its choice (`DisclosureRecord::choice`) is recorded already:
    /// the record of the choice either way (a choice made again is not new, whatever the cap). An id recorded before
    /// is an error. A new record is made only while its subject is under `cap`, else `Err(CapReached)`: counted
    /// and written in one transaction, one of a subject's at a time whichever server records it, so records asked
    /// for at once never go past it.
    /// `reported` (the host's webhooks) go into the outbox with a new record, in its transaction.
    async fn record_disclosure(
        &self,
        record: &DisclosureRecord,
        reported: &[OutboxEntry],
        cap: Option<RecordsCap>,
    ) -> Result<Result<DisclosureRecord, CapReached>, ServerError>;
    async fn disclosure(&self, id: &str) -> Result<Option<DisclosureRecord>, ServerError>;
    /// The record of `choice` (`choice_of`), if it was made.
    async fn disclosure_of_choice(&self, choice: &str) -> Result<Option<DisclosureRecord>, ServerError>;
    /// How many records `subject` made at or after `since` (ms), and when the oldest of them was made.
    async fn disclosures_since(&self, subject: &str, since: i64) -> Result<(u64, Option<i64>), ServerError>;
    /// At most `limit` records, newest first, after `after`: `subject`'s, or everyone's for `None`.
    async fn disclosures(
        &self,
        subject: Option<&str>,
        limit: u32,
        after: Option<&DisclosureCursor>,
    ) -> Result<Vec<DisclosureRecord>, ServerError>;
}
