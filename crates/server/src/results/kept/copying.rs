//! Copying a finished variation's images into storage, once, one variation at a time, within its subject's
//! quota, with their provenance; and the host's `variation.done` written with the record.

use super::*;

impl KeptResults {
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
        let key = variation_key(render_id, variation_id);
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
        let _subjects_turn = self.by_subject.of(subject.to_string()).await;
        let _turn = self.by_variation.of(variation_key(render_id, variation_id)).await;
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
        // Counted again as it is recorded: another server may have kept the subject's results meanwhile.
        let recorded = self.store.record_kept(&files, &self.reported(subject, kind, &files), self.limits.quota).await;
        if let Err(error) = recorded.and_then(|within| within.map_err(|used| self.over_quota(used))) {
            self.forget(stored.into_iter().map(|(_, location, _)| location).collect()).await;
            return Err(error);
        }
        if let Some(hooks) = &self.host_webhooks {
            hooks.wake();
        }
        Ok(true)
    }

    /// Fetches each image and puts it in the store, adding it to `stored`, within the subject's quota. Each copy
    /// says in its metadata how it was made (`provenance`), carries none of the photo's own, and is signed with
    /// content credentials naming the render's photo (`signing`).
    async fn copy(
        &self,
        subject: &str,
        render_id: &str,
        variation_id: &str,
        kind: Option<&VariationType>,
        sources: Vec<Source>,
        stored: &mut Vec<(Source, Location, u64)>,
    ) -> Result<(), ServerError> {
        // The subject's copies are made one at a time: what it keeps cannot change before this one is recorded.
        let used = match self.limits.quota {
            Some(_) => self.used_by(subject).await?,
            None => 0,
        };
        let mut adding = 0u64;
        // Each image's photo read once for its three copies, whether it could be read or not.
        let mut originals: HashMap<u32, Option<Original>> = HashMap::new();
        for source in sources {
            let fetched = self.fetcher.fetch(&source.url).await?;
            let view = u32::try_from(source.index).unwrap_or(u32::MAX);
            let original = match originals.get(&view) {
                Some(read) => read.clone(),
                None => {
                    let read = self.original_of(render_id, view).await;
                    originals.insert(view, read.clone());
                    read
                }
            };
            let bytes = self.marked(fetched, kind, &source.file(), original.as_ref()).await?;
            adding += bytes.len() as u64;
            if self.limits.quota.is_some_and(|quota| used + adding > quota) {
                return Err(self.over_quota(used));
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
}

/// One image to copy: where it is in the result, and the service's address.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Source {
    index: usize,
    role: &'static str,
    url: String,
}

impl Source {
    /// The file name it is kept under, e.g. `0-thumbnail_url.jpg`.
    pub(super) fn file(&self) -> String {
        format!("{}-{}.{}", self.index, self.role, extension(&self.url))
    }
}

pub(super) fn sources(result: &VariationResult) -> Vec<Source> {
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
