//! Multi-view staging, the service's beta (docs/service-api.md, "What the real service does beyond the contract"):
//! two or three photos of one room, taken from different places, staged with the same furniture and layout. A
//! render of several photos is `POST /renders` with `image_urls`; each of its variations' `result` is then an
//! array, one image per photo. `POST /multi-view-compatability` (the service's spelling) says beforehand whether
//! the photos can be staged together. The request's field names are vstage's reading (docs/api-notes.md).

use serde::{Deserialize, Serialize};

use crate::vocabulary::RoomType;

/// How many photos a multi-view render takes: the docs stage two; vstage allows a third.
pub const VIEWS: std::ops::RangeInclusive<usize> = 2..=3;

/// The room types the beta stages ("other room types are currently incompatible with multi-view staging").
pub const ROOM_TYPES: [RoomType; 2] = [RoomType::Living, RoomType::Bed];

/// `POST /multi-view-compatability`: whether these photos can be staged together.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckViews {
    pub image_urls: Vec<String>,
}

/// The answer: compatible or not, and when not, why, in a sentence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewsCompatibility {
    pub compatible: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_check_and_its_answer_read_and_write_their_fields() {
        let check: CheckViews =
            serde_json::from_str(r#"{"image_urls": ["https://a/1.jpg", "https://a/2.jpg"]}"#).unwrap();
        assert_eq!(check.image_urls.len(), 2);
        let answer: ViewsCompatibility =
            serde_json::from_str(r#"{"compatible": false, "message": "m", "x": 1}"#).unwrap();
        assert_eq!(answer, ViewsCompatibility { compatible: false, message: Some("m".into()) });
        assert_eq!(
            serde_json::to_string(&ViewsCompatibility { compatible: true, message: None }).unwrap(),
            r#"{"compatible":true}"#
        );
    }
}
