//! The legacy v1 API (service-api.md parts 2-4 and the appendix): ping, options, create, render, create-variation.
//! v1 spells some fields in camelCase (`roomType`, `userObj`); they are kept exactly.

use serde::{Deserialize, Serialize};

use crate::lenient;
use crate::open_enum;
use crate::time::Timestamp;
use crate::vocabulary::{RemovalMode, RoomType, Style};

/// `GET /v1/ping`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ping {
    /// Absent for a widget token's holder (see `User::user`).
    #[serde(rename = "userObj", default, skip_serializing_if = "Option::is_none")]
    pub user: Option<PingUser>,
    #[serde(rename = "photoLimit", serialize_with = "whole_when_it_is")]
    pub photo_limit: f64,
    #[serde(rename = "photosUsedThisPeriod", serialize_with = "whole_when_it_is")]
    pub photos_used_this_period: f64,
}

/// A count written as the service writes it, a plain number (`100`, not `100.0`), whatever was read (some services
/// send `100.0`); a fraction, which no count has, as it is.
fn whole_when_it_is<S: serde::Serializer>(count: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    if count.fract() == 0.0 && (0.0..=u64::MAX as f64).contains(count) {
        serializer.serialize_u64(*count as u64)
    } else {
        serializer.serialize_f64(*count)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PingUser {
    pub email: String,
    pub uid: String,
}

/// `GET /v1/options`: the authoritative strings, to pass back exactly. `variationStyles`, a create-variation list
/// of its own, is read when a service sends one (earlier sandboxes did); without it `styles` serve both calls.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    #[serde(rename = "roomTypes", default)]
    pub room_types: Vec<String>,
    #[serde(default)]
    pub styles: Vec<String>,
    #[serde(rename = "variationStyles", default, skip_serializing_if = "Vec::is_empty")]
    pub variation_styles: Vec<String>,
}

open_enum! {
    /// A v1 render's status (service-api.md part 3 and the appendix).
    pub enum Status {
        Queued = "queued",
        Rendering = "rendering",
        Done = "done",
        Error = "error",
    }
}

open_enum! {
    /// v1 `resolution`.
    pub enum Resolution {
        FourK = "4k",
        FullHd = "full-hd",
    }
}

/// `GET /v1/render` (shape from the appendix).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Render {
    pub render_id: String,
    pub status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<Timestamp>,
    /// Result images, newest last.
    #[serde(default)]
    pub outputs: Vec<String>,
    /// 0 to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress: Option<f64>,
    #[serde(default)]
    pub outputs_room_types: Vec<String>,
    #[serde(default)]
    pub outputs_styles: Vec<String>,
    /// The render's photo (vstage's sandbox sends it; service-api.md does not show it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_url: Option<String>,
}

/// `GET {base}/v1/renders` of `vstage serve` (v1 itself cannot list): a page of the subject's v1 renders, newest
/// first unless asked otherwise, each as `GET /v1/render` answers.
pub type RenderPage = crate::render::Page<Render>;

/// `POST /v1/render/create` (JSON form; the multipart form sends the same fields as query parameters).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CreateRender {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_url: Option<String>,
    /// Also read as `roomType`, create-variation's spelling, which clients send to create too (the multipart
    /// form's query `roomType=bed`): the service takes both (docs/api-notes.md, "v1").
    #[serde(default, alias = "roomType", skip_serializing_if = "Option::is_none")]
    pub room_type: Option<RoomType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<Style>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolution: Option<Resolution>,
    /// Defaults to true on the service.
    #[serde(default, deserialize_with = "lenient::bool", skip_serializing_if = "Option::is_none")]
    pub wait_for_completion: Option<bool>,
    #[serde(default, deserialize_with = "lenient::bool", skip_serializing_if = "Option::is_none")]
    pub add_virtually_staged_watermark: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declutter_mode: Option<RemovalMode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declutter_mask_url: Option<String>,
    /// Defaults to true; with `declutter_mode: on`, false gives only the decluttered image.
    #[serde(default, deserialize_with = "lenient::bool", skip_serializing_if = "Option::is_none")]
    pub add_furniture: Option<bool>,
}

impl CreateRender {
    /// The arguments as query parameters, as the multipart form of create sends them (the photo is the file).
    pub fn query(&self) -> String {
        let text = |value: Option<&str>| value.map(str::to_string);
        let flag = |value: Option<bool>| value.map(|flag| flag.to_string());
        crate::query::encode(&[
            ("room_type", text(self.room_type.as_ref().map(RoomType::as_str))),
            ("style", text(self.style.as_ref().map(Style::as_str))),
            ("resolution", text(self.resolution.as_ref().map(Resolution::as_str))),
            ("wait_for_completion", flag(self.wait_for_completion)),
            ("add_virtually_staged_watermark", flag(self.add_virtually_staged_watermark)),
            ("declutter_mode", text(self.declutter_mode.as_ref().map(RemovalMode::as_str))),
            ("declutter_mask_url", self.declutter_mask_url.clone()),
            ("add_furniture", flag(self.add_furniture)),
        ])
    }
}

/// The answer to `POST /v1/render/create` (and to create-variation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Created {
    pub render_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_image_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removal_output: Option<String>,
}

/// `POST /v1/render/create-variation?render_id=...`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CreateVariation {
    /// Read from the body when the query has none: public clients send it either way. vstage sends it in the query.
    #[serde(default, skip_serializing)]
    pub render_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::bool", skip_serializing_if = "Option::is_none")]
    pub wait_for_completion: Option<bool>,
    /// Also read as `room_type`, create's spelling.
    #[serde(rename = "roomType", alias = "room_type", default, skip_serializing_if = "Option::is_none")]
    pub room_type: Option<RoomType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<Style>,
    #[serde(default, deserialize_with = "lenient::bool", skip_serializing_if = "Option::is_none")]
    pub add_virtually_staged_watermark: Option<bool>,
    #[serde(default, deserialize_with = "lenient::bool", skip_serializing_if = "Option::is_none")]
    pub switch_to_queued_immediately: Option<bool>,
}

/// The room types v1 accepts: service-api.md's list and `bathroom` from the public docs.
pub const ROOM_TYPES: &[&str] =
    &["living", "bed", "kitchen", "dining", "home_office", "outdoor", "kids_room", "bathroom"];

/// The styles v1 takes, in create and create-variation alike, and the list `GET /v1/options` gives: service-api.md's
/// create list, then the create-variation list's others. One list, because public clients offer what options
/// lists to both calls (milosdjakovic/virtual-staging-wp-plugin, includes/class-vsai-template-renderer.php).
pub const STYLES: &[&str] = &[
    "modern",
    "scandinavian",
    "industrial",
    "midcentury",
    "luxury",
    "farmhouse",
    "coastal",
    "standard",
    "mid-century modern",
    "american",
    "southwestern",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ping_counts_are_written_as_plain_numbers() {
        let ping = Ping { user: None, photo_limit: 4_294_967_295.0, photos_used_this_period: 4.0 };
        assert_eq!(serde_json::to_string(&ping).unwrap(), r#"{"photoLimit":4294967295,"photosUsedThisPeriod":4}"#);
        let read: Ping = serde_json::from_str(r#"{"photoLimit": 100.0, "photosUsedThisPeriod": 2.5}"#).unwrap();
        assert_eq!(serde_json::to_string(&read).unwrap(), r#"{"photoLimit":100,"photosUsedThisPeriod":2.5}"#);
    }
}
