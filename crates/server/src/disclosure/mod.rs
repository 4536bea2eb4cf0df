//! Disclosure of chosen results: `POST /api/disclosures` records a finished result a listing uses (keeping its
//! copy, its original and, where the profile asks, a labelled copy) and answers with everything the listing shows;
//! `GET /api/disclosures` lists the records; `/disclosures/{id}` is the public originals page, with its QR code,
//! at a link this server signed, which reads the photo's content credentials back (`verified.rs`). The rules per
//! profile are `profiles.rs`, the words `words.rs`.

pub mod page;
pub mod profiles;
pub mod qr;
pub mod report;
pub mod statement;
pub mod words;

mod create;
mod routes;
mod verified;

/// Through the whole app, in-process.
#[cfg(test)]
mod tests;

use std::sync::Arc;

use vstage_api::disclosure::{Disclosure, DisclosureProfile};

use crate::results::kept::KeptResults;
use crate::results::links::LinkKey;
use crate::storage::store::{DisclosureRecord, Store};
use statement::Links;

pub use routes::{page_routes, routes};

/// What the disclosure routes share.
#[derive(Debug)]
pub struct Disclosures {
    pub store: Arc<dyn Store>,
    pub kept: Arc<KeptResults>,
    /// Signs the pages' links (the kept results' key, under a name no kept file has).
    pub links: LinkKey,
    /// This server's public address, which the pages' links start with.
    pub public_url: String,
    /// The profile of a request that names none (`--disclosure-profile`).
    pub default_profile: DisclosureProfile,
    /// New records a subject may make in any 24 hours (`--max-disclosures-a-day`): choices repeated are not new.
    pub max_a_day: u64,
    /// Photos decoded at once (an original's copy for screens, a labelled copy), a core each: each may take a few
    /// hundred megabytes, whatever the number of callers.
    pub decoding: tokio::sync::Semaphore,
    /// The listing site's backend, told of each new record (`result.chosen`).
    pub host_webhooks: Option<Arc<crate::host_webhooks::HostWebhooks>>,
    /// What the originals pages found of their photos' content credentials, by kept photo (`verified`).
    pub verdicts: verified::Verdicts,
}

/// The records one `GET /api/disclosures` answers with unless it asks for fewer, and the most it may ask for.
pub const LIST_LIMIT: u32 = 100;
pub const MAX_LIST_LIMIT: u32 = 1000;

impl Disclosures {
    /// What a page link's signature covers: never a kept file's path, which has three parts.
    fn signed_name(id: &str) -> String {
        format!("disclosure page {id}")
    }

    fn signature(&self, id: &str) -> String {
        self.links.sign(&Self::signed_name(id))
    }

    /// Whether `signature` is the one this server gives record `id`'s links.
    pub fn verifies(&self, id: &str, signature: &str) -> bool {
        self.links.verifies(&Self::signed_name(id), signature)
    }

    /// The page's path and its QR codes' (`?sig=` included), on this server.
    fn page_path(&self, id: &str) -> String {
        format!("/disclosures/{id}?sig={}", self.signature(id))
    }

    fn absolute(&self, path: &str) -> String {
        format!("{}{path}", self.public_url.trim_end_matches('/'))
    }

    /// The page's address, as the QR code holds it.
    pub fn page_address(&self, id: &str) -> String {
        self.absolute(&self.page_path(id))
    }

    /// `record` as the listing shows it.
    pub fn shown(&self, record: &DisclosureRecord) -> Disclosure {
        let sig = self.signature(&record.id);
        let links = Links {
            photo: self.kept.address(&record.photo_file),
            optimized: record.optimized_file.as_deref().map(|file| self.kept.address(file)),
            thumbnail: record.thumbnail_file.as_deref().map(|file| self.kept.address(file)),
            original: self.kept.address(&record.original_file),
            page: self.page_address(&record.id),
            qr_svg: self.absolute(&format!("/disclosures/{}/qr.svg?sig={sig}", record.id)),
            qr_png: self.absolute(&format!("/disclosures/{}/qr.png?sig={sig}", record.id)),
        };
        statement::disclosure(record, links)
    }
}
