//! Kept results: each finished variation's images (`url`, `optimized_url`, `thumbnail_url`) copied into this
//! server's storage when its `done` event arrives, or when it is first read, then served under `/api/results/...`
//! (immutable, at links that carry their own permission: `links.rs`) and put in place of the service's addresses in
//! what the server relays, so a listing does not depend on the service keeping its files. A quota per subject and
//! a retention period bound it. Here the kept files' store; the copying (`copying`), the answers rewritten
//! (`answers`), the routes (`routes`), the retention (`retention`) and the content credentials signed into each
//! copy (`signing`) each in a file of their own.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::HeaderValue;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::get;
use axum::{Extension, Router};
use futures_util::TryStreamExt;
use object_store::path::Path as Location;
use object_store::{ObjectStore, ObjectStoreExt};
use serde::Deserialize;
use serde_json::{Value, json};
use vstage_api::VariationResult;
use vstage_api::time::now_millis;
use vstage_api::vocabulary::VariationType;

use super::credentials::ContentCredentials;
use super::fetch::{ResultFetcher, extension};
use super::links::LinkKey;
use super::provenance;
use crate::access::Subject;
use crate::error::ServerError;
use crate::host_webhooks::HostWebhooks;
use crate::host_webhooks::events::KeptImage;
use crate::metrics::metrics;
use crate::storage::outbox::OutboxEntry;
use crate::storage::store::{KeptFile, Store};
use crate::storage::uploads::Uploads;

mod answers;
mod copying;
mod retention;
mod routes;
mod signing;
#[cfg(test)]
mod tests;
mod turns;

pub use answers::has_finished_variations_in;
pub use routes::{link_routes, routes};
pub use signing::Original;

/// How much kept results may take, and for how long.
#[derive(Debug, Clone, Copy)]
pub struct KeptLimits {
    /// Bytes a subject may keep (in open access, all callers together); `None` for no limit.
    pub quota: Option<u64>,
    /// How long a result is kept; `None` for ever.
    pub retention: Option<Duration>,
}

/// The three addresses of one result image.
const ROLES: [&str; 3] = ["url", "optimized_url", "thumbnail_url"];

#[derive(Debug)]
pub struct KeptResults {
    files: Arc<dyn ObjectStore>,
    store: Arc<dyn Store>,
    fetcher: ResultFetcher,
    /// `{public_url}/api/results`, which kept addresses start with.
    base: String,
    /// Signs the kept addresses handed out.
    links: LinkKey,
    limits: KeptLimits,
    /// Variations being copied now (`render/variation`), so two reads do not copy one twice.
    copying: Mutex<HashSet<String>>,
    /// A subject's copies are made one at a time, so its quota check sees every copy before it (and the service is
    /// asked for one of its results' images at a time); other subjects' go on meanwhile.
    by_subject: turns::Turns,
    /// A variation's kept files change a step at a time: kept, a file added, removed.
    by_variation: turns::Turns,
    /// The listing site's backend, told of each variation kept (`variation.done`).
    host_webhooks: Option<Arc<HostWebhooks>>,
    /// What signs each copy's content credentials, and where the photos renders were made from are read.
    signing: Option<signing::Signing>,
}

impl KeptResults {
    pub fn new(
        files: Arc<dyn ObjectStore>,
        store: Arc<dyn Store>,
        fetcher: ResultFetcher,
        public_url: &str,
        links: LinkKey,
        limits: KeptLimits,
    ) -> Self {
        let base = format!("{}/api/results", public_url.trim_end_matches('/'));
        KeptResults {
            files,
            store,
            fetcher,
            base,
            links,
            limits,
            copying: Mutex::default(),
            by_subject: Default::default(),
            by_variation: Default::default(),
            host_webhooks: None,
            signing: None,
        }
    }

    /// Tells the host's backend (when there is one) of each variation kept, with its lasting links.
    pub fn reporting_to(mut self, host_webhooks: Option<Arc<HostWebhooks>>) -> Self {
        self.host_webhooks = host_webhooks;
        self
    }

    /// Keeps one more file with a kept variation (its original photo, a labelled copy), within `subject`'s quota;
    /// it is served, counted, removed and expired with the variation's own files. A variation whose files were
    /// removed (by its owner or the retention period) is not kept again, a file at a time either.
    pub async fn add_file(&self, subject: &str, file: KeptFile, bytes: Bytes) -> Result<(), ServerError> {
        let _subjects_turn = self.by_subject.of(subject.to_string()).await;
        let _turn = self.by_variation.of(variation_key(&file.render_id, &file.variation_id)).await;
        let known = self.store.kept_files(std::slice::from_ref(&file.render_id)).await?;
        let (mut any, mut removed) = (false, true);
        for kept in known.iter().filter(|kept| kept.variation_id == file.variation_id) {
            any = true;
            removed &= kept.removed;
        }
        if any && removed {
            return Err(ServerError::Conflict(
                "This result was removed from this server and is not kept again; choose another result.".into(),
            ));
        }
        if self.limits.quota.is_some() {
            let used = self.used_by(subject).await?;
            if self.limits.quota.is_some_and(|quota| used + bytes.len() as u64 > quota) {
                return Err(self.over_quota(used));
            }
        }
        let location = Location::from(format!("{}/{}/{}", file.render_id, file.variation_id, file.file));
        self.files
            .put(&location, bytes.into())
            .await
            .map_err(|error| ServerError::Internal(format!("the storage refused {location}: {error}")))?;
        // Counted again as it is recorded: another server may have kept the subject's results meanwhile.
        match self.store.record_kept(std::slice::from_ref(&file), &[], self.limits.quota).await? {
            Ok(()) => Ok(()),
            Err(used) => {
                self.forget(vec![location]).await;
                Err(self.over_quota(used))
            }
        }
    }

    /// The refusal of a copy that would take the subject, keeping `used` bytes, past its quota (counted).
    fn over_quota(&self, used: u64) -> ServerError {
        metrics().quota_refused("kept_results");
        let quota = self.limits.quota.unwrap_or_default();
        ServerError::InsufficientStorage(format!(
            "The subject keeps {used} bytes of results, the quota is {quota}: this result stays at the service's \
             address; remove kept results to keep more."
        ))
    }

    /// The kept file of a variation in `role` for image `index` (`render/variation/file`), while it is kept.
    pub async fn kept_file(
        &self,
        render_id: &str,
        variation_id: &str,
        index: u32,
        role: &str,
    ) -> Result<Option<String>, ServerError> {
        Ok(self.variation_files(render_id, variation_id).await?.get(index, role).map(str::to_string))
    }

    /// The files a variation has kept now, read once.
    pub async fn variation_files(&self, render_id: &str, variation_id: &str) -> Result<VariationFiles, ServerError> {
        let kept = self.store.kept_files(&[render_id.to_string()]).await?;
        Ok(VariationFiles(
            kept.into_iter()
                .filter(|kept| kept.variation_id == variation_id && !kept.removed)
                .map(|kept| {
                    let path = format!("{}/{}/{}", kept.render_id, kept.variation_id, kept.file);
                    ((kept.image_index, kept.role), path)
                })
                .collect(),
        ))
    }

    /// The bytes of a kept `file` (`render/variation/file`).
    pub async fn read_file(&self, file: &str) -> Result<Bytes, ServerError> {
        let location = Location::parse(file).map_err(|_| ServerError::NotFound("No such kept file.".into()))?;
        let stored = self.files.get(&location).await.map_err(|error| match error {
            object_store::Error::NotFound { .. } => ServerError::NotFound("No such kept file.".into()),
            other => ServerError::Internal(format!("the storage could not read {location}: {other}")),
        })?;
        stored
            .bytes()
            .await
            .map_err(|error| ServerError::Internal(format!("the storage could not read {location}: {error}")))
    }

    async fn used_by(&self, subject: &str) -> Result<u64, ServerError> {
        self.store.kept_bytes(subject).await
    }

    /// Deletes objects from the store, whatever fails (a missing object is no error).
    async fn forget(&self, locations: Vec<Location>) {
        for location in locations {
            if let Err(error) = self.files.delete(&location).await
                && !matches!(error, object_store::Error::NotFound { .. })
            {
                tracing::warn!(%error, %location, "a kept result could not be deleted");
            }
        }
    }

    /// The signed address of a kept `file` (`render/variation/name`).
    pub fn address(&self, file: &str) -> String {
        format!("{}/{file}?sig={}", self.base, self.links.sign(file))
    }

    /// [`Self::address`] as a path on this server, for pages it serves itself.
    pub fn path(&self, file: &str) -> String {
        format!("/api/results/{file}?sig={}", self.links.sign(file))
    }

    /// The bytes of a kept copy at `address` (one of this server's `/api/results/...`); `None` for any other
    /// address, or a copy no longer kept.
    pub async fn read(&self, address: &str) -> Option<Bytes> {
        let stored = address.strip_prefix(&self.base)?.strip_prefix('/')?;
        let location = Location::parse(stored.split('?').next()?).ok()?;
        self.files.get(&location).await.ok()?.bytes().await.ok()
    }
}

/// One variation's kept files by `(image index, role)`, as `render/variation/file`.
#[derive(Debug, Default)]
pub struct VariationFiles(HashMap<(u32, String), String>);

impl VariationFiles {
    pub fn get(&self, index: u32, role: &str) -> Option<&str> {
        self.0.get(&(index, role.to_string())).map(String::as_str)
    }

    /// Whether `file` (`render/variation/file`) is one of them.
    pub fn contains(&self, file: &str) -> bool {
        self.0.values().any(|kept| kept == file)
    }
}

/// Kept files by variation `(render, variation)`, each by `(image index, role)`, as `render/variation/file`.
type Kept = HashMap<(String, String), HashMap<(usize, String), String>>;

/// The key of variation `variation_id` of render `render_id`: its turns, and its copying under way.
fn variation_key(render_id: &str, variation_id: &str) -> String {
    format!("{render_id}/{variation_id}")
}
