//! The configuration of a variation: staging, removal only, day-to-dusk, enhancement, `legacy_staging`, or a shape
//! vstage does not know (kept verbatim). Day-to-dusk and enhancement shapes are vstage's choice (docs/api-notes.md).

use serde::de::Error as _;
use serde::ser::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::vocabulary::{OutputResolution, RemovalMode, RoomType, SkyStyle, Style, VariationType};
use crate::{lenient, tagged};

/// The day-to-dusk config's type as it is sent: the spelling of a public client in production (the "Listing Lab"
/// Node module `vsai.js`: `config: { type: 'daytodusk', sky_style }`); service-api.md shows none.
pub const DAY_TO_DUSK: &str = "daytodusk";
/// The spelling docs/api-notes.md chose before that evidence, still read.
const DAY_TO_DUSK_AS_NOTED: &str = "day_to_dusk";

#[derive(Debug, Clone, PartialEq)]
pub enum Config {
    /// `type: staging` with `add_furniture` (and optionally `remove_furniture` first).
    Staging(StagingConfig),
    /// `type: staging` with `remove_furniture` and no `add_furniture`: declutter only.
    RemovalOnly(RemovalOnlyConfig),
    /// `type: daytodusk` (or `day_to_dusk`).
    DayToDusk(DayToDuskConfig),
    /// `type: enhancement`.
    Enhancement(EnhancementConfig),
    /// `type: legacy_staging`, returned for variations made through v1.
    LegacyStaging(LegacyStagingConfig),
    /// Any other shape, kept exactly as received.
    Other(Value),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StagingConfig {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_resolution: Option<OutputResolution>,
    #[serde(default, deserialize_with = "lenient::bool", skip_serializing_if = "Option::is_none")]
    pub add_virtually_staged_watermark: Option<bool>,
    pub add_furniture: AddFurniture,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remove_furniture: Option<RemoveFurniture>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AddFurniture {
    pub style: Style,
    pub room_type: RoomType,
    /// Only when adding variations to an existing render (service-api.md, base variation rule 6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_variation_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RemoveFurniture {
    pub mode: RemovalMode,
    /// A black-and-white mask (white = remove) replacing the automatic one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mask_url: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RemovalOnlyConfig {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_resolution: Option<OutputResolution>,
    #[serde(default, deserialize_with = "lenient::bool", skip_serializing_if = "Option::is_none")]
    pub add_virtually_staged_watermark: Option<bool>,
    pub remove_furniture: RemoveFurniture,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DayToDuskConfig {
    pub sky_style: SkyStyle,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_resolution: Option<OutputResolution>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EnhancementConfig {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_resolution: Option<OutputResolution>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LegacyStagingConfig {
    pub room_type: RoomType,
    pub style: Style,
}

impl Config {
    /// What was done, as a file name says it: the room and style for staging (`living-room-modern`), else the edit
    /// (`empty-room`, `dusk`, `enhanced`, `result`). Lower-case letters, digits and `-` only. The results' ZIPs
    /// and the studio's downloads are named by it.
    pub fn file_label(&self) -> String {
        let staged = |room: &RoomType, style: &Style| {
            let room = match room {
                RoomType::Living => "living-room",
                RoomType::Bed => "bedroom",
                RoomType::Dining => "dining-room",
                other => other.as_str(),
            };
            format!("{room}-{}", style.as_str())
        };
        let label = match self {
            Config::Staging(staging) => staged(&staging.add_furniture.room_type, &staging.add_furniture.style),
            Config::LegacyStaging(legacy) => staged(&legacy.room_type, &legacy.style),
            Config::RemovalOnly(_) => "empty-room".into(),
            Config::DayToDusk(_) => "dusk".into(),
            Config::Enhancement(_) => "enhanced".into(),
            Config::Other(_) => "result".into(),
        };
        let safe: String =
            label.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
        safe.trim_matches('-').to_string()
    }

    /// The `type` tag as written on the wire.
    pub fn type_tag(&self) -> Option<&str> {
        match self {
            Config::Staging(_) | Config::RemovalOnly(_) => Some("staging"),
            Config::DayToDusk(_) => Some(DAY_TO_DUSK),
            Config::Enhancement(_) => Some("enhancement"),
            Config::LegacyStaging(_) => Some("legacy_staging"),
            Config::Other(value) => value.get("type").and_then(Value::as_str),
        }
    }

    /// The type of the variations this config asks for (a staging config may add removal variations too).
    pub fn variation_type(&self) -> Option<VariationType> {
        match self {
            Config::Staging(_) | Config::LegacyStaging(_) => Some(VariationType::Staging),
            Config::RemovalOnly(_) => Some(VariationType::Removal),
            Config::DayToDusk(_) => Some(VariationType::DayToDusk),
            Config::Enhancement(_) => Some(VariationType::Enhancement),
            Config::Other(_) => None,
        }
    }

    /// `remove_furniture.mask_url`, when given, to be written over (a mask given inline, cleared of metadata).
    pub fn mask_url_mut(&mut self) -> Option<&mut String> {
        match self {
            Config::Staging(staging) => staging.remove_furniture.as_mut()?.mask_url.as_mut(),
            Config::RemovalOnly(removal) => removal.remove_furniture.mask_url.as_mut(),
            _ => None,
        }
    }

    /// `add_furniture.base_variation_id`, when given.
    pub fn base_variation_id(&self) -> Option<&str> {
        match self {
            Config::Staging(staging) => staging.add_furniture.base_variation_id.as_deref(),
            _ => None,
        }
    }

    /// How many variations `count` of this config can create at most: a staging config that removes furniture
    /// first (mode `on` or `auto`, no base given) adds one removal variation per staging variation (rule 4).
    pub fn max_variations_for(&self, count: u64) -> u64 {
        match self {
            Config::Staging(staging) if staging.creates_removal_variations() => count.saturating_mul(2),
            _ => count,
        }
    }
}

impl StagingConfig {
    /// Removal variations come with the staging ones: removal on or auto, and no base variation given.
    pub fn creates_removal_variations(&self) -> bool {
        self.add_furniture.base_variation_id.is_none()
            && self.remove_furniture.as_ref().is_some_and(|removal| removal.mode != RemovalMode::Off)
    }
}

impl Serialize for Config {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let tag = self.type_tag().unwrap_or_default();
        let tagged = match self {
            Config::Staging(config) => tagged::with_tag("type", tag, config),
            Config::RemovalOnly(config) => tagged::with_tag("type", tag, config),
            Config::DayToDusk(config) => tagged::with_tag("type", tag, config),
            Config::Enhancement(config) => tagged::with_tag("type", tag, config),
            Config::LegacyStaging(config) => tagged::with_tag("type", tag, config),
            Config::Other(value) => return value.serialize(serializer),
        };
        tagged.map_err(S::Error::custom)?.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Config {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        if !value.is_object() {
            return Err(D::Error::custom("a config must be a JSON object"));
        }
        Ok(Config::from_value(value))
    }
}

impl Config {
    /// Reads a known shape when the `type` and fields match one; anything else is kept as `Other`.
    fn from_value(value: Value) -> Config {
        use tagged::parse;
        let has = |field: &str| value.get(field).is_some_and(|v| !v.is_null());
        let known = match value.get("type").and_then(Value::as_str) {
            Some("staging") if has("add_furniture") => parse(&value).map(Config::Staging),
            Some("staging") if has("remove_furniture") => parse(&value).map(Config::RemovalOnly),
            Some(DAY_TO_DUSK | DAY_TO_DUSK_AS_NOTED) => parse(&value).map(Config::DayToDusk),
            Some("enhancement") => parse(&value).map(Config::Enhancement),
            Some("legacy_staging") => parse(&value).map(Config::LegacyStaging),
            _ => None,
        };
        known.unwrap_or(Config::Other(value))
    }
}

/// A config as a request carries it, read field by field into a known shape with no untyped tree on the way:
/// what a proxy or the sandbox reads from a caller. A field no shape of the contract has is dropped; a `type` this
/// crate does not know, or a shape that lacks what its type needs, is refused.
pub(crate) fn requested<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Config, D::Error> {
    RequestedFields::deserialize(deserializer)?.into_config().map_err(D::Error::custom)
}

/// Every field of every config shape a request may send (and a multi-config entry's `variation_count`).
#[derive(Deserialize)]
pub(crate) struct RequestedFields {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    output_resolution: Option<OutputResolution>,
    #[serde(default, deserialize_with = "lenient::bool")]
    add_virtually_staged_watermark: Option<bool>,
    #[serde(default)]
    add_furniture: Option<AddFurniture>,
    #[serde(default)]
    remove_furniture: Option<RemoveFurniture>,
    #[serde(default)]
    sky_style: Option<SkyStyle>,
    #[serde(default)]
    room_type: Option<RoomType>,
    #[serde(default)]
    style: Option<Style>,
    /// Only in an entry of `configs`.
    #[serde(default)]
    pub(crate) variation_count: Option<u64>,
}

impl RequestedFields {
    pub(crate) fn into_config(self) -> Result<Config, String> {
        let RequestedFields { kind, output_resolution, add_virtually_staged_watermark, .. } = self;
        let config = match kind.as_deref() {
            Some("staging") => match (self.add_furniture, self.remove_furniture) {
                (Some(add_furniture), remove_furniture) => Config::Staging(StagingConfig {
                    output_resolution,
                    add_virtually_staged_watermark,
                    add_furniture,
                    remove_furniture,
                }),
                (None, Some(remove_furniture)) => Config::RemovalOnly(RemovalOnlyConfig {
                    output_resolution,
                    add_virtually_staged_watermark,
                    remove_furniture,
                }),
                (None, None) => return Err("a staging config needs add_furniture, remove_furniture or both".into()),
            },
            Some(DAY_TO_DUSK | DAY_TO_DUSK_AS_NOTED) => {
                let sky_style = self.sky_style.ok_or("a daytodusk config needs its sky_style")?;
                Config::DayToDusk(DayToDuskConfig { sky_style, output_resolution })
            }
            Some("enhancement") => Config::Enhancement(EnhancementConfig { output_resolution }),
            Some("legacy_staging") => match (self.room_type, self.style) {
                (Some(room_type), Some(style)) => Config::LegacyStaging(LegacyStagingConfig { room_type, style }),
                _ => return Err("a legacy_staging config needs room_type and style".into()),
            },
            Some(other) => {
                let shown: String = other.chars().take(40).collect();
                return Err(format!(
                    "the config type \"{shown}\" is not one of the contract's; use staging, daytodusk or enhancement"
                ));
            }
            None => return Err("a config needs its type: staging, daytodusk or enhancement".into()),
        };
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(value: Value) -> Config {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn a_file_label_names_the_room_and_style_or_the_edit() {
        let staged = |room: &str, style: &str| {
            read(json!({"type": "staging", "add_furniture": {"style": style, "room_type": room}})).file_label()
        };
        assert_eq!(staged("living", "modern"), "living-room-modern");
        assert_eq!(staged("home_office", "mid_century"), "home-office-mid-century");
        assert_eq!(staged("Attic/../x", "modern"), "attic----x-modern", "an unknown room, file-safe");
        assert_eq!(read(json!({"type": "daytodusk", "sky_style": "pink"})).file_label(), "dusk");
        assert_eq!(read(json!({"type": "staging", "remove_furniture": {"mode": "on"}})).file_label(), "empty-room");
        assert_eq!(read(json!({"type": "sky_swap"})).file_label(), "result");
    }

    #[test]
    fn staging_with_removal_reads_and_writes_the_contract_shape() {
        let wire = json!({
            "type": "staging",
            "output_resolution": "default",
            "add_virtually_staged_watermark": true,
            "add_furniture": {"style": "modern", "room_type": "living"},
            "remove_furniture": {"mode": "auto"}
        });
        let config = read(wire.clone());
        let Config::Staging(staging) = &config else { panic!("{config:?}") };
        assert!(staging.creates_removal_variations());
        assert_eq!(config.max_variations_for(3), 6);
        assert_eq!(serde_json::to_value(&config).unwrap(), wire);
    }

    #[test]
    fn staging_without_add_furniture_is_removal_only() {
        let config =
            read(json!({"type": "staging", "remove_furniture": {"mode": "on", "mask_url": "https://x/m.png"}}));
        assert!(matches!(&config, Config::RemovalOnly(r) if r.remove_furniture.mask_url.is_some()));
        assert_eq!(config.variation_type(), Some(VariationType::Removal));
        assert_eq!(serde_json::to_value(&config).unwrap()["type"], "staging");
    }

    #[test]
    fn legacy_day_to_dusk_and_enhancement_are_read() {
        assert!(matches!(
            read(json!({"type": "legacy_staging", "room_type": "bed", "style": "coastal"})),
            Config::LegacyStaging(LegacyStagingConfig { room_type: RoomType::Bed, style: Style::Coastal })
        ));
        for spelling in ["daytodusk", "day_to_dusk"] {
            let config = read(json!({"type": spelling, "sky_style": "golden"}));
            assert!(matches!(&config, Config::DayToDusk(DayToDuskConfig { sky_style: SkyStyle::Golden, .. })));
            assert_eq!(serde_json::to_value(&config).unwrap()["type"], "daytodusk");
        }
        assert!(matches!(read(json!({"type": "enhancement"})), Config::Enhancement(_)));
    }

    #[test]
    fn unknown_and_malformed_shapes_are_kept_verbatim() {
        for wire in [
            json!({"type": "virtual_renovation", "floor": "oak"}),
            json!({"type": "staging", "add_furniture": "not an object"}),
            json!({"no_type": true}),
        ] {
            let config = read(wire.clone());
            assert!(matches!(config, Config::Other(_)), "{wire}");
            assert_eq!(serde_json::to_value(&config).unwrap(), wire);
        }
        assert!(serde_json::from_value::<Config>(json!("staging")).is_err());
    }

    /// superdevvs/Repro_Backend, app/Services/Studio/VirtualStagingOptions.php: `output_resolution` 1536, a number.
    #[test]
    fn a_numeric_output_resolution_keeps_the_config_known() {
        let wire = json!({
            "type": "staging", "output_resolution": 1536,
            "add_furniture": {"style": "modern", "room_type": "living"}
        });
        let config = read(wire.clone());
        let Config::Staging(staging) = &config else { panic!("{config:?}") };
        assert_eq!(staging.output_resolution, Some(OutputResolution::Pixels(1536)));
        assert_eq!(serde_json::to_value(&config).unwrap(), wire);
    }

    #[test]
    fn the_watermark_flag_is_read_liberally() {
        for (flag, expected) in [(json!("true"), Some(true)), (json!(0), Some(false)), (Value::Null, None)] {
            let config = read(json!({
                "type": "staging", "add_virtually_staged_watermark": flag,
                "add_furniture": {"style": "modern", "room_type": "living"}
            }));
            let Config::Staging(staging) = config else { panic!() };
            assert_eq!(staging.add_virtually_staged_watermark, expected);
        }
    }
}
