//! The contract's bounds, checked before a request is sent (and again by the sandbox when it arrives).
//! Each failure names the field and says what to do, so a form can show it next to that field.

use std::ops::RangeInclusive;

use crate::config::Config;
use crate::requests::{
    AddVariations, Analyze, BulkAddVariations, BulkCreateRenders, CreateRender, GetRender, ListRenders, RenderConfigs,
    SetWebhookSecret,
};
use crate::v1;

/// At most this many variations exist per render (API.md part 1, rule 2).
pub const MAX_VARIATIONS_PER_RENDER: u64 = 20;
/// The most entries one bulk request carries (API.md leaves the service's maximum unshown; see the API notes).
/// More go in several requests: `Client::bulk_create_renders_in_chunks`.
pub const MAX_BULK_ENTRIES: usize = 25;
/// `limit` and `variations_limit`.
pub const PAGE_LIMIT: RangeInclusive<u32> = 1..=100;
/// The largest photo file vstage uploads and the sandbox fetches (API.md leaves the service's limit unshown; see
/// the API notes).
pub const MAX_PHOTO_BYTES: usize = 25 * 1024 * 1024;
/// The largest photo, in pixels, that vstage uploads and the sandbox processes (likewise unshown by API.md).
pub const MAX_PHOTO_PIXELS: u64 = 50_000_000;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ValidationError {
    /// The field's path in the request, e.g. `configs[1].variation_count`.
    pub field: String,
    pub rule: Rule,
    /// A sentence for the person, saying what to do.
    pub message: String,
}

/// Which kind of rule was broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    Required,
    Range,
    Pattern,
    NotAllowedHere,
    UnknownValue,
    TooManyVariations,
}

fn fail(field: impl Into<String>, rule: Rule, message: impl Into<String>) -> Result<(), ValidationError> {
    Err(ValidationError { field: field.into(), rule, message: message.into() })
}

impl CreateRender {
    pub fn validate(&self) -> Result<(), ValidationError> {
        image_url("image_url", &self.image_url)?;
        optional_http_url("webhook_url", self.webhook_url.as_deref())?;
        let entries: Vec<(String, &Config, u64)> = match &self.configs {
            RenderConfigs::Single { config, variation_count } => vec![(String::new(), config, *variation_count)],
            RenderConfigs::Multi { configs } => {
                if configs.is_empty() {
                    return fail("configs", Rule::Required, "Add at least one configuration.");
                }
                configs
                    .iter()
                    .enumerate()
                    .map(|(i, e)| (format!("configs[{i}]."), &e.config, e.variation_count))
                    .collect()
            }
        };
        let mut total = 0u64;
        for (prefix, config, count) in entries {
            let config_field =
                if prefix.is_empty() { "config".to_string() } else { prefix.trim_end_matches('.').to_string() };
            variation_count(&format!("{prefix}variation_count"), count)?;
            known_config(&config_field, config)?;
            if config.base_variation_id().is_some() {
                fail(
                    format!("{config_field}.add_furniture.base_variation_id"),
                    Rule::NotAllowedHere,
                    "A base variation can only be given when adding variations to an existing render; remove it here.",
                )?;
            }
            total += config.max_variations_for(count);
        }
        within_render_bound(
            if matches!(self.configs, RenderConfigs::Multi { .. }) { "configs" } else { "variation_count" },
            0,
            total,
        )
    }
}

impl AddVariations {
    /// `existing`: how many variations the render has, when known.
    pub fn validate(&self, existing: Option<u64>) -> Result<(), ValidationError> {
        variation_count("variation_count", self.variation_count)?;
        known_config("config", &self.config)?;
        if let Some(base) = self.config.base_variation_id() {
            id("config.add_furniture.base_variation_id", base)?;
        }
        match existing {
            Some(existing) => {
                within_render_bound("variation_count", existing, self.config.max_variations_for(self.variation_count))
            }
            None => within_render_bound("variation_count", 0, self.config.max_variations_for(self.variation_count)),
        }
    }
}

impl BulkCreateRenders {
    pub fn validate(&self) -> Result<(), ValidationError> {
        if self.renders.is_empty() {
            return fail("renders", Rule::Required, "Add at least one photo to the bulk request.");
        }
        at_most_bulk_entries(self.renders.len(), "photos")?;
        optional_http_url("webhook_url", self.webhook_url.as_deref())?;
        for (index, entry) in self.renders.iter().enumerate() {
            let single = CreateRender {
                image_url: entry.image_url.clone(),
                configs: RenderConfigs::Single { config: entry.config.clone(), variation_count: entry.variation_count },
                webhook_url: None,
                wait_for_completion: None,
            };
            single.validate().map_err(|e| ValidationError { field: format!("renders[{index}].{}", e.field), ..e })?;
        }
        Ok(())
    }
}

fn at_most_bulk_entries(count: usize, what: &str) -> Result<(), ValidationError> {
    if count > MAX_BULK_ENTRIES {
        return fail(
            "renders",
            Rule::Range,
            format!(
                "One bulk request takes at most {MAX_BULK_ENTRIES} {what} ({count} given); send the rest in another."
            ),
        );
    }
    Ok(())
}

impl BulkAddVariations {
    pub fn validate(&self) -> Result<(), ValidationError> {
        if self.renders.is_empty() {
            return fail("renders", Rule::Required, "Add at least one render to the bulk request.");
        }
        at_most_bulk_entries(self.renders.len(), "renders")?;
        for (index, entry) in self.renders.iter().enumerate() {
            id(&format!("renders[{index}].render_id"), &entry.render_id)?;
            let add = AddVariations {
                config: entry.config.clone(),
                variation_count: entry.variation_count,
                wait_for_completion: None,
            };
            add.validate(None).map_err(|e| ValidationError { field: format!("renders[{index}].{}", e.field), ..e })?;
        }
        Ok(())
    }
}

impl ListRenders {
    pub fn validate(&self) -> Result<(), ValidationError> {
        page_limit("limit", self.limit)
    }
}

impl GetRender {
    pub fn validate(&self) -> Result<(), ValidationError> {
        page_limit("variations_limit", self.variations_limit)
    }
}

impl Analyze {
    pub fn validate(&self) -> Result<(), ValidationError> {
        if !matches_analyze_image_url(&self.image_url) {
            return fail(
                "image_url",
                Rule::Pattern,
                "Give the photo as an http(s) address without spaces, or as a base64 data URL of an image.",
            );
        }
        optional_http_url("webhook_url", self.webhook_url.as_deref())
    }
}

impl SetWebhookSecret {
    pub fn validate(&self) -> Result<(), ValidationError> {
        webhook_secret(&self.webhook_secret)
    }
}

impl v1::CreateRender {
    /// `has_file`: the photo is uploaded as form data instead of `image_url`.
    pub fn validate(&self, has_file: bool) -> Result<(), ValidationError> {
        match (&self.image_url, has_file) {
            (Some(url), false) => image_url("image_url", url)?,
            (None, false) => fail("image_url", Rule::Required, "Give the photo's address or upload the photo.")?,
            (Some(_), true) => {
                fail("image_url", Rule::NotAllowedHere, "Give either a photo address or a file, not both.")?
            }
            (None, true) => {}
        }
        let declutter_only = self.declutter_mode == Some(crate::RemovalMode::On) && self.add_furniture == Some(false);
        if !declutter_only {
            let Some(room_type) = &self.room_type else {
                return fail("room_type", Rule::Required, "Choose a room type for staging.");
            };
            one_of("room_type", room_type.as_str(), v1::ROOM_TYPES)?;
            let Some(style) = &self.style else {
                return fail("style", Rule::Required, "Choose a furniture style for staging.");
            };
            one_of("style", style.as_str(), v1::CREATE_STYLES)?;
        }
        if let Some(mode) = &self.declutter_mode {
            one_of("declutter_mode", mode.as_str(), &["off", "auto", "on"])?;
        }
        if let Some(resolution) = &self.resolution {
            one_of("resolution", resolution.as_str(), &["4k", "full-hd"])?;
        }
        if let Some(mask) = &self.declutter_mask_url {
            image_url("declutter_mask_url", mask)?;
        }
        Ok(())
    }
}

impl v1::CreateVariation {
    pub fn validate(&self) -> Result<(), ValidationError> {
        if let Some(room_type) = &self.room_type {
            one_of("roomType", room_type.as_str(), v1::ROOM_TYPES)?;
        }
        if let Some(style) = &self.style {
            one_of("style", style.as_str(), v1::VARIATION_STYLES)?;
        }
        Ok(())
    }
}

/// Every named value of `config` is one vstage knows (output resolution, removal mode, sky style, room type,
/// style). Not part of `validate`, which lets a client send values a newer service may accept; the sandbox, which
/// implements only these, checks it.
pub fn known_vocabulary(field: &str, config: &Config) -> Result<(), ValidationError> {
    let unknown = |name: &str, value: &str| {
        fail(
            format!("{field}.{name}"),
            Rule::UnknownValue,
            format!("`{value}` is not a value the sandbox knows for {name}."),
        )
    };
    let resolution = match config {
        Config::Staging(c) => c.output_resolution.as_ref(),
        Config::RemovalOnly(c) => c.output_resolution.as_ref(),
        Config::DayToDusk(c) => c.output_resolution.as_ref(),
        Config::Enhancement(c) => c.output_resolution.as_ref(),
        _ => None,
    };
    if let Some(value) = resolution.filter(|v| !v.is_known()) {
        unknown("output_resolution", value.as_str())?;
    }
    let removal = match config {
        Config::Staging(c) => c.remove_furniture.as_ref(),
        Config::RemovalOnly(c) => Some(&c.remove_furniture),
        _ => None,
    };
    if let Some(removal) = removal.filter(|r| !r.mode.is_known()) {
        unknown("remove_furniture.mode", removal.mode.as_str())?;
    }
    match config {
        Config::Staging(c) if !c.add_furniture.room_type.is_known() => {
            unknown("add_furniture.room_type", c.add_furniture.room_type.as_str())
        }
        Config::Staging(c) if !c.add_furniture.style.is_known() => {
            unknown("add_furniture.style", c.add_furniture.style.as_str())
        }
        Config::DayToDusk(c) if !c.sky_style.is_known() => unknown("sky_style", c.sky_style.as_str()),
        _ => Ok(()),
    }
}

/// An id used in a path or a body: not empty, no slash or control character, not `.` or `..`.
pub fn id(field: &str, value: &str) -> Result<(), ValidationError> {
    if value.is_empty()
        || value == "."
        || value == ".."
        || value.bytes().any(|b| b == b'/' || b == b'\\' || b.is_ascii_control())
        || (!value.is_ascii() && value.chars().any(char::is_control))
    {
        return fail(field, Rule::Pattern, format!("`{}` is not a valid id; copy the id again.", value.escape_debug()));
    }
    Ok(())
}

/// `variation_count`: at least 1, at most the per-render bound.
pub fn variation_count(field: &str, count: u64) -> Result<(), ValidationError> {
    if !(1..=MAX_VARIATIONS_PER_RENDER).contains(&count) {
        return fail(field, Rule::Range, format!("Ask for between 1 and {MAX_VARIATIONS_PER_RENDER} variations."));
    }
    Ok(())
}

/// `existing + adding` must stay within the per-render bound.
pub fn within_render_bound(field: &str, existing: u64, adding: u64) -> Result<(), ValidationError> {
    let left = MAX_VARIATIONS_PER_RENDER.saturating_sub(existing);
    if adding > left {
        let removal_note = "Staging with furniture removal adds one removal variation per staged one. ";
        return fail(
            field,
            Rule::TooManyVariations,
            format!(
                "This would make up to {} variations; a render holds at most {MAX_VARIATIONS_PER_RENDER} ({left} left). {removal_note}Lower the count.",
                existing + adding
            ),
        );
    }
    Ok(())
}

fn page_limit(field: &str, limit: Option<u32>) -> Result<(), ValidationError> {
    match limit {
        Some(limit) if !PAGE_LIMIT.contains(&limit) => {
            fail(field, Rule::Range, "Ask for between 1 and 100 items a page.")
        }
        _ => Ok(()),
    }
}

fn known_config(field: &str, config: &Config) -> Result<(), ValidationError> {
    match config {
        Config::Other(_) => fail(
            field,
            Rule::UnknownValue,
            format!(
                "The configuration type `{}` is not one vstage can send; choose staging, removal, day-to-dusk or enhancement.",
                config.type_tag().unwrap_or("(none)")
            ),
        ),
        Config::Staging(staging) => optional_image_url(
            &format!("{field}.remove_furniture.mask_url"),
            staging.remove_furniture.as_ref().and_then(|r| r.mask_url.as_deref()),
        ),
        Config::RemovalOnly(removal) if removal.remove_furniture.mode == crate::RemovalMode::Off => fail(
            format!("{field}.remove_furniture.mode"),
            Rule::UnknownValue,
            "Removing furniture needs mode `on` or `auto`; `off` removes nothing.",
        ),
        Config::RemovalOnly(removal) => optional_image_url(
            &format!("{field}.remove_furniture.mask_url"),
            removal.remove_furniture.mask_url.as_deref(),
        ),
        _ => Ok(()),
    }
}

fn one_of(field: &str, value: &str, allowed: &[&str]) -> Result<(), ValidationError> {
    if allowed.contains(&value) {
        return Ok(());
    }
    fail(field, Rule::UnknownValue, format!("`{value}` is not accepted here; choose one of: {}.", allowed.join(", ")))
}

/// A photo (or mask) address for the service: the `image_url` pattern of POST /analyze.
fn image_url(field: &str, value: &str) -> Result<(), ValidationError> {
    if value.trim().is_empty() {
        return fail(field, Rule::Required, "Give the photo's address.");
    }
    if !matches_analyze_image_url(value) {
        return fail(field, Rule::Pattern, "Give an http(s) address without spaces, or a base64 data URL of an image.");
    }
    Ok(())
}

fn optional_image_url(field: &str, value: Option<&str>) -> Result<(), ValidationError> {
    value.map_or(Ok(()), |value| image_url(field, value))
}

fn optional_http_url(field: &str, value: Option<&str>) -> Result<(), ValidationError> {
    match value {
        Some(url) if !is_http_url(url) => {
            fail(field, Rule::Pattern, "Give an address starting with http:// or https://, without spaces.")
        }
        _ => Ok(()),
    }
}

fn is_http_url(value: &str) -> bool {
    let rest = value.strip_prefix("https://").or_else(|| value.strip_prefix("http://"));
    rest.is_some_and(|rest| !rest.is_empty() && !rest.chars().any(is_js_whitespace))
}

/// The webhook secret: at least one character of `a-z A-Z 0-9 _ -` (API.md part 4).
pub fn webhook_secret(secret: &str) -> Result<(), ValidationError> {
    if secret.is_empty() {
        return fail("webhook_secret", Rule::Required, "Give a secret of at least one character.");
    }
    if !secret.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
        return fail("webhook_secret", Rule::Pattern, "Use only letters, digits, `_` and `-` in the secret.");
    }
    Ok(())
}

/// `^(https?:\/\/[^\s]+|data:image\/[a-zA-Z+]+;base64,[A-Za-z0-9+/=]+)$`, exactly, with ECMAScript's `\s`
/// (the pattern is an OpenAPI pattern, which uses ECMA-262 semantics).
pub fn matches_analyze_image_url(value: &str) -> bool {
    if let Some(rest) = value.strip_prefix("https://").or_else(|| value.strip_prefix("http://")) {
        return !rest.is_empty() && !rest.chars().any(is_js_whitespace);
    }
    let Some(rest) = value.strip_prefix("data:image/") else { return false };
    let Some((subtype, data)) = rest.split_once(";base64,") else { return false };
    !subtype.is_empty()
        && subtype.bytes().all(|b| b.is_ascii_alphabetic() || b == b'+')
        && !data.is_empty()
        && data.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
}

/// ECMAScript's `\s`: WhiteSpace and LineTerminator (ECMA-262 22.2.2.9).
fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{202F}' | '\u{205F}' | '\u{3000}' | '\u{FEFF}'
    )
}
