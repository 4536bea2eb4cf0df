//! How the studio words things for people: relative times, configurations, statuses and counts.
//! Plain functions of their inputs (the clock is passed in), so they are tested apart from any view.

use vstage_api::{
    Config, OutputResolution, RemovalMode, RoomType, SkyStyle, Style, Variation, VariationStatus, VariationType,
};

/// "just now", "5 minutes ago", "3 hours ago", "2 days ago" for `then` seen at `now` (both epoch ms).
pub fn relative_time(now_ms: i64, then_ms: i64) -> String {
    let seconds = (now_ms - then_ms).max(0) / 1000;
    let plural = |n: i64, unit: &str| format!("{n} {unit}{} ago", if n == 1 { "" } else { "s" });
    match seconds {
        0..=44 => "just now".into(),
        45..=3599 => plural((seconds / 60).max(1), "minute"),
        3600..=86_399 => plural(seconds / 3600, "hour"),
        86_400..=2_591_999 => plural(seconds / 86_400, "day"),
        _ => plural(seconds / 2_592_000, "month"),
    }
}

pub fn room_type(room: &RoomType) -> String {
    match room {
        RoomType::Living => "Living room".into(),
        RoomType::Bed => "Bedroom".into(),
        RoomType::Kitchen => "Kitchen".into(),
        RoomType::Dining => "Dining room".into(),
        RoomType::HomeOffice => "Home office".into(),
        RoomType::Outdoor => "Outdoor".into(),
        RoomType::KidsRoom => "Kids' room".into(),
        RoomType::Bathroom => "Bathroom".into(),
        RoomType::Other(other) => other.clone(),
    }
}

pub fn style(style: &Style) -> String {
    match style {
        Style::Standard => "Standard".into(),
        Style::Modern => "Modern".into(),
        Style::Scandinavian => "Scandinavian".into(),
        Style::Industrial => "Industrial".into(),
        Style::Midcentury | Style::MidCenturyModern => "Mid-century".into(),
        Style::Luxury => "Luxury".into(),
        Style::Farmhouse => "Farmhouse".into(),
        Style::Coastal => "Coastal".into(),
        Style::American => "American".into(),
        Style::Southwestern => "Southwestern".into(),
        Style::Other(other) => other.clone(),
    }
}

pub fn sky_style(sky: &SkyStyle) -> String {
    match sky {
        SkyStyle::Dusk => "Dusk".into(),
        SkyStyle::Golden => "Golden".into(),
        SkyStyle::Blue => "Blue sky".into(),
        SkyStyle::Other(other) => other.clone(),
    }
}

/// What each sky style looks like, for the form.
pub fn sky_style_explained(sky: &SkyStyle) -> &'static str {
    match sky {
        SkyStyle::Dusk => "Deep twilight: a violet sky, lit windows and warm lamps.",
        SkyStyle::Golden => "Sunset: a warm orange sky and a soft golden light on the house.",
        SkyStyle::Blue => "Blue hour: a clear deep-blue evening sky, just after sunset.",
        SkyStyle::Other(_) => "A sky style of the service.",
    }
}

pub fn resolution(resolution: &OutputResolution) -> String {
    match resolution {
        OutputResolution::Default => "Same as the photo".into(),
        OutputResolution::FourK => "4K (3840 px)".into(),
        OutputResolution::FullHd => "Full HD (1920 px)".into(),
        OutputResolution::Other(other) => other.clone(),
    }
}

pub fn removal_mode(mode: &RemovalMode) -> String {
    match mode {
        RemovalMode::Off => "Keep the furniture".into(),
        RemovalMode::Auto => "Remove furniture if there is any".into(),
        RemovalMode::On => "Always remove furniture first".into(),
        RemovalMode::Other(other) => other.clone(),
    }
}

pub fn variation_type(kind: Option<&VariationType>) -> String {
    match kind {
        Some(VariationType::Staging) => "Virtual staging".into(),
        Some(VariationType::Removal) => "Furniture removal".into(),
        Some(VariationType::DayToDusk) => "Day to dusk".into(),
        Some(VariationType::Enhancement) => "Enhancement".into(),
        Some(VariationType::Other(other)) => other.clone(),
        None => "Variation".into(),
    }
}

pub fn status(status: &VariationStatus) -> String {
    match status {
        VariationStatus::Queued => "Queued".into(),
        VariationStatus::Processing => "Processing".into(),
        VariationStatus::Done => "Done".into(),
        VariationStatus::Error => "Failed".into(),
        VariationStatus::Other(other) => other.clone(),
    }
}

/// One line about a configuration, e.g. "Modern living room, furniture removed first".
pub fn config(config: &Config) -> String {
    match config {
        Config::Staging(staging) => {
            let mut text = format!(
                "{} {}",
                style(&staging.add_furniture.style),
                room_type(&staging.add_furniture.room_type).to_lowercase()
            );
            if let Some(removal) = &staging.remove_furniture {
                match removal.mode {
                    RemovalMode::On => text.push_str(", furniture removed first"),
                    RemovalMode::Auto => text.push_str(", furniture removed if found"),
                    _ => {}
                }
                if removal.mask_url.is_some() {
                    text.push_str(" (custom mask)");
                }
            }
            if staging.add_virtually_staged_watermark == Some(true) {
                text.push_str(", with the “Virtually staged” mark");
            }
            text
        }
        Config::RemovalOnly(removal) => {
            let mut text = String::from("Declutter only");
            if removal.remove_furniture.mask_url.is_some() {
                text.push_str(" (custom mask)");
            }
            text
        }
        Config::DayToDusk(dusk) => format!("Day to dusk: {}", sky_style(&dusk.sky_style)),
        Config::Enhancement(_) => "Enhancement: colour, contrast and sharpness".into(),
        Config::LegacyStaging(legacy) => format!("{} {} (v1)", style(&legacy.style), room_type(&legacy.room_type)),
        Config::Other(value) => {
            format!("Other configuration ({})", value.get("type").and_then(|t| t.as_str()).unwrap_or("unknown"))
        }
    }
}

/// "3 done · 1 processing · 1 failed" for a render's variations.
pub fn status_counts(variations: &[Variation]) -> String {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for variation in variations {
        let label = status(&variation.status).to_lowercase();
        match counts.iter_mut().find(|(name, _)| *name == label) {
            Some((_, count)) => *count += 1,
            None => counts.push((label, 1)),
        }
    }
    if counts.is_empty() {
        return "no variations yet".into();
    }
    counts.iter().map(|(label, count)| format!("{count} {label}")).collect::<Vec<_>>().join(" · ")
}

/// The newest finished variation's thumbnail, for a render's card.
pub fn newest_thumbnail(variations: &[Variation]) -> Option<String> {
    variations
        .iter()
        .filter(|variation| variation.status == VariationStatus::Done)
        .filter_map(|variation| {
            let image = variation.result.as_ref()?.primary()?;
            Some((variation.created_at.millis(), image.thumbnail().to_string()))
        })
        .max_by_key(|(created, _)| *created)
        .map(|(_, url)| url)
}

/// Milliseconds since the epoch, from the browser's clock.
pub fn now_ms() -> i64 {
    js_sys::Date::now() as i64
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn variation(status: &str, created_at: i64, thumbnail: Option<&str>) -> Variation {
        let result = thumbnail.map(|url| json!({"url": format!("{url}-full"), "thumbnail_url": url}));
        serde_json::from_value(json!({
            "id": "var_1", "render_id": "rnd_1", "created_at": created_at, "status": status, "type": "staging",
            "result": result,
        }))
        .unwrap()
    }

    #[test]
    fn relative_times_round_down_to_the_largest_unit() {
        let now = 10_000_000_000;
        let ago = |seconds: i64| relative_time(now, now - seconds * 1000);
        assert_eq!(ago(0), "just now");
        assert_eq!(ago(44), "just now");
        assert_eq!(ago(45), "1 minute ago");
        assert_eq!(ago(150), "2 minutes ago");
        assert_eq!(ago(3600), "1 hour ago");
        assert_eq!(ago(86_400 * 2), "2 days ago");
        assert_eq!(ago(86_400 * 65), "2 months ago");
        assert_eq!(relative_time(now, now + 60_000), "just now", "a clock ahead of ours is not the future");
    }

    #[test]
    fn configurations_read_as_one_line() {
        let staging: Config = serde_json::from_value(json!({
            "type": "staging",
            "add_furniture": {"room_type": "living", "style": "modern"},
            "remove_furniture": {"mode": "auto", "mask_url": "https://img.example/m.png"},
            "add_virtually_staged_watermark": true,
        }))
        .unwrap();
        assert_eq!(
            config(&staging),
            "Modern living room, furniture removed if found (custom mask), with the “Virtually staged” mark"
        );
        let unknown: Config = serde_json::from_value(json!({"type": "sky_swap", "sky": "pink"})).unwrap();
        assert_eq!(config(&unknown), "Other configuration (sky_swap)");
        let enhancement: Config = serde_json::from_value(json!({"type": "enhancement"})).unwrap();
        assert_eq!(config(&enhancement), "Enhancement: colour, contrast and sharpness");
    }

    #[test]
    fn statuses_are_counted_in_order_of_appearance() {
        assert_eq!(status_counts(&[]), "no variations yet");
        let variations = [
            variation("done", 1, None),
            variation("processing", 2, None),
            variation("done", 3, None),
            variation("error", 4, None),
        ];
        assert_eq!(status_counts(&variations), "2 done · 1 processing · 1 failed");
        // a status the service adds later is shown as it comes
        assert_eq!(status_counts(&[variation("paused", 1, None)]), "1 paused");
    }

    #[test]
    fn a_card_shows_the_newest_finished_thumbnail() {
        let variations = [
            variation("done", 1, Some("old")),
            variation("done", 3, Some("new")),
            variation("processing", 9, None),
            variation("done", 2, Some("middle")),
        ];
        assert_eq!(newest_thumbnail(&variations).as_deref(), Some("new"));
        assert_eq!(newest_thumbnail(&[variation("queued", 1, None)]), None);
    }
}
