//! Multi-view staging, the service's beta: `POST /v2/multi-view-compatability` (the service's spelling), and the
//! check a multi-view render passes before it is created: every photo fetched, read as an image, and all of one
//! size, as the service's docs ask ("The input images should have the same dimensions").

use std::io::Cursor;
use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use vstage_api::multi_view::{CheckViews, ViewsCompatibility};

use crate::SandboxState;
use crate::auth::Authenticated;
use crate::body::JsonBody;
use crate::error::SandboxError;
use crate::source::Kind;

/// `POST /v2/multi-view-compatability`: compatible, or not with the reason.
pub async fn compatibility(
    State(state): State<Arc<SandboxState>>,
    _account: Authenticated,
    JsonBody(request): JsonBody<CheckViews>,
) -> Result<Json<ViewsCompatibility>, SandboxError> {
    request.validate()?;
    Ok(Json(match same_size(&state, &request.image_urls).await {
        Ok(()) => ViewsCompatibility { compatible: true, message: None },
        Err(why) => ViewsCompatibility { compatible: false, message: Some(why) },
    }))
}

/// Every photo read as an image of the first one's size; else a sentence saying which is not, and what to do.
pub async fn same_size(state: &SandboxState, photos: &[String]) -> Result<(), String> {
    let mut first = None;
    for (index, url) in photos.iter().enumerate() {
        let bytes = state.fetcher.fetch(Kind::Image, url).await?;
        let size = image::ImageReader::new(Cursor::new(bytes))
            .with_guessed_format()
            .ok()
            .and_then(|reader| reader.into_dimensions().ok())
            .ok_or_else(|| {
                format!("Photo {} is not an image the sandbox can read; send a JPEG, PNG or WebP.", index + 1)
            })?;
        match first {
            None => first = Some(size),
            Some(expected) if expected != size => {
                return Err(format!(
                    "Photo {} is {} x {} px and photo 1 is {} x {} px; multi-view staging takes photos of the same \
                     size, so crop or scale them alike.",
                    index + 1,
                    size.0,
                    size.1,
                    expected.0,
                    expected.1
                ));
            }
            Some(_) => {}
        }
    }
    Ok(())
}
