//! How the studio words things for people, in their language: relative times, configurations, statuses, counts
//! and photos' names.
//! Plain functions of their inputs (the locale and the clock are passed in), so they are tested apart from any view.

use leptos_i18n::td_string;
use vstage_api::{
    Config, OutputResolution, RemovalMode, RoomType, SkyStyle, Style, Variation, VariationStatus, VariationType,
};

use crate::locale::{Locale, format};
use crate::plural;

/// How long ago `then` was at `now` (both epoch ms), rounded down to the largest unit: `(0, "second")` under 45 s
/// (said "now"), then minutes, hours, days and months, as `Intl.RelativeTimeFormat` names them.
pub fn elapsed(now_ms: i64, then_ms: i64) -> (i64, &'static str) {
    let seconds = (now_ms - then_ms).max(0) / 1000;
    match seconds {
        0..=44 => (0, "second"),
        45..=3599 => ((seconds / 60).max(1), "minute"),
        3600..=86_399 => (seconds / 3600, "hour"),
        86_400..=2_591_999 => (seconds / 86_400, "day"),
        _ => (seconds / 2_592_000, "month"),
    }
}

/// "now", "5 minutes ago", "vor 3 Stunden" for `then` seen at `now` (both epoch ms).
pub fn relative_time(locale: Locale, now_ms: i64, then_ms: i64) -> String {
    let (value, unit) = elapsed(now_ms, then_ms);
    format::relative(locale, -value, unit)
}

pub fn room_type(locale: Locale, room: &RoomType) -> String {
    let words = match room {
        RoomType::Living => td_string!(locale, contract.room_living),
        RoomType::Bed => td_string!(locale, contract.room_bed),
        RoomType::Kitchen => td_string!(locale, contract.room_kitchen),
        RoomType::Dining => td_string!(locale, contract.room_dining),
        RoomType::HomeOffice => td_string!(locale, contract.room_home_office),
        RoomType::Outdoor => td_string!(locale, contract.room_outdoor),
        RoomType::KidsRoom => td_string!(locale, contract.room_kids_room),
        RoomType::Bathroom => td_string!(locale, contract.room_bathroom),
        RoomType::Other(other) => other,
    };
    words.to_string()
}

pub fn style(locale: Locale, style: &Style) -> String {
    let words = match style {
        Style::Standard => td_string!(locale, contract.style_standard),
        Style::Modern => td_string!(locale, contract.style_modern),
        Style::Scandinavian => td_string!(locale, contract.style_scandinavian),
        Style::Industrial => td_string!(locale, contract.style_industrial),
        Style::Midcentury | Style::MidCenturyModern => td_string!(locale, contract.style_midcentury),
        Style::Luxury => td_string!(locale, contract.style_luxury),
        Style::Farmhouse => td_string!(locale, contract.style_farmhouse),
        Style::Coastal => td_string!(locale, contract.style_coastal),
        Style::American => td_string!(locale, contract.style_american),
        Style::Southwestern => td_string!(locale, contract.style_southwestern),
        Style::Hamptons => td_string!(locale, contract.style_hamptons),
        Style::Other(other) => other,
    };
    words.to_string()
}

pub fn sky_style(locale: Locale, sky: &SkyStyle) -> String {
    let words = match sky {
        SkyStyle::Dusk => td_string!(locale, contract.sky_dusk),
        SkyStyle::Golden => td_string!(locale, contract.sky_golden),
        SkyStyle::Blue => td_string!(locale, contract.sky_blue),
        SkyStyle::Other(other) => other,
    };
    words.to_string()
}

/// What each sky style looks like, for the form.
pub fn sky_style_explained(locale: Locale, sky: &SkyStyle) -> &'static str {
    match sky {
        SkyStyle::Dusk => td_string!(locale, contract.sky_dusk_explained),
        SkyStyle::Golden => td_string!(locale, contract.sky_golden_explained),
        SkyStyle::Blue => td_string!(locale, contract.sky_blue_explained),
        SkyStyle::Other(_) => td_string!(locale, contract.sky_other_explained),
    }
}

pub fn resolution(locale: Locale, resolution: &OutputResolution) -> String {
    let words = match resolution {
        OutputResolution::Default => td_string!(locale, contract.resolution_default),
        OutputResolution::FourK => td_string!(locale, contract.resolution_4k),
        OutputResolution::FullHd => td_string!(locale, contract.resolution_full_hd),
        OutputResolution::Pixels(pixels) => return format!("{pixels} px"),
        OutputResolution::Other(other) => other,
    };
    words.to_string()
}

pub fn removal_mode(locale: Locale, mode: &RemovalMode) -> String {
    let words = match mode {
        RemovalMode::Off => td_string!(locale, contract.removal_off),
        RemovalMode::Auto => td_string!(locale, contract.removal_auto),
        RemovalMode::On => td_string!(locale, contract.removal_on),
        RemovalMode::Other(other) => other,
    };
    words.to_string()
}

pub fn variation_type(locale: Locale, kind: Option<&VariationType>) -> String {
    let words = match kind {
        Some(VariationType::Staging) => td_string!(locale, contract.kind_staging),
        Some(VariationType::Removal) => td_string!(locale, contract.kind_removal),
        Some(VariationType::DayToDusk) => td_string!(locale, contract.kind_day_to_dusk),
        Some(VariationType::Enhancement) => td_string!(locale, contract.kind_enhancement),
        Some(VariationType::Other(other)) => other,
        None => td_string!(locale, contract.kind_unknown),
    };
    words.to_string()
}

/// What a result is called on its card, its slider and its line: the room and style a staging furnished
/// ("Living room · Modern"), the sky of a day to dusk, else what was done ("Empty room", "Enhancement").
pub fn result_name(locale: Locale, variation: &Variation) -> String {
    match (&variation.kind, &variation.config) {
        (Some(VariationType::Staging), Some(Config::Staging(staging))) => {
            let room = room_type(locale, &staging.add_furniture.room_type);
            let style = style(locale, &staging.add_furniture.style);
            td_string!(locale, contract.config_staging, room = room, style = style).to_string()
        }
        (Some(VariationType::DayToDusk), Some(Config::DayToDusk(dusk))) => {
            td_string!(locale, contract.config_day_to_dusk, sky = sky_style(locale, &dusk.sky_style)).to_string()
        }
        (kind, _) => variation_type(locale, kind.as_ref()),
    }
}

/// A render's name in the list: its results' names, the first two that differ ("Bedroom · Modern + Empty room",
/// "…" when there are more); none before a variation is known.
pub fn render_name(locale: Locale, variations: &[Variation]) -> Option<String> {
    let mut names: Vec<String> = Vec::new();
    for variation in variations {
        let name = result_name(locale, variation);
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let more = names.len() > 2;
    names.truncate(2);
    let joined = names.join(" + ");
    (!joined.is_empty()).then(|| if more { format!("{joined} + …") } else { joined })
}

pub fn status(locale: Locale, status: &VariationStatus) -> String {
    let words = match status {
        VariationStatus::Queued => td_string!(locale, contract.status_queued),
        VariationStatus::Rendering | VariationStatus::Processing => td_string!(locale, contract.status_processing),
        VariationStatus::Idle => td_string!(locale, contract.status_idle),
        VariationStatus::Done => td_string!(locale, contract.status_done),
        VariationStatus::Error => td_string!(locale, contract.status_failed),
        VariationStatus::Deleted => td_string!(locale, contract.status_deleted),
        VariationStatus::Other(other) => return td_string!(locale, contract.status_other, status = other).to_string(),
    };
    words.to_string()
}

/// One line about a configuration, e.g. "Living room · Modern, furniture removed first".
pub fn config(locale: Locale, config: &Config) -> String {
    let custom_mask = td_string!(locale, contract.config_custom_mask);
    match config {
        Config::Staging(staging) => {
            let room = room_type(locale, &staging.add_furniture.room_type);
            let style = style(locale, &staging.add_furniture.style);
            let mut text = td_string!(locale, contract.config_staging, room = room, style = style).to_string();
            if let Some(removal) = &staging.remove_furniture {
                match removal.mode {
                    RemovalMode::On => text.push_str(td_string!(locale, contract.config_removed_first)),
                    RemovalMode::Auto => text.push_str(td_string!(locale, contract.config_removed_if_found)),
                    _ => {}
                }
                if removal.mask_url.is_some() {
                    text.push_str(custom_mask);
                }
            }
            if staging.add_virtually_staged_watermark == Some(true) {
                text.push_str(td_string!(locale, contract.config_watermark));
            }
            text
        }
        Config::RemovalOnly(removal) => {
            let mut text = td_string!(locale, contract.config_declutter_only).to_string();
            if removal.remove_furniture.mask_url.is_some() {
                text.push_str(custom_mask);
            }
            text
        }
        Config::DayToDusk(dusk) => {
            td_string!(locale, contract.config_day_to_dusk, sky = sky_style(locale, &dusk.sky_style)).to_string()
        }
        Config::Enhancement(_) => td_string!(locale, contract.config_enhancement).to_string(),
        Config::LegacyStaging(legacy) => {
            let (room, style) = (room_type(locale, &legacy.room_type), style(locale, &legacy.style));
            td_string!(locale, contract.config_legacy, room = room, style = style).to_string()
        }
        Config::Other(value) => {
            let kind = value.get("type").and_then(|t| t.as_str()).unwrap_or("?").to_string();
            let other = td_string!(locale, contract.config_other, kind = kind).to_string();
            std::iter::once(other).chain(named_in(locale, value)).collect::<Vec<_>>().join(" · ")
        }
    }
}

/// The room, style and sky a config of a shape vstage does not know still names, in words: where staging puts
/// them (`add_furniture`), at the top (as `legacy_staging` does), and `sky_style`.
fn named_in(locale: Locale, value: &serde_json::Value) -> Vec<String> {
    let text = |pointer: &str| value.pointer(pointer).and_then(|found| found.as_str());
    let room = text("/add_furniture/room_type").or(text("/room_type")).map(|room| room_type(locale, &room.into()));
    let chosen = text("/add_furniture/style").or(text("/style")).map(|chosen| style(locale, &chosen.into()));
    let sky = text("/sky_style").map(|sky| sky_style(locale, &sky.into()));
    [room, chosen, sky].into_iter().flatten().collect()
}

/// "3 done · 1 processing · 1 failed" for a render's variations, in order of first appearance.
pub fn status_counts(locale: Locale, variations: &[Variation]) -> String {
    let mut counts: Vec<(&VariationStatus, usize)> = Vec::new();
    for variation in variations {
        // the sandbox's earlier word for rendering is counted with it
        let status = match &variation.status {
            VariationStatus::Processing => &VariationStatus::Rendering,
            status => status,
        };
        match counts.iter_mut().find(|(counted, _)| *counted == status) {
            Some((_, count)) => *count += 1,
            None => counts.push((status, 1)),
        }
    }
    if counts.is_empty() {
        return td_string!(locale, contract.no_variations_yet).to_string();
    }
    let counted = |(status, count): &(&VariationStatus, usize)| match status {
        VariationStatus::Queued => {
            plural!(locale, *count, contract.counted_queued_singular, contract.counted_queued_plural, count = count)
        }
        VariationStatus::Rendering | VariationStatus::Processing => plural!(
            locale,
            *count,
            contract.counted_processing_singular,
            contract.counted_processing_plural,
            count = count
        ),
        VariationStatus::Idle => {
            plural!(locale, *count, contract.counted_idle_singular, contract.counted_idle_plural, count = count)
        }
        VariationStatus::Deleted => {
            plural!(locale, *count, contract.counted_deleted_singular, contract.counted_deleted_plural, count = count)
        }
        VariationStatus::Done => {
            plural!(locale, *count, contract.counted_done_singular, contract.counted_done_plural, count = count)
        }
        VariationStatus::Error => {
            plural!(locale, *count, contract.counted_failed_singular, contract.counted_failed_plural, count = count)
        }
        VariationStatus::Other(other) => {
            td_string!(locale, contract.counted_other, count = count, status = other).to_string()
        }
    };
    counts.iter().map(counted).collect::<Vec<_>>().join(" · ")
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

/// A photo's name from its address's last part (`Living%20Room.jpg` → `Living Room.jpg`); the address when it has
/// no name.
pub fn photo_name(address: &str) -> String {
    let path = address.split(['?', '#']).next().unwrap_or_default();
    let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or_default();
    let decoded =
        percent_encoding::percent_decode_str(last).decode_utf8().map_or_else(|_| last.to_string(), String::from);
    if decoded.is_empty() || address.starts_with("data:") { address.chars().take(60).collect() } else { decoded }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test(unsupported = test)]
    fn a_photo_is_named_by_its_address_last_part() {
        assert_eq!(photo_name("https://p.example/photos/Living%20Room.jpg?v=1"), "Living Room.jpg");
        assert_eq!(photo_name("https://p.example/"), "p.example");
        assert_eq!(photo_name("https://p.example/bad%ZZname.jpg"), "bad%ZZname.jpg");
    }

    fn variation(status: &str, created_at: i64, thumbnail: Option<&str>) -> Variation {
        let result = thumbnail.map(|url| json!({"url": format!("{url}-full"), "thumbnail_url": url}));
        serde_json::from_value(json!({
            "id": "var_1", "render_id": "rnd_1", "created_at": created_at, "status": status, "type": "staging",
            "result": result,
        }))
        .unwrap()
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn time_is_rounded_down_to_the_largest_unit() {
        let now = 10_000_000_000;
        let ago = |seconds: i64| elapsed(now, now - seconds * 1000);
        assert_eq!(ago(0), (0, "second"));
        assert_eq!(ago(44), (0, "second"));
        assert_eq!(ago(45), (1, "minute"));
        assert_eq!(ago(150), (2, "minute"));
        assert_eq!(ago(3600), (1, "hour"));
        assert_eq!(ago(86_400 * 2), (2, "day"));
        assert_eq!(ago(86_400 * 65), (2, "month"));
        assert_eq!(elapsed(now, now + 60_000), (0, "second"), "a clock ahead of ours is not the future");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn configurations_read_as_one_line() {
        let staging: Config = serde_json::from_value(json!({
            "type": "staging",
            "add_furniture": {"room_type": "living", "style": "modern"},
            "remove_furniture": {"mode": "auto", "mask_url": "https://img.example/m.png"},
            "add_virtually_staged_watermark": true,
        }))
        .unwrap();
        assert_eq!(
            config(Locale::en, &staging),
            "Living room · Modern, furniture removed if found (custom mask), with the “Virtually staged” mark"
        );
        assert_eq!(
            config(Locale::de, &staging),
            "Wohnzimmer · Modern, Möbel entfernt, falls vorhanden (eigene Maske), mit dem Hinweis „Virtuell eingerichtet“"
        );
        let unknown: Config = serde_json::from_value(json!({"type": "sky_swap", "sky": "pink"})).unwrap();
        assert_eq!(config(Locale::en, &unknown), "Other configuration (sky_swap)");
        let enhancement: Config = serde_json::from_value(json!({"type": "enhancement"})).unwrap();
        assert_eq!(config(Locale::fr, &enhancement), "Amélioration\u{a0}: couleur, contraste et netteté");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_contract_s_words_are_shown_translated_and_unknown_ones_as_sent() {
        assert_eq!(room_type(Locale::es, &RoomType::KidsRoom), "Habitación infantil");
        assert_eq!(style(Locale::de, &Style::Scandinavian), "Skandinavisch");
        assert_eq!(sky_style(Locale::fr, &SkyStyle::Golden), "Heure dorée");
        assert_eq!(room_type(Locale::de, &RoomType::Other("attic".into())), "attic");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn statuses_are_counted_in_order_of_appearance() {
        assert_eq!(status_counts(Locale::en, &[]), "no variations yet");
        let variations = [
            variation("done", 1, None),
            variation("processing", 2, None),
            variation("done", 3, None),
            variation("error", 4, None),
        ];
        assert_eq!(status_counts(Locale::en, &variations), "2 done · 1 processing · 1 failed");
        assert_eq!(status_counts(Locale::es, &variations), "2 terminadas · 1 en proceso · 1 fallida");
        // a status the service adds later is shown as it comes
        assert_eq!(status_counts(Locale::en, &[variation("paused", 1, None)]), "1 paused");
    }

    #[wasm_bindgen_test(unsupported = test)]
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

    #[wasm_bindgen_test(unsupported = test)]
    fn a_render_is_named_by_its_results() {
        let of = |kind: &str, config: serde_json::Value| -> Variation {
            serde_json::from_value(json!({
                "id": "v", "render_id": "r", "created_at": 1, "status": "done", "type": kind, "config": config,
            }))
            .unwrap()
        };
        let staged = json!({"type": "staging", "add_furniture": {"room_type": "bed", "style": "modern"},
            "remove_furniture": {"mode": "on"}});
        let dusk = of("day_to_dusk", json!({"type": "day_to_dusk", "sky_style": "golden"}));
        assert_eq!(
            render_name(Locale::en, &[of("staging", staged.clone()), of("removal", staged.clone())]).as_deref(),
            Some("Bedroom · Modern + Empty room")
        );
        assert_eq!(
            render_name(Locale::en, &[of("removal", staged.clone()), dusk.clone(), of("staging", staged)]).as_deref(),
            Some("Empty room + Day to dusk: Golden + …")
        );
        assert_eq!(render_name(Locale::de, &[dusk.clone(), dusk]).as_deref(), Some("Tag zu Dämmerung: Goldene Stunde"));
        assert_eq!(render_name(Locale::en, &[]), None, "the variations' count names it then");
    }
}
