//! What a vstage server offers its widget (`GET /api/capabilities`), so the widget can tell our server from a
//! plain reverse proxy (which answers 404) and choose live events or polling, uploads or URLs only.

use serde::{Deserialize, Serialize};

/// `GET {base}/capabilities`. Unknown fields are ignored; what is missing reads as not offered.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Capabilities {
    /// `sandbox` (the embedded sandbox) or `upstream` (the real service); other values kept.
    pub mode: String,
    /// Server-sent events at `{base}/events`.
    #[serde(default)]
    pub events: bool,
    /// Photo uploads at `{base}/uploads`.
    #[serde(default)]
    pub uploads: bool,
    /// The listing board remembered for each subject at `{base}/board`.
    #[serde(default)]
    pub board: bool,
    /// `open` or `token`.
    #[serde(default)]
    pub access: String,
    /// Kept results carry content credentials (C2PA), which the originals page reads back; false from a server
    /// built without them (its `content-credentials` feature).
    #[serde(default)]
    pub content_credentials: bool,
}

/// One sample photo of the embedded sandbox (`GET {base}/samples`, sandbox mode only).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sample {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub url: String,
}

/// The answer to `POST {base}/uploads`: where the stored photo can be fetched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Uploaded {
    pub url: String,
    #[serde(default)]
    pub width: u32,
    #[serde(default)]
    pub height: u32,
    #[serde(default)]
    pub bytes: u64,
}

impl Capabilities {
    pub fn is_sandbox(&self) -> bool {
        self.mode == "sandbox"
    }
}
