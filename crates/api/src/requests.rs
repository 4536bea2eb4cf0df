//! The v2 request bodies and queries of API.md part 4, and the small answers that have no other home.
//! Each request checks itself (`validate`) before it is sent; the sandbox runs the same checks.

use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::render::{Render, Variation};
use crate::vocabulary::SortOrder;

/// `POST /renders`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CreateRender {
    pub image_url: String,
    #[serde(flatten)]
    pub configs: RenderConfigs,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wait_for_completion: Option<bool>,
}

/// The single-config form (`config` + `variation_count`) or the multi-config form (`configs`, each with its own
/// `variation_count`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RenderConfigs {
    Single { config: Config, variation_count: u64 },
    Multi { configs: Vec<ConfigEntry> },
}

/// One entry of the multi-config form: a config object that carries its own `variation_count`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConfigEntry {
    #[serde(flatten)]
    pub config: Config,
    pub variation_count: u64,
}

impl RenderConfigs {
    /// Each config with its count, whichever the form.
    pub fn entries(&self) -> Vec<(&Config, u64)> {
        match self {
            RenderConfigs::Single { config, variation_count } => vec![(config, *variation_count)],
            RenderConfigs::Multi { configs } => {
                configs.iter().map(|entry| (&entry.config, entry.variation_count)).collect()
            }
        }
    }
}

/// `POST /renders/{render_id}/variations`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AddVariations {
    pub config: Config,
    pub variation_count: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wait_for_completion: Option<bool>,
}

/// The answer to `POST /renders/{render_id}/variations`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AddedVariations {
    pub variations: Vec<Variation>,
}

/// `POST /renders/bulk`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BulkCreateRenders {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wait_for_completion: Option<bool>,
    pub renders: Vec<BulkRender>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BulkRender {
    pub config: Config,
    pub image_url: String,
    pub variation_count: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BulkCreatedRenders {
    pub renders: Vec<Render>,
}

/// `POST /renders/variations/bulk`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BulkAddVariations {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wait_for_completion: Option<bool>,
    pub renders: Vec<BulkVariations>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BulkVariations {
    pub render_id: String,
    pub variation_count: u64,
    pub config: Config,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BulkAddedVariations {
    pub results: Vec<Variation>,
}

/// `POST /analyze`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Analyze {
    pub image_url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook_url: Option<String>,
}

/// `POST /user/webhook-secret`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetWebhookSecret {
    pub webhook_secret: String,
}

/// `{"message": ...}`: the answer of the webhook-secret endpoints, and every error body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    pub message: String,
}

/// The query of `GET /renders`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListRenders {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<SortOrder>,
}

/// The query of `GET /renders/{render_id}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GetRender {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_variations: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variations_limit: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variations_cursor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variations_order: Option<SortOrder>,
}

impl ListRenders {
    /// The query string, `?limit=..&cursor=..&order=..` or empty.
    pub fn to_query(&self) -> String {
        crate::query::encode(&[
            ("limit", self.limit.map(|n| n.to_string())),
            ("cursor", self.cursor.clone()),
            ("order", self.order.map(|o| o.as_str().to_string())),
        ])
    }
}

impl GetRender {
    /// Variations included, `limit` a page.
    pub fn with_variations(limit: u32) -> Self {
        GetRender { include_variations: Some(true), variations_limit: Some(limit), ..GetRender::default() }
    }

    pub fn to_query(&self) -> String {
        crate::query::encode(&[
            ("include_variations", self.include_variations.map(|b| b.to_string())),
            ("variations_limit", self.variations_limit.map(|n| n.to_string())),
            ("variations_cursor", self.variations_cursor.clone()),
            ("variations_order", self.variations_order.map(|o| o.as_str().to_string())),
        ])
    }
}
