//! The contract's bounds, checked before a request is sent (and again by the sandbox when it arrives).
//! Each failure names the field and says what to do, so a form can show it next to that field.

use std::ops::RangeInclusive;

use crate::config::Config;
use crate::requests::{
    AddVariations, Analyze, BulkAddVariations, BulkCreateRenders, CreateRender, GetRender, ListRenders, ListVariations,
    RenderConfigs, SetWebhookSecret,
};
use crate::vocabulary::{OutputResolution, RemovalMode};
use crate::{multi_view, v1};

/// At most this many variations exist per render (service-api.md part 1, rule 2).
pub const MAX_VARIATIONS_PER_RENDER: u64 = 20;
/// The most entries one bulk request carries (service-api.md leaves the service's maximum unshown; see the API notes).
/// More go in several requests: `Client::bulk_create_renders_in_chunks`.
pub const MAX_BULK_ENTRIES: usize = 25;
/// `limit` and `variations_limit`.
pub const PAGE_LIMIT: RangeInclusive<u32> = 1..=100;
/// The largest photo file vstage uploads and the sandbox fetches (service-api.md leaves the service's limit unshown; see
/// the API notes).
pub const MAX_PHOTO_BYTES: usize = 25 * 1024 * 1024;
/// The largest photo, in pixels, that vstage uploads and the sandbox processes (likewise unshown by service-api.md).
pub const MAX_PHOTO_PIXELS: u64 = 50_000_000;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ValidationError {
    /// The field's path in the request, e.g. `configs[1].variation_count`.
    pub field: String,
    pub rule: Rule,
    /// What is wrong, with what the sentence names: the widget shows it in the studio's language.
    pub problem: Problem,
    /// The English sentence for the person, saying what to do (`problem.to_string()`): for the server, the
    /// sandbox, host events and logs.
    pub message: String,
}

impl ValidationError {
    /// An error about `field`; `message` is `problem`'s English sentence. A sentence written elsewhere:
    /// `Problem::Other(sentence)`.
    pub fn new(field: impl Into<String>, rule: Rule, problem: Problem) -> Self {
        let message = problem.to_string();
        ValidationError { field: field.into(), rule, problem, message }
    }
}

/// What a request breaks, one variant per sentence, carrying what the sentence names. `Display` is the English
/// sentence (`ValidationError::message`); the widget translates each variant (`src/locale/errors.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// `configs` is empty.
    NoConfiguration,
    /// A base variation id given when creating a render.
    BaseVariationNotHere,
    /// A bulk create request without entries.
    BulkNoPhotos,
    /// A bulk add-variations request without entries.
    BulkNoRenders,
    /// A multi-view render with fewer than `min` or more than `max` photos.
    ViewCount { min: usize, max: usize },
    /// A multi-view render whose configuration the beta does not stage: only staging of a living room or a
    /// bedroom, without furniture removal.
    MultiViewConfig,
    /// A bulk create request with more than `max` photos.
    BulkTooManyPhotos { max: usize, given: usize },
    /// A bulk add-variations request with more than `max` renders.
    BulkTooManyRenders { max: usize, given: usize },
    /// POST /analyze's `image_url` does not match its pattern.
    AnalyzePhotoPattern,
    /// v1: neither a photo address nor a file.
    PhotoMissing,
    /// v1: both a photo address and a file.
    PhotoTwice,
    /// v1: staging without a room type.
    RoomTypeMissing,
    /// v1: staging without a style.
    StyleMissing,
    /// `value` of the config's field `name` (e.g. `add_furniture.style`) is one the sandbox does not implement.
    UnknownToSandbox { name: String, value: String },
    /// `value` is not a valid id (shown escaped, as `str::escape_debug` writes it).
    InvalidId { value: String },
    /// `variation_count` outside 1..=`max`.
    VariationCount { max: u64 },
    /// The render would hold up to `total` variations, more than `max`; `left` can still be added.
    TooManyVariations { total: u64, max: u64, left: u64 },
    /// `limit`/`variations_limit` outside 1..=`max`.
    PageLimit { max: u32 },
    /// A configuration type (`tag`) vstage cannot send.
    UnknownConfigType { tag: String },
    /// A configuration without a type.
    MissingConfigType,
    /// A removal-only configuration with mode `off`.
    RemovalModeOff,
    /// `value` is not one of `allowed`.
    NotOneOf { value: String, allowed: Vec<String> },
    /// A photo address is empty.
    PhotoAddressMissing,
    /// A photo (or mask) address does not match the `image_url` pattern.
    PhotoAddressPattern,
    /// A webhook address is not http(s) or has spaces.
    HttpAddressPattern,
    /// The webhook secret is empty.
    SecretMissing,
    /// The webhook secret has other characters than `a-z A-Z 0-9 _ -`.
    SecretPattern,
    /// A sentence written outside this crate, shown as it is.
    Other(String),
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::NoConfiguration => f.write_str("Add at least one configuration."),
            Problem::BaseVariationNotHere => f.write_str(
                "A base variation can only be given when adding variations to an existing render; remove it here.",
            ),
            Problem::BulkNoPhotos => f.write_str("Add at least one photo to the bulk request."),
            Problem::BulkNoRenders => f.write_str("Add at least one render to the bulk request."),
            Problem::BulkTooManyPhotos { max, given } => {
                write!(f, "One bulk request takes at most {max} photos ({given} given); send the rest in another.")
            }
            Problem::BulkTooManyRenders { max, given } => {
                write!(f, "One bulk request takes at most {max} renders ({given} given); send the rest in another.")
            }
            Problem::AnalyzePhotoPattern => {
                f.write_str("Give the photo as an http(s) address without spaces, or as a base64 data URL of an image.")
            }
            Problem::ViewCount { min, max } => {
                write!(f, "Multi-view staging takes {min} to {max} photos of the same room; choose that many.")
            }
            Problem::MultiViewConfig => f.write_str(
                "Multi-view staging stages living rooms and bedrooms, without removing furniture; choose one of \
                 those rooms and no removal, or stage the photos one by one.",
            ),
            Problem::PhotoMissing => f.write_str("Give the photo's address or upload the photo."),
            Problem::PhotoTwice => f.write_str("Give either a photo address or a file, not both."),
            Problem::RoomTypeMissing => f.write_str("Choose a room type for staging."),
            Problem::StyleMissing => f.write_str("Choose a furniture style for staging."),
            Problem::UnknownToSandbox { name, value } => {
                write!(f, "`{value}` is not a value the sandbox knows for {name}.")
            }
            Problem::InvalidId { value } => {
                write!(f, "`{}` is not a valid id; copy the id again.", value.escape_debug())
            }
            Problem::VariationCount { max } => write!(f, "Ask for between 1 and {max} variations."),
            Problem::TooManyVariations { total, max, left } => write!(
                f,
                "This would make up to {total} variations; a render holds at most {max} ({left} left). \
                 Removing furniture before staging adds one empty room per staged one. Lower the count."
            ),
            Problem::PageLimit { max } => write!(f, "Ask for between 1 and {max} items a page."),
            Problem::UnknownConfigType { tag } => write!(
                f,
                "The configuration type `{tag}` is not one vstage can send; \
                 choose staging, removal, day-to-dusk or enhancement."
            ),
            Problem::MissingConfigType => f.write_str(
                "The configuration type `(none)` is not one vstage can send; \
                 choose staging, removal, day-to-dusk or enhancement.",
            ),
            Problem::RemovalModeOff => {
                f.write_str("Removing furniture needs mode `on` or `auto`; `off` removes nothing.")
            }
            Problem::NotOneOf { value, allowed } => {
                write!(f, "`{value}` is not accepted here; choose one of: {}.", allowed.join(", "))
            }
            Problem::PhotoAddressMissing => f.write_str("Give the photo's address."),
            Problem::PhotoAddressPattern => {
                f.write_str("Give an http(s) address without spaces, or a base64 data URL of an image.")
            }
            Problem::HttpAddressPattern => {
                f.write_str("Give an address starting with http:// or https://, without spaces.")
            }
            Problem::SecretMissing => f.write_str("Give a secret of at least one character."),
            Problem::SecretPattern => f.write_str("Use only letters, digits, `_` and `-` in the secret."),
            Problem::Other(text) => f.write_str(text),
        }
    }
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

fn fail(field: impl Into<String>, rule: Rule, problem: Problem) -> Result<(), ValidationError> {
    Err(ValidationError::new(field, rule, problem))
}

impl CreateRender {
    pub fn validate(&self) -> Result<(), ValidationError> {
        image_url("image_url", &self.image_url)?;
        optional_http_url("webhook_url", self.webhook_url.as_deref())?;
        let entries: Vec<(String, &Config, u64)> = match &self.configs {
            RenderConfigs::Single { config, variation_count } => vec![(String::new(), config, *variation_count)],
            RenderConfigs::Multi { configs } => {
                if configs.is_empty() {
                    return fail("configs", Rule::Required, Problem::NoConfiguration);
                }
                configs
                    .iter()
                    .enumerate()
                    .map(|(i, e)| (format!("configs[{i}]."), &e.config, e.variation_count))
                    .collect()
            }
        };
        if !self.image_urls.is_empty() {
            multi_view(&self.image_urls, &entries)?;
        }
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
                    Problem::BaseVariationNotHere,
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

/// The photos of a multi-view render: as many as the beta stages, each an address of the `image_url` pattern.
fn views(photos: &[String]) -> Result<(), ValidationError> {
    if !multi_view::VIEWS.contains(&photos.len()) {
        let (min, max) = (*multi_view::VIEWS.start(), *multi_view::VIEWS.end());
        return fail("image_urls", Rule::Range, Problem::ViewCount { min, max });
    }
    for (index, photo) in photos.iter().enumerate() {
        image_url(&format!("image_urls[{index}]"), photo)?;
    }
    Ok(())
}

impl multi_view::CheckViews {
    pub fn validate(&self) -> Result<(), ValidationError> {
        views(&self.image_urls)
    }
}

/// A multi-view render's photos and configurations, within the beta's limits (`crate::multi_view`).
fn multi_view(photos: &[String], entries: &[(String, &Config, u64)]) -> Result<(), ValidationError> {
    views(photos)?;
    for (prefix, config, _) in entries {
        let field = if prefix.is_empty() { "config" } else { prefix.trim_end_matches('.') };
        multi_view_config(field, config)?;
    }
    Ok(())
}

/// A configuration the beta stages over several photos: staging of a living room or a bedroom, with no furniture
/// removed. The sandbox checks it for variations added to a multi-view render too.
pub fn multi_view_config(field: &str, config: &Config) -> Result<(), ValidationError> {
    let staged = match config {
        Config::Staging(staging) => {
            multi_view::ROOM_TYPES.contains(&staging.add_furniture.room_type)
                && staging.remove_furniture.as_ref().is_none_or(|removal| removal.mode == RemovalMode::Off)
        }
        _ => false,
    };
    if staged { Ok(()) } else { fail(field, Rule::NotAllowedHere, Problem::MultiViewConfig) }
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
            return fail("renders", Rule::Required, Problem::BulkNoPhotos);
        }
        at_most_bulk_entries(self.renders.len(), |max, given| Problem::BulkTooManyPhotos { max, given })?;
        optional_http_url("webhook_url", self.webhook_url.as_deref())?;
        for (index, entry) in self.renders.iter().enumerate() {
            let single = CreateRender {
                image_urls: Vec::new(),
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

/// `problem`: the request's variant, given the maximum and the count.
fn at_most_bulk_entries(count: usize, problem: fn(usize, usize) -> Problem) -> Result<(), ValidationError> {
    if count > MAX_BULK_ENTRIES {
        return fail("renders", Rule::Range, problem(MAX_BULK_ENTRIES, count));
    }
    Ok(())
}

impl BulkAddVariations {
    pub fn validate(&self) -> Result<(), ValidationError> {
        if self.renders.is_empty() {
            return fail("renders", Rule::Required, Problem::BulkNoRenders);
        }
        at_most_bulk_entries(self.renders.len(), |max, given| Problem::BulkTooManyRenders { max, given })?;
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

impl ListVariations {
    pub fn validate(&self) -> Result<(), ValidationError> {
        page_limit("limit", self.limit)?;
        page_limit("variations_limit", self.variations_limit)
    }
}

impl GetRender {
    pub fn validate(&self) -> Result<(), ValidationError> {
        page_limit("variations_limit", self.variations_limit)
    }
}

impl Analyze {
    pub fn validate(&self) -> Result<(), ValidationError> {
        if self.image_url.trim().is_empty() {
            return fail("image_url", Rule::Required, Problem::PhotoAddressMissing);
        }
        if !matches_analyze_image_url(&self.image_url) {
            return fail("image_url", Rule::Pattern, Problem::AnalyzePhotoPattern);
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
            (None, false) => fail("image_url", Rule::Required, Problem::PhotoMissing)?,
            (Some(_), true) => fail("image_url", Rule::NotAllowedHere, Problem::PhotoTwice)?,
            (None, true) => {}
        }
        let declutter_only = self.declutter_mode == Some(crate::RemovalMode::On) && self.add_furniture == Some(false);
        if !declutter_only {
            let Some(room_type) = &self.room_type else {
                return fail("room_type", Rule::Required, Problem::RoomTypeMissing);
            };
            one_of("room_type", room_type.as_str(), v1::ROOM_TYPES)?;
            let Some(style) = &self.style else {
                return fail("style", Rule::Required, Problem::StyleMissing);
            };
            v1_style("style", style)?;
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
            v1_style("style", style)?;
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
            Problem::UnknownToSandbox { name: name.to_string(), value: value.to_string() },
        )
    };
    let resolution = match config {
        Config::Staging(c) => c.output_resolution.as_ref(),
        Config::RemovalOnly(c) => c.output_resolution.as_ref(),
        Config::DayToDusk(c) => c.output_resolution.as_ref(),
        Config::Enhancement(c) => c.output_resolution.as_ref(),
        _ => None,
    };
    if let Some(value) = resolution.filter(|v| !v.is_known() || !sandbox_renders(v)) {
        unknown("output_resolution", &value.to_string())?;
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

/// The long sides, in pixels, the sandbox renders a numeric `output_resolution` at (the service's docs name 1536
/// as the least of its default and 3072 as its largest; 4k is 3840).
pub const SANDBOX_OUTPUT_PIXELS: RangeInclusive<u64> = 512..=4096;

fn sandbox_renders(resolution: &OutputResolution) -> bool {
    match resolution {
        OutputResolution::Pixels(pixels) => SANDBOX_OUTPUT_PIXELS.contains(pixels),
        _ => true,
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
        return fail(field, Rule::Pattern, Problem::InvalidId { value: value.to_string() });
    }
    Ok(())
}

/// `variation_count`: at least 1, at most the per-render bound.
pub fn variation_count(field: &str, count: u64) -> Result<(), ValidationError> {
    if !(1..=MAX_VARIATIONS_PER_RENDER).contains(&count) {
        return fail(field, Rule::Range, Problem::VariationCount { max: MAX_VARIATIONS_PER_RENDER });
    }
    Ok(())
}

/// `existing + adding` must stay within the per-render bound.
pub fn within_render_bound(field: &str, existing: u64, adding: u64) -> Result<(), ValidationError> {
    let left = MAX_VARIATIONS_PER_RENDER.saturating_sub(existing);
    if adding > left {
        return fail(
            field,
            Rule::TooManyVariations,
            Problem::TooManyVariations { total: existing + adding, max: MAX_VARIATIONS_PER_RENDER, left },
        );
    }
    Ok(())
}

fn page_limit(field: &str, limit: Option<u32>) -> Result<(), ValidationError> {
    match limit {
        Some(limit) if !PAGE_LIMIT.contains(&limit) => {
            fail(field, Rule::Range, Problem::PageLimit { max: *PAGE_LIMIT.end() })
        }
        _ => Ok(()),
    }
}

fn known_config(field: &str, config: &Config) -> Result<(), ValidationError> {
    match config {
        Config::Other(_) => fail(
            field,
            Rule::UnknownValue,
            match config.type_tag() {
                Some(tag) => Problem::UnknownConfigType { tag: tag.to_string() },
                None => Problem::MissingConfigType,
            },
        ),
        Config::Staging(staging) => optional_image_url(
            &format!("{field}.remove_furniture.mask_url"),
            staging.remove_furniture.as_ref().and_then(|r| r.mask_url.as_deref()),
        ),
        Config::RemovalOnly(removal) if removal.remove_furniture.mode == crate::RemovalMode::Off => {
            fail(format!("{field}.remove_furniture.mode"), Rule::UnknownValue, Problem::RemovalModeOff)
        }
        Config::RemovalOnly(removal) => optional_image_url(
            &format!("{field}.remove_furniture.mask_url"),
            removal.remove_furniture.mask_url.as_deref(),
        ),
        _ => Ok(()),
    }
}

/// A v1 style: one `/v1/options` lists, or a deprecated one the service still takes and maps (`Style::current`).
fn v1_style(field: &str, style: &crate::Style) -> Result<(), ValidationError> {
    match crate::Style::DEPRECATED.contains(&style.as_str()) {
        true => Ok(()),
        false => one_of(field, style.as_str(), v1::STYLES),
    }
}

fn one_of(field: &str, value: &str, allowed: &[&str]) -> Result<(), ValidationError> {
    if allowed.contains(&value) {
        return Ok(());
    }
    fail(
        field,
        Rule::UnknownValue,
        Problem::NotOneOf { value: value.to_string(), allowed: allowed.iter().map(|a| a.to_string()).collect() },
    )
}

/// A photo (or mask) address for the service: the `image_url` pattern of POST /analyze.
fn image_url(field: &str, value: &str) -> Result<(), ValidationError> {
    if value.trim().is_empty() {
        return fail(field, Rule::Required, Problem::PhotoAddressMissing);
    }
    if !matches_analyze_image_url(value) {
        return fail(field, Rule::Pattern, Problem::PhotoAddressPattern);
    }
    Ok(())
}

fn optional_image_url(field: &str, value: Option<&str>) -> Result<(), ValidationError> {
    value.map_or(Ok(()), |value| image_url(field, value))
}

fn optional_http_url(field: &str, value: Option<&str>) -> Result<(), ValidationError> {
    match value {
        Some(url) if !is_http_url(url) => fail(field, Rule::Pattern, Problem::HttpAddressPattern),
        _ => Ok(()),
    }
}

fn is_http_url(value: &str) -> bool {
    let rest = value.strip_prefix("https://").or_else(|| value.strip_prefix("http://"));
    rest.is_some_and(|rest| !rest.is_empty() && !rest.chars().any(is_js_whitespace))
}

/// The webhook secret: at least one character of `a-z A-Z 0-9 _ -` (service-api.md part 4).
pub fn webhook_secret(secret: &str) -> Result<(), ValidationError> {
    if secret.is_empty() {
        return fail("webhook_secret", Rule::Required, Problem::SecretMissing);
    }
    if !secret.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
        return fail("webhook_secret", Rule::Pattern, Problem::SecretPattern);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every sentence, exactly as vstage wrote it before the problems had names (tests and the server rely on it).
    #[test]
    fn english_sentences_are_unchanged() {
        let cases = [
            (Problem::NoConfiguration, "Add at least one configuration."),
            (
                Problem::BaseVariationNotHere,
                "A base variation can only be given when adding variations to an existing render; remove it here.",
            ),
            (Problem::BulkNoPhotos, "Add at least one photo to the bulk request."),
            (Problem::BulkNoRenders, "Add at least one render to the bulk request."),
            (
                Problem::BulkTooManyPhotos { max: 25, given: 30 },
                "One bulk request takes at most 25 photos (30 given); send the rest in another.",
            ),
            (
                Problem::BulkTooManyRenders { max: 25, given: 26 },
                "One bulk request takes at most 25 renders (26 given); send the rest in another.",
            ),
            (
                Problem::AnalyzePhotoPattern,
                "Give the photo as an http(s) address without spaces, or as a base64 data URL of an image.",
            ),
            (Problem::PhotoMissing, "Give the photo's address or upload the photo."),
            (Problem::PhotoTwice, "Give either a photo address or a file, not both."),
            (Problem::RoomTypeMissing, "Choose a room type for staging."),
            (Problem::StyleMissing, "Choose a furniture style for staging."),
            (
                Problem::UnknownToSandbox { name: "sky_style".into(), value: "aurora".into() },
                "`aurora` is not a value the sandbox knows for sky_style.",
            ),
            (Problem::InvalidId { value: "a/b\n".into() }, "`a/b\\n` is not a valid id; copy the id again."),
            (Problem::VariationCount { max: 20 }, "Ask for between 1 and 20 variations."),
            (
                Problem::TooManyVariations { total: 22, max: 20, left: 5 },
                "This would make up to 22 variations; a render holds at most 20 (5 left). Removing furniture \
                 before staging adds one empty room per staged one. Lower the count.",
            ),
            (Problem::PageLimit { max: 100 }, "Ask for between 1 and 100 items a page."),
            (
                Problem::UnknownConfigType { tag: "sketch".into() },
                "The configuration type `sketch` is not one vstage can send; choose staging, removal, day-to-dusk or \
                 enhancement.",
            ),
            (
                Problem::MissingConfigType,
                "The configuration type `(none)` is not one vstage can send; choose staging, removal, day-to-dusk or \
                 enhancement.",
            ),
            (Problem::RemovalModeOff, "Removing furniture needs mode `on` or `auto`; `off` removes nothing."),
            (
                Problem::NotOneOf { value: "8k".into(), allowed: vec!["4k".into(), "full-hd".into()] },
                "`8k` is not accepted here; choose one of: 4k, full-hd.",
            ),
            (Problem::PhotoAddressMissing, "Give the photo's address."),
            (Problem::PhotoAddressPattern, "Give an http(s) address without spaces, or a base64 data URL of an image."),
            (Problem::HttpAddressPattern, "Give an address starting with http:// or https://, without spaces."),
            (Problem::SecretMissing, "Give a secret of at least one character."),
            (Problem::SecretPattern, "Use only letters, digits, `_` and `-` in the secret."),
            (Problem::Other("Choose the photo first.".into()), "Choose the photo first."),
        ];
        for (problem, sentence) in cases {
            assert_eq!(problem.to_string(), sentence);
            let error = ValidationError::new("field", Rule::Range, problem.clone());
            assert_eq!((error.message.as_str(), error.to_string().as_str()), (sentence, sentence));
            assert_eq!(error.problem, problem);
        }
    }

    #[test]
    fn refusals_name_their_problem() {
        let refused = variation_count("variation_count", 21).unwrap_err();
        assert_eq!(refused.problem, Problem::VariationCount { max: MAX_VARIATIONS_PER_RENDER });
        let refused = within_render_bound("variation_count", 15, 10).unwrap_err();
        assert_eq!(refused.problem, Problem::TooManyVariations { total: 25, max: 20, left: 5 });
        let refused = one_of("resolution", "8k", &["4k", "full-hd"]).unwrap_err();
        assert_eq!(refused.message, "`8k` is not accepted here; choose one of: 4k, full-hd.");
    }

    #[test]
    fn an_analysis_of_no_photo_asks_for_one() {
        let asked = |image_url: &str| Analyze { image_url: image_url.into(), webhook_url: None }.validate();
        assert_eq!(asked(" ").unwrap_err().problem, Problem::PhotoAddressMissing);
        assert_eq!(asked("kitchen.jpg").unwrap_err().problem, Problem::AnalyzePhotoPattern);
        assert!(asked("https://p.example/kitchen.jpg").is_ok());
    }
}
