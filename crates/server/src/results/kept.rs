//! Kept results: each finished variation's images (`url`, `optimized_url`, `thumbnail_url`) copied into this
//! server's storage when its `done` event arrives, or when it is first read, then served under `/api/results/...`
//! (immutable, at links that carry their own permission: `links.rs`) and put in place of the service's addresses in
//! what the server relays, so a listing does not depend on the service keeping its files. A quota per subject and
//! a retention period bound it.

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
    /// Copies are made one at a time, so the quota check sees every copy before it (and the service is asked for
    /// one result's images at a time).
    one_at_a_time: tokio::sync::Mutex<()>,
    /// The listing site's backend, told of each variation kept (`variation.done`).
    host_webhooks: Option<Arc<HostWebhooks>>,
}

/// One image to copy: where it is in the result, and the service's address.
#[derive(Debug, Clone, PartialEq)]
struct Source {
    index: usize,
    role: &'static str,
    url: String,
}

impl Source {
    /// The file name it is kept under, e.g. `0-thumbnail_url.jpg`.
    fn file(&self) -> String {
        format!("{}-{}.{}", self.index, self.role, extension(&self.url))
    }
}

fn sources(result: &VariationResult) -> Vec<Source> {
    let mut sources = Vec::new();
    for (index, image) in result.images().iter().enumerate() {
        let addresses = [Some(&image.url), image.optimized_url.as_ref(), image.thumbnail_url.as_ref()];
        for (role, url) in ROLES.into_iter().zip(addresses) {
            if let Some(url) = url.filter(|url| !url.is_empty()) {
                sources.push(Source { index, role, url: url.clone() });
            }
        }
    }
    sources
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
            one_at_a_time: Default::default(),
            host_webhooks: None,
        }
    }

    /// Tells the host's backend (when there is one) of each variation kept, with its lasting links.
    pub fn reporting_to(mut self, host_webhooks: Option<Arc<HostWebhooks>>) -> Self {
        self.host_webhooks = host_webhooks;
        self
    }

    /// The host's webhooks that report `files` kept for `subject`.
    fn reported(&self, subject: &str, kind: Option<&VariationType>, files: &[KeptFile]) -> Vec<OutboxEntry> {
        let (Some(hooks), Some(first)) = (&self.host_webhooks, files.first()) else { return Vec::new() };
        let images: Vec<KeptImage<'_>> = files
            .iter()
            .map(|kept| KeptImage {
                index: kept.image_index,
                role: &kept.role,
                address: self.address(&format!("{}/{}/{}", kept.render_id, kept.variation_id, kept.file)),
            })
            .collect();
        hooks.variation_done(subject, (&first.render_id, &first.variation_id), kind, &images, first.kept_at)
    }

    /// Copies a finished variation's images in the background, once; `subject` is the render's owner, whose
    /// quota they count against (nothing is kept for a render whose owner is not known yet). `kind` says what the
    /// copies' provenance metadata records.
    pub fn keep_later(
        self: &Arc<Self>,
        subject: &str,
        render_id: &str,
        variation_id: &str,
        kind: Option<VariationType>,
        result: &VariationResult,
    ) {
        let key = format!("{render_id}/{variation_id}");
        if subject.is_empty() || !self.copying.lock().unwrap_or_else(|p| p.into_inner()).insert(key.clone()) {
            return;
        }
        let (kept, subject, render_id, variation_id) =
            (self.clone(), subject.to_string(), render_id.to_string(), variation_id.to_string());
        let sources = sources(result);
        tokio::spawn(async move {
            match kept.keep(&subject, &render_id, &variation_id, kind.as_ref(), sources).await {
                Ok(true) => metrics().kept_copy(true),
                Ok(false) => {}
                Err(error) => {
                    metrics().kept_copy(false);
                    tracing::warn!(%error, render_id, variation_id, "a result could not be kept");
                }
            }
            kept.copying.lock().unwrap_or_else(|p| p.into_inner()).remove(&key);
        });
    }

    /// Copies a variation's images now, unless they were kept before (or are being kept: this waits for that).
    pub async fn keep_now(
        &self,
        subject: &str,
        render_id: &str,
        variation_id: &str,
        kind: Option<&VariationType>,
        result: &VariationResult,
    ) -> Result<(), ServerError> {
        let kept = self.keep(subject, render_id, variation_id, kind, sources(result)).await?;
        if kept {
            metrics().kept_copy(true);
        }
        Ok(())
    }

    /// Copies a variation's images and records them; whether a copy was made (none is for one kept before).
    async fn keep(
        &self,
        subject: &str,
        render_id: &str,
        variation_id: &str,
        kind: Option<&VariationType>,
        sources: Vec<Source>,
    ) -> Result<bool, ServerError> {
        let _turn = self.one_at_a_time.lock().await;
        let known = self.store.ever_kept(render_id, variation_id).await?;
        // Kept already, or removed by its owner or the retention period: not copied again.
        if known || sources.is_empty() {
            return Ok(false);
        }
        let mut stored: Vec<(Source, Location, u64)> = Vec::new();
        if let Err(error) = self.copy(subject, render_id, variation_id, kind, sources, &mut stored).await {
            // All of a variation or none of it: what was stored goes.
            self.forget(stored.iter().map(|(_, location, _)| location.clone()).collect()).await;
            return Err(error);
        }
        let kept_at = now_millis();
        let files: Vec<KeptFile> = stored
            .iter()
            .map(|(source, _, size)| KeptFile {
                render_id: render_id.into(),
                variation_id: variation_id.into(),
                file: source.file(),
                image_index: u32::try_from(source.index).unwrap_or(u32::MAX),
                role: source.role.to_string(),
                subject: subject.into(),
                bytes: *size,
                kept_at,
                removed: false,
            })
            .collect();
        self.store.record_kept(&files, &self.reported(subject, kind, &files)).await?;
        if let Some(hooks) = &self.host_webhooks {
            hooks.wake();
        }
        Ok(true)
    }

    /// Fetches each image and puts it in the store, adding it to `stored`, within the subject's quota. Each copy
    /// says in its metadata how it was made (`disclosure::provenance`), and carries none of the photo's own.
    async fn copy(
        &self,
        subject: &str,
        render_id: &str,
        variation_id: &str,
        kind: Option<&VariationType>,
        sources: Vec<Source>,
        stored: &mut Vec<(Source, Location, u64)>,
    ) -> Result<(), ServerError> {
        // Copies are made one at a time: what the subject keeps cannot change before this one is recorded.
        let used = match self.limits.quota {
            Some(_) => self.used_by(subject).await?,
            None => 0,
        };
        let mut adding = 0u64;
        for source in sources {
            let fetched = self.fetcher.fetch(&source.url).await?;
            let bytes = provenance::mark(fetched, kind).map_err(ServerError::BadGateway)?;
            adding += bytes.len() as u64;
            if let Some(quota) = self.limits.quota
                && used + adding > quota
            {
                metrics().quota_refused("kept_results");
                return Err(ServerError::InsufficientStorage(format!(
                    "the subject keeps {used} bytes of results, the quota is {quota}: this result stays at the \
                     service's address"
                )));
            }
            let location = Location::from(format!("{render_id}/{variation_id}/{}", source.file()));
            let size = bytes.len() as u64;
            self.files
                .put(&location, bytes.into())
                .await
                .map_err(|error| ServerError::Internal(format!("the storage refused {location}: {error}")))?;
            stored.push((source, location, size));
        }
        Ok(())
    }

    /// Keeps one more file with a kept variation (its original photo, a labelled copy), within `subject`'s quota;
    /// it is served, counted, removed and expired with the variation's own files.
    pub async fn add_file(&self, subject: &str, file: KeptFile, bytes: Bytes) -> Result<(), ServerError> {
        let _turn = self.one_at_a_time.lock().await;
        if let Some(quota) = self.limits.quota {
            let used = self.used_by(subject).await?;
            if used + bytes.len() as u64 > quota {
                metrics().quota_refused("kept_results");
                return Err(ServerError::InsufficientStorage(format!(
                    "the subject keeps {used} bytes of results, the quota is {quota}: remove kept results first"
                )));
            }
        }
        let location = Location::from(format!("{}/{}/{}", file.render_id, file.variation_id, file.file));
        self.files
            .put(&location, bytes.into())
            .await
            .map_err(|error| ServerError::Internal(format!("the storage refused {location}: {error}")))?;
        self.store.record_kept(std::slice::from_ref(&file), &[]).await
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

    /// The service's JSON answer about renders or variations (`body`), with the kept addresses in place of the
    /// service's; finished variations not kept yet are copied for `subject` in the background. Anything that is
    /// not such an answer comes back as it was.
    pub async fn in_answer(self: &Arc<Self>, body: Bytes, subject: &str) -> Bytes {
        let Ok(mut answer) = serde_json::from_slice::<Value>(&body) else { return body };
        let mut finished = Vec::new();
        finished_variations(&answer, &mut finished);
        if finished.is_empty() {
            return body;
        }
        let renders: Vec<String> =
            finished.iter().map(|(render, _)| render.clone()).collect::<HashSet<_>>().into_iter().collect();
        let kept = match self.kept_files(renders).await {
            Ok(kept) => kept,
            Err(error) => {
                tracing::warn!(%error, "kept results could not be looked up");
                return body;
            }
        };
        let mut unkept = Vec::new();
        replace_addresses(&mut answer, &kept, &|file| self.address(file), &mut unkept);
        for Unkept { render_id, variation_id, kind, result } in unkept {
            self.keep_later(subject, &render_id, &variation_id, kind, &result);
        }
        serde_json::to_vec(&answer).map(Bytes::from).unwrap_or(body)
    }

    /// For each variation of `renders` that has kept files (or had, and was removed: an empty map), its files
    /// by `(image index, role)`.
    async fn kept_files(&self, renders: Vec<String>) -> Result<Kept, ServerError> {
        let mut kept = Kept::new();
        for file in self.store.kept_files(&renders).await? {
            let files = kept.entry((file.render_id.clone(), file.variation_id.clone())).or_default();
            if !file.removed {
                let address = format!("{}/{}/{}", file.render_id, file.variation_id, file.file);
                files.insert((file.image_index as usize, file.role), address);
            }
        }
        Ok(kept)
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

    /// `GET /api/results/{render_id}/{variation_id}/{file}?sig=...`: to whoever holds the link this server signed.
    async fn serve(
        &self,
        render_id: String,
        variation_id: String,
        file: &str,
        signature: Option<String>,
    ) -> Result<Response, ServerError> {
        // A link not signed here looks exactly like a result that does not exist.
        let missing = || ServerError::NotFound("No such kept result; it may have been removed.".into());
        let path = format!("{render_id}/{variation_id}/{file}");
        if !signature.is_some_and(|signature| self.links.verifies(&path, &signature)) {
            return Err(missing());
        }
        let kept = self.store.kept_files(std::slice::from_ref(&render_id)).await?;
        if !kept.iter().any(|kept| kept.variation_id == variation_id && kept.file == file && !kept.removed) {
            return Err(missing());
        }
        let location = Location::from(format!("{render_id}/{variation_id}/{file}"));
        let stored = self.files.get(&location).await.map_err(|error| match error {
            object_store::Error::NotFound { .. } => missing(),
            other => ServerError::Internal(format!("the storage could not read {location}: {other}")),
        })?;
        let body = Body::from_stream(stored.into_stream().map_err(std::io::Error::other));
        let mut response = body.into_response();
        let headers = response.headers_mut();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type(file)));
        // Never changes; it may be removed, so shared caches keep no copy.
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("private, max-age=31536000, immutable"));
        crate::inert::as_inert(headers);
        Ok(response)
    }

    /// `DELETE /api/results/{render_id}/{variation_id}`: the variation's kept files removed for good (its
    /// results are then shown at the service's addresses, while it still has them).
    async fn remove(
        &self,
        subject: &Subject,
        render_id: String,
        variation_id: String,
    ) -> Result<Json<Value>, ServerError> {
        let kept: Vec<(String, String)> = self
            .store
            .kept_files(std::slice::from_ref(&render_id))
            .await?
            .into_iter()
            .filter(|kept| kept.variation_id == variation_id && !kept.removed)
            .map(|kept| (kept.file, kept.subject))
            .collect();
        if kept.is_empty() || (subject.by_token() && kept.iter().any(|(_, owner)| owner != subject.as_str())) {
            return Err(ServerError::NotFound("No kept result for this variation.".into()));
        }
        let locations =
            kept.iter().map(|(file, _)| Location::from(format!("{render_id}/{variation_id}/{file}"))).collect();
        self.forget(locations).await;
        self.store.mark_kept_removed(&render_id, &variation_id).await?;
        Ok(Json(json!({"message": "The kept copy was removed; the result is shown from the service while it has it."})))
    }

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

/// `DELETE /api/results/...`, for the subject the access middleware found.
pub fn routes(kept: Arc<KeptResults>) -> Router {
    Router::new()
        .route(
            "/results/{render_id}/{variation_id}",
            axum::routing::delete(
                |State(kept): State<Arc<KeptResults>>,
                 Extension(subject): Extension<Subject>,
                 Path((render, variation)): Path<(String, String)>| async move {
                    kept.remove(&subject, render, variation).await
                },
            ),
        )
        .with_state(kept)
}

/// A kept result's link: its signature, and the name to save it under (`download`, outside the signature: any
/// name the link's holder likes, made file-safe).
#[derive(Debug, Deserialize)]
struct Link {
    sig: Option<String>,
    download: Option<String>,
}

/// `answer` saved under `name` (file-safe, with `file`'s extension) when one is asked for.
fn saved_as(mut answer: Response, name: Option<&str>, file: &str) -> Response {
    let name = name.map(crate::downloads::file_safe).filter(|name| !name.is_empty());
    if let Some(name) = name {
        let extension = file.rsplit_once('.').map_or("jpg", |(_, extension)| extension);
        if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{name}.{extension}\"")) {
            answer.headers_mut().insert(axum::http::header::CONTENT_DISPOSITION, value);
        }
    }
    answer
}

/// `GET /api/results/...`, to whoever holds a signed link (no token: a listing page shows it).
pub fn link_routes(kept: Arc<KeptResults>) -> Router {
    Router::new()
        .route(
            "/results/{render_id}/{variation_id}/{file}",
            get(
                |State(kept): State<Arc<KeptResults>>,
                 Path((render, variation, file)): Path<(String, String, String)>,
                 Query(link): Query<Link>| async move {
                    let answer = kept.serve(render, variation, &file, link.sig).await;
                    answer.map(|answer| saved_as(answer, link.download.as_deref(), &file))
                },
            ),
        )
        .with_state(kept)
}

/// Every finished variation in a JSON answer (a variation, a render with its variations, a page of renders):
/// objects with `id`, `render_id`, `status` `done` and a `result`.
fn finished_variations(value: &Value, found: &mut Vec<(String, String)>) {
    match value {
        Value::Object(object) => {
            if let Some((render, variation)) = finished(object) {
                found.push((render.to_string(), variation.to_string()));
            }
            object.values().for_each(|inner| finished_variations(inner, found));
        }
        Value::Array(items) => items.iter().for_each(|inner| finished_variations(inner, found)),
        _ => {}
    }
}

fn finished(object: &serde_json::Map<String, Value>) -> Option<(&str, &str)> {
    let done = object.get("status").and_then(Value::as_str) == Some("done") && object.contains_key("result");
    done.then_some(())?;
    Some((object.get("render_id")?.as_str()?, object.get("id")?.as_str()?))
}

/// A finished variation with nothing kept yet, to be copied.
struct Unkept {
    render_id: String,
    variation_id: String,
    kind: Option<VariationType>,
    result: VariationResult,
}

/// Puts the kept addresses in place in every finished variation of `value`; those with nothing kept (and not
/// removed) are listed in `unkept` with their result, to be copied.
fn replace_addresses(value: &mut Value, kept: &Kept, address: &dyn Fn(&str) -> String, unkept: &mut Vec<Unkept>) {
    match value {
        Value::Object(object) => {
            if let Some((render, variation)) = finished(object).map(|(r, v)| (r.to_string(), v.to_string())) {
                match kept.get(&(render.clone(), variation.clone())) {
                    Some(files) => {
                        if let Some(result) = object.get_mut("result") {
                            replace_in_result(result, files, address);
                        }
                    }
                    None => {
                        if let Some(result) = object.get("result").and_then(|r| serde_json::from_value(r.clone()).ok())
                        {
                            let kind = object.get("type").and_then(|t| serde_json::from_value(t.clone()).ok());
                            unkept.push(Unkept { render_id: render, variation_id: variation, kind, result });
                        }
                    }
                }
            }
            object.values_mut().for_each(|inner| replace_addresses(inner, kept, address, unkept));
        }
        Value::Array(items) => items.iter_mut().for_each(|inner| replace_addresses(inner, kept, address, unkept)),
        _ => {}
    }
}

/// A result (one image object, or a list of them) with its kept addresses.
fn replace_in_result(result: &mut Value, files: &HashMap<(usize, String), String>, address: &dyn Fn(&str) -> String) {
    let images: Vec<&mut Value> = match result {
        Value::Array(images) => images.iter_mut().collect(),
        image => vec![image],
    };
    for (index, image) in images.into_iter().enumerate() {
        let Some(image) = image.as_object_mut() else { continue };
        for role in ROLES {
            if let Some(file) = files.get(&(index, role.to_string()))
                && image.contains_key(role)
            {
                image.insert(role.to_string(), Value::String(address(file)));
            }
        }
    }
}

fn content_type(file: &str) -> &'static str {
    match file.rsplit('.').next() {
        Some("png") => "image/png",
        Some("webp") => "image/webp",
        Some("avif") => "image/avif",
        _ => "image/jpeg",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finished_variations_anywhere_in_an_answer_get_their_kept_addresses() {
        let mut answer = json!({"items": [{"id": "r1", "variations": {"items": [
            {"id": "v1", "render_id": "r1", "status": "done",
             "result": {"url": "https://cdn.example/a.jpg", "thumbnail_url": "https://cdn.example/a_t.png"}},
            {"id": "v2", "render_id": "r1", "status": "done", "result": [{"url": "https://cdn.example/b.jpg"}]},
            {"id": "v3", "render_id": "r1", "status": "processing"},
        ]}}]});
        let mut found = Vec::new();
        finished_variations(&answer, &mut found);
        assert_eq!(found, [("r1".to_string(), "v1".to_string()), ("r1".to_string(), "v2".to_string())]);

        let mut kept = Kept::new();
        kept.insert(
            ("r1".into(), "v1".into()),
            HashMap::from([((0, "url".to_string()), "r1/v1/0-url.jpg".to_string())]),
        );
        let mut unkept = Vec::new();
        let address = |file: &str| format!("https://me.example/api/results/{file}?sig=s");
        replace_addresses(&mut answer, &kept, &address, &mut unkept);
        let v1 = &answer["items"][0]["variations"]["items"][0]["result"];
        assert_eq!(v1["url"], "https://me.example/api/results/r1/v1/0-url.jpg?sig=s");
        assert_eq!(v1["thumbnail_url"], "https://cdn.example/a_t.png", "what was not kept stays");
        assert_eq!(unkept.len(), 1, "v2 is to be copied");
        assert_eq!(sources(&unkept[0].result)[0].file(), "0-url.jpg");
    }
}
