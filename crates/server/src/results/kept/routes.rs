//! The kept files' routes: served at the links this server signed, and removed by their owner.

use super::*;

impl KeptResults {
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
        // a step of its own beside the files being kept, so none is added between listing them and marking them
        // removed
        let _turn = self.by_variation.of(variation_key(&render_id, &variation_id)).await;
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
}

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
    let name = name.map(crate::file_names::file_safe).filter(|name| !name.is_empty());
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

fn content_type(file: &str) -> &'static str {
    match file.rsplit('.').next() {
        Some("png") => "image/png",
        Some("webp") => "image/webp",
        Some("avif") => "image/avif",
        _ => "image/jpeg",
    }
}
