//! `POST /v2/analyze`: the furniture analysis of a photo, answered when done: the mask as a black-and-white PNG
//! of the photo's size (white = furniture), the share it covers, and an `analysis_completion` webhook when asked.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use vstage_api::time::now_millis;
use vstage_api::webhook::{AnalysisCompleted, AnalysisFailed};
use vstage_api::{Analysis, AnalysisStatus, Analyze, Timestamp, WebhookEvent};

use crate::SandboxState;
use crate::auth::Authenticated;
use crate::body::JsonBody;
use crate::error::SandboxError;
use crate::ids::new_id;
use crate::source::Kind;
use crate::webhooks;
use vstage_imaging as imaging;

pub async fn analyze(
    State(state): State<Arc<SandboxState>>,
    Authenticated(account): Authenticated,
    JsonBody(request): JsonBody<Analyze>,
) -> Result<Json<Analysis>, SandboxError> {
    request.validate()?;
    let id = new_id("ana")?;
    let created_at = now_millis();
    let outcome = mask(&state, &request.image_url).await;
    let event = match &outcome {
        Ok((_, percentage)) => WebhookEvent::AnalysisCompletion(AnalysisCompleted {
            analysis_id: id.clone(),
            timestamp: Timestamp::from_millis(now_millis()),
            result_url: result_url(&state, &id),
            percentage_masked: Some(*percentage),
        }),
        Err(message) => WebhookEvent::AnalysisError(AnalysisFailed {
            analysis_id: id.clone(),
            timestamp: Timestamp::from_millis(now_millis()),
            error_message: Some(message.clone()),
        }),
    };
    if let Some(url) = request.webhook_url.clone() {
        let uid = account.uid.clone();
        state.store.run(move |db| webhooks::enqueue(db, &uid, &url, &event)).await?;
        state.deliveries_added.notify_waiters();
    }
    let (png, percentage) = outcome.map_err(SandboxError::Unprocessable)?;
    state.files.write(&file_name(&id), &png)?;
    Ok(Json(Analysis {
        result_url: result_url(&state, &id),
        id,
        created_at: Timestamp::from_millis(created_at),
        percentage_masked: Some(percentage),
        status: AnalysisStatus::Done,
    }))
}

fn file_name(id: &str) -> String {
    format!("{id}-mask.png")
}

fn result_url(state: &SandboxState, id: &str) -> String {
    format!("{}/files/{}", state.base_url, file_name(id))
}

/// The mask PNG and the percentage of the photo it covers, or why the photo could not be analysed.
async fn mask(state: &SandboxState, image_url: &str) -> Result<(Vec<u8>, f64), String> {
    let bytes = state.fetcher.fetch(Kind::Image, image_url).await?;
    tokio::task::spawn_blocking(move || {
        let (mask, percentage) = imaging::furniture_analysis(&imaging::decode(&bytes)?);
        Ok((imaging::png(&mask)?, (percentage * 100.0).round() / 100.0))
    })
    .await
    .map_err(|e| format!("The analysis stopped unexpectedly ({e})."))?
}
