//! The service's webhook deliveries (service-api.md part 6): one per variation that completes or fails, one per analysis.
//! `done` and `error` follow service-api.md and its appendix; `update` and the analysis payloads are vstage's choice.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::render::VariationResult;
use crate::tagged;
use crate::time::Timestamp;
use crate::vocabulary::{VariationStatus, VariationType};

/// A delivery, by its `event_type`. Unknown event types are kept verbatim.
#[derive(Debug, Clone, PartialEq)]
pub enum WebhookEvent {
    Done(VariationDone),
    Error(VariationFailed),
    Update(VariationUpdate),
    AnalysisCompletion(AnalysisCompleted),
    AnalysisError(AnalysisFailed),
    Unknown(Value),
}

/// `event_type: done`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VariationDone {
    pub render_id: String,
    pub variation_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variation_type: Option<VariationType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_variation_id: Option<String>,
    pub timestamp: Timestamp,
    pub result: VariationResult,
}

/// `event_type: error` (shape from the public docs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VariationFailed {
    pub render_id: String,
    pub variation_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variation_type: Option<VariationType>,
    pub timestamp: Timestamp,
    #[serde(default)]
    pub error_message: Option<String>,
}

/// `event_type: update`: a status change or progress (vstage's shape).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VariationUpdate {
    pub render_id: String,
    pub variation_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variation_type: Option<VariationType>,
    pub timestamp: Timestamp,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<VariationStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eta: Option<Timestamp>,
}

/// `event_type: analysis_completion` (vstage's shape).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnalysisCompleted {
    pub analysis_id: String,
    pub timestamp: Timestamp,
    pub result_url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub percentage_masked: Option<f64>,
}

/// `event_type: analysis_error` (vstage's shape).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnalysisFailed {
    pub analysis_id: String,
    pub timestamp: Timestamp,
    #[serde(default)]
    pub error_message: Option<String>,
}

impl WebhookEvent {
    /// The `event_type` as written on the wire.
    pub fn event_type(&self) -> Option<&str> {
        match self {
            WebhookEvent::Done(_) => Some("done"),
            WebhookEvent::Error(_) => Some("error"),
            WebhookEvent::Update(_) => Some("update"),
            WebhookEvent::AnalysisCompletion(_) => Some("analysis_completion"),
            WebhookEvent::AnalysisError(_) => Some("analysis_error"),
            WebhookEvent::Unknown(value) => value.get("event_type").and_then(Value::as_str),
        }
    }

    /// When the service sent it, in epoch milliseconds (`None` for an unknown event without a numeric one).
    pub fn sent_at(&self) -> Option<i64> {
        match self {
            WebhookEvent::Done(event) => Some(event.timestamp.millis()),
            WebhookEvent::Error(event) => Some(event.timestamp.millis()),
            WebhookEvent::Update(event) => Some(event.timestamp.millis()),
            WebhookEvent::AnalysisCompletion(event) => Some(event.timestamp.millis()),
            WebhookEvent::AnalysisError(event) => Some(event.timestamp.millis()),
            WebhookEvent::Unknown(value) => value.get("timestamp").and_then(Value::as_f64).map(|millis| millis as i64),
        }
    }

    /// The render the event is about, for variation events.
    pub fn render_id(&self) -> Option<&str> {
        match self {
            WebhookEvent::Done(event) => Some(&event.render_id),
            WebhookEvent::Error(event) => Some(&event.render_id),
            WebhookEvent::Update(event) => Some(&event.render_id),
            WebhookEvent::Unknown(value) => value.get("render_id").and_then(Value::as_str),
            _ => None,
        }
    }
}

impl Serialize for WebhookEvent {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let tag = self.event_type().unwrap_or_default();
        let tagged = match self {
            WebhookEvent::Done(event) => tagged::with_tag("event_type", tag, event),
            WebhookEvent::Error(event) => tagged::with_tag("event_type", tag, event),
            WebhookEvent::Update(event) => tagged::with_tag("event_type", tag, event),
            WebhookEvent::AnalysisCompletion(event) => tagged::with_tag("event_type", tag, event),
            WebhookEvent::AnalysisError(event) => tagged::with_tag("event_type", tag, event),
            WebhookEvent::Unknown(value) => return value.serialize(serializer),
        };
        tagged.map_err(serde::ser::Error::custom)?.serialize(serializer)
    }
}

/// The `event_type`s the contract has, each read into its own shape (any other is `Unknown`).
pub const EVENT_TYPES: [&str; 5] = ["done", "error", "update", "analysis_completion", "analysis_error"];

impl<'de> Deserialize<'de> for WebhookEvent {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        if !value.is_object() {
            return Err(D::Error::custom("a webhook payload must be a JSON object"));
        }
        use tagged::parse;
        let known = match value.get("event_type").and_then(Value::as_str) {
            Some("done") => parse(&value).map(WebhookEvent::Done),
            Some("error") => parse(&value).map(WebhookEvent::Error),
            Some("update") => parse(&value).map(WebhookEvent::Update),
            Some("analysis_completion") => parse(&value).map(WebhookEvent::AnalysisCompletion),
            Some("analysis_error") => parse(&value).map(WebhookEvent::AnalysisError),
            _ => None,
        };
        Ok(known.unwrap_or(WebhookEvent::Unknown(value)))
    }
}
