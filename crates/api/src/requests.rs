//! The v2 request bodies and queries of service-api.md part 4, and the small answers that have no other home.
//! Each request checks itself (`validate`) before it is sent; the sandbox runs the same checks. A request is read
//! field by field into these types, never through an untyped tree, and a config into one of the contract's shapes
//! (`config::requested`): what reads a request holds no more than its own bytes, and forwards only what it read.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};

use crate::config::{Config, RequestedFields};
use crate::render::{Render, Variation};
use crate::vocabulary::SortOrder;

/// `POST /renders`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CreateRender {
    /// The photo; for multi-view staging, the first of `image_urls`.
    pub image_url: String,
    /// Multi-view staging (the service's beta, `crate::multi_view`): every photo of the one room, in order, the
    /// first being `image_url`. Empty for a render of one photo.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub image_urls: Vec<String>,
    #[serde(flatten)]
    pub configs: RenderConfigs,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook_url: Option<String>,
    #[serde(default, deserialize_with = "crate::lenient::bool", skip_serializing_if = "Option::is_none")]
    pub wait_for_completion: Option<bool>,
}

/// The single-config form (`config` + `variation_count`) or the multi-config form (`configs`, each with its own
/// `variation_count`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum RenderConfigs {
    Single { config: Config, variation_count: u64 },
    Multi { configs: Vec<ConfigEntry> },
}

/// One entry of the multi-config form: a config object that carries its own `variation_count`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConfigEntry {
    #[serde(flatten)]
    pub config: Config,
    pub variation_count: u64,
}

impl RenderConfigs {
    /// Each config, whichever the form, to be written over.
    pub fn configs_mut(&mut self) -> Vec<&mut Config> {
        match self {
            RenderConfigs::Single { config, .. } => vec![config],
            RenderConfigs::Multi { configs } => configs.iter_mut().map(|entry| &mut entry.config).collect(),
        }
    }

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

/// `POST /renders` as sent: either form's fields, each optional until the form is known.
#[derive(Deserialize)]
struct CreateRenderFields {
    #[serde(default)]
    image_url: Option<String>,
    #[serde(default)]
    image_urls: Vec<String>,
    #[serde(default)]
    config: Option<RequestedFields>,
    #[serde(default)]
    variation_count: Option<u64>,
    #[serde(default)]
    configs: Option<Vec<RequestedFields>>,
    #[serde(default)]
    webhook_url: Option<String>,
    #[serde(default, deserialize_with = "crate::lenient::bool")]
    wait_for_completion: Option<bool>,
}

impl<'de> Deserialize<'de> for CreateRender {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let fields = CreateRenderFields::deserialize(deserializer)?;
        let configs = match (fields.config, fields.variation_count, fields.configs) {
            (Some(config), Some(variation_count), None) => {
                RenderConfigs::Single { config: config.into_config().map_err(D::Error::custom)?, variation_count }
            }
            (Some(_), None, None) => return Err(D::Error::custom("config needs a variation_count beside it")),
            (None, _, Some(configs)) => RenderConfigs::Multi {
                configs: configs
                    .into_iter()
                    .map(ConfigEntry::from_fields)
                    .collect::<Result<_, _>>()
                    .map_err(D::Error::custom)?,
            },
            (Some(_), _, Some(_)) => return Err(D::Error::custom("give config or configs, not both")),
            (None, _, None) => return Err(D::Error::custom("a render needs config (with variation_count) or configs")),
        };
        let image_url = match (fields.image_url, fields.image_urls.first()) {
            (Some(photo), Some(first)) if photo != *first => {
                return Err(D::Error::custom("image_url must be the first of image_urls; give one or the other"));
            }
            (Some(photo), _) => photo,
            (None, Some(first)) => first.clone(),
            (None, None) => return Err(D::Error::missing_field("image_url")),
        };
        Ok(CreateRender {
            image_url,
            image_urls: fields.image_urls,
            configs,
            webhook_url: fields.webhook_url,
            wait_for_completion: fields.wait_for_completion,
        })
    }
}

impl ConfigEntry {
    fn from_fields(fields: RequestedFields) -> Result<ConfigEntry, String> {
        let variation_count = fields.variation_count.ok_or("each of configs needs its own variation_count")?;
        Ok(ConfigEntry { config: fields.into_config()?, variation_count })
    }
}

impl<'de> Deserialize<'de> for ConfigEntry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        ConfigEntry::from_fields(RequestedFields::deserialize(deserializer)?).map_err(D::Error::custom)
    }
}

/// `POST /renders/{render_id}/variations`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AddVariations {
    #[serde(deserialize_with = "crate::config::requested")]
    pub config: Config,
    pub variation_count: u64,
    #[serde(default, deserialize_with = "crate::lenient::bool", skip_serializing_if = "Option::is_none")]
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
    #[serde(default, deserialize_with = "crate::lenient::bool", skip_serializing_if = "Option::is_none")]
    pub wait_for_completion: Option<bool>,
    pub renders: Vec<BulkRender>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BulkRender {
    #[serde(deserialize_with = "crate::config::requested")]
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
    #[serde(default, deserialize_with = "crate::lenient::bool", skip_serializing_if = "Option::is_none")]
    pub wait_for_completion: Option<bool>,
    pub renders: Vec<BulkVariations>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BulkVariations {
    pub render_id: String,
    pub variation_count: u64,
    #[serde(deserialize_with = "crate::config::requested")]
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
    #[serde(default, deserialize_with = "crate::lenient::bool", skip_serializing_if = "Option::is_none")]
    pub include_variations: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variations_limit: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variations_cursor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variations_order: Option<SortOrder>,
}

/// The query of `GET /renders/{render_id}/variations` (beyond the contract: see api-notes.md): a page in the
/// render list's words (`limit`, `cursor`, `order`), or in `GET /renders/{render_id}`'s (`variations_limit`, ...);
/// the list's words win where both are given.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListVariations {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<SortOrder>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variations_limit: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variations_cursor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variations_order: Option<SortOrder>,
}

impl ListVariations {
    /// The page asked for, in the list's words.
    pub fn page(&self) -> ListRenders {
        ListRenders {
            limit: self.limit.or(self.variations_limit),
            cursor: self.cursor.clone().or_else(|| self.variations_cursor.clone()),
            order: self.order.or(self.variations_order),
        }
    }

    /// The same page as `GET /renders/{render_id}` includes it.
    pub fn as_render_query(&self) -> GetRender {
        let ListRenders { limit, cursor, order } = self.page();
        GetRender {
            include_variations: Some(true),
            variations_limit: limit,
            variations_cursor: cursor,
            variations_order: order,
        }
    }
}

impl ListRenders {
    /// The query string, `?limit=..&cursor=..&order=..` or empty.
    pub fn to_query(&self) -> String {
        self.to_query_of_listing(None)
    }

    /// The query string with `vstage serve`'s own `listing_id` (only the renders made for that listing) when
    /// there is one.
    pub fn to_query_of_listing(&self, listing_id: Option<&str>) -> String {
        crate::query::encode(&[
            ("limit", self.limit.map(|n| n.to_string())),
            ("cursor", self.cursor.clone()),
            ("order", self.order.map(|o| o.as_str().to_string())),
            ("listing_id", listing_id.map(str::to_string)),
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_listing_is_asked_for_after_the_page_and_encoded() {
        let page = ListRenders { limit: Some(20), cursor: None, order: Some(SortOrder::Desc) };
        assert_eq!(page.to_query_of_listing(Some("L 10/42&x")), "?limit=20&order=desc&listing_id=L%2010%2F42%26x");
        assert_eq!(page.to_query_of_listing(None), page.to_query());
        assert_eq!(ListRenders::default().to_query_of_listing(Some("L-1")), "?listing_id=L-1");
    }

    fn staging() -> serde_json::Value {
        json!({"type": "staging", "add_furniture": {"style": "modern", "room_type": "living"}})
    }

    #[test]
    fn a_request_is_read_into_known_shapes_and_written_with_nothing_else() {
        let sent = json!({
            "image_url": "https://a.example/room.jpg", "variation_count": 1, "surprise": {"deep": [1, 2]},
            "config": {"type": "staging", "sky_style": "dusk", "add_furniture": {"style": "modern",
                       "room_type": "living", "extra": true}, "remove_furniture": {"mode": "auto", "x": 1}},
        });
        let read: CreateRender = serde_json::from_value(sent).unwrap();
        let written = serde_json::to_value(&read).unwrap();
        assert_eq!(
            written,
            json!({"image_url": "https://a.example/room.jpg", "variation_count": 1, "config": {"type": "staging",
                   "add_furniture": {"style": "modern", "room_type": "living"}, "remove_furniture": {"mode": "auto"}}})
        );
        let multi: CreateRender = serde_json::from_value(json!({"image_url": "https://a.example/r.jpg",
            "configs": [{"type": "enhancement", "variation_count": 2}, {"type": "day_to_dusk", "sky_style": "golden",
            "variation_count": 1}]}))
        .unwrap();
        assert_eq!(multi.configs.entries().iter().map(|(_, count)| *count).collect::<Vec<_>>(), [2, 1]);
    }

    #[test]
    fn what_is_not_one_of_the_contracts_requests_is_refused() {
        let refused = [
            json!({"image_url": "u", "variation_count": 1, "config": {"type": "virtual_renovation"}}),
            json!({"image_url": "u", "variation_count": 1, "config": {"add_furniture": {}}}),
            json!({"image_url": "u", "variation_count": 1, "config": {"type": "staging"}}),
            json!({"image_url": "u", "variation_count": 1, "config": {"type": "daytodusk"}}),
            json!({"image_url": "u", "config": staging()}),
            json!({"image_url": "u", "configs": [staging()]}),
            json!({"image_url": "u", "variation_count": 1, "config": staging(), "configs": []}),
            json!({"image_url": "u", "variation_count": 1.5, "config": staging()}),
            json!({"image_url": {"a": 1}, "variation_count": 1, "config": staging()}),
        ];
        for body in refused {
            assert!(serde_json::from_value::<CreateRender>(body.clone()).is_err(), "{body}");
        }
        let text = r#"{"image_url": "u", "variation_count": 1, "config": {"type": "enhancement"}"#;
        for odd in [
            format!(r#"{text}, "image_url": "v"}}"#),
            text.replace("\"u\"", r#""\ud800""#) + "}",
            text.replace("1,", "1e400,") + "}",
            format!(r#"{text}, "webhook_url": {}"x"{}}}"#, "[".repeat(201), "]".repeat(201)),
        ] {
            assert!(serde_json::from_str::<CreateRender>(&odd).is_err(), "{odd}");
        }
        let bulk = json!({"renders": [{"render_id": {"id": "r"}, "variation_count": 1, "config": staging()}]});
        assert!(serde_json::from_value::<BulkAddVariations>(bulk).is_err());
    }
}
