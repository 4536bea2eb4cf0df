//! Renders and their variations as the v2 API returns them (service-api.md part 2), with their list pages.
//! `eta` and optional fields may be null or missing; `result` may be one object or an array of them.

use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::time::Timestamp;
use crate::vocabulary::{VariationStatus, VariationType};

/// A processing job for one source image.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Render {
    pub id: String,
    pub created_at: Timestamp,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queued_at: Option<Timestamp>,
    /// Present when asked for (`include_variations`) and in creation answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variations: Option<VariationPage>,
    /// When the first variation is expected to complete.
    #[serde(default)]
    pub eta: Option<Timestamp>,
    /// The source image. Not in service-api.md's table; the sandbox sends it and vstage shows it when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_url: Option<String>,
}

/// One page of a list: its items, the cursor of the next page (none on the last), and the total when the service
/// gives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Page<T> {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_count: Option<u64>,
    #[serde(default)]
    pub next_cursor: Option<String>,
    pub items: Vec<T>,
}

/// `GET /renders`.
pub type RenderPage = Page<Render>;

/// A page of a render's variations.
pub type VariationPage = Page<Variation>;

/// One generated result within a render.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Variation {
    pub id: String,
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<VariationType>,
    pub render_id: String,
    pub created_at: Timestamp,
    pub status: VariationStatus,
    /// Present once the status is `done`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<VariationResult>,
    /// The removal variation this staging variation was made on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_variation_id: Option<String>,
    /// When this variation is expected to complete.
    #[serde(default)]
    pub eta: Option<Timestamp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<Config>,
    /// Why it failed, when its status is `error` (vstage's addition, as in the `error` webhook).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_message: Option<String>,
}

/// `result`: one image, or several for multi-view staging (service-api.md appendix).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum VariationResult {
    One(ResultImage),
    Many(Vec<ResultImage>),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultImage {
    pub url: String,
    #[serde(default)]
    pub optimized_url: Option<String>,
    #[serde(default)]
    pub thumbnail_url: Option<String>,
}

impl VariationResult {
    /// Every image of the result, in order.
    pub fn images(&self) -> &[ResultImage] {
        match self {
            VariationResult::One(image) => std::slice::from_ref(image),
            VariationResult::Many(images) => images,
        }
    }

    /// The image to show first.
    pub fn primary(&self) -> Option<&ResultImage> {
        self.images().first()
    }
}

impl ResultImage {
    /// The smallest image there is, for lists.
    pub fn thumbnail(&self) -> &str {
        self.thumbnail_url.as_deref().or(self.optimized_url.as_deref()).unwrap_or(&self.url)
    }
}

impl Render {
    /// The variations included in this answer (none when they were not asked for).
    pub fn variation_items(&self) -> &[Variation] {
        self.variations.as_ref().map_or(&[], |page| &page.items)
    }
}
