//! The furniture analysis of an image (`POST /analyze`): a mask and the share of the image it covers.
//! Only `done` is shown by service-api.md; other statuses are kept.

use serde::{Deserialize, Serialize};

use crate::time::Timestamp;
use crate::vocabulary::AnalysisStatus;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    pub id: String,
    pub created_at: Timestamp,
    /// The mask: white where furniture was found.
    pub result_url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub percentage_masked: Option<f64>,
    pub status: AnalysisStatus,
}
