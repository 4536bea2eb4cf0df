//! The contract's named values: statuses, types, room types, styles, modes, sky styles, resolutions.
//! All are open (unknown values kept) because service-api.md never shows their full lists; see docs/api-notes.md.

use serde::{Deserialize, Serialize};

use crate::open_enum;

open_enum! {
    /// A v2 variation's status. service-api.md shows `queued` and `done`; public clients of the real service wait
    /// while it is `queued`, `rendering` or `idle` and stop on `done`, `error` or `deleted` (docs/api-notes.md,
    /// "Variation statuses"). `processing` is what vstage's sandbox said before it followed them.
    pub enum VariationStatus {
        Queued = "queued",
        Rendering = "rendering",
        Idle = "idle",
        Processing = "processing",
        Done = "done",
        Error = "error",
        Deleted = "deleted",
    }
}

impl VariationStatus {
    /// Work on it is still to come: one of the statuses the service is known to wait in.
    pub fn is_in_progress(&self) -> bool {
        matches!(self, Self::Queued | Self::Rendering | Self::Idle | Self::Processing)
    }

    /// No further change is to be waited for: done, failed, deleted, or a status vstage does not know (shown by
    /// its word; waiting on a word no client knows would never end).
    pub fn is_final(&self) -> bool {
        !self.is_in_progress()
    }
}

open_enum! {
    /// What a variation is. service-api.md names `staging` and `removal`; vstage adds day-to-dusk and `enhancement`.
    pub enum VariationType {
        Staging = "staging",
        Removal = "removal",
        /// Spelled as the config's type (docs/api-notes.md, "Config shapes"); `day_to_dusk` read too.
        DayToDusk = "daytodusk" | "day_to_dusk",
        Enhancement = "enhancement",
    }
}

open_enum! {
    /// Room types, exactly as v1 spells them (service-api.md part 2), with `bathroom` from the public docs.
    pub enum RoomType {
        Living = "living",
        Bed = "bed",
        Kitchen = "kitchen",
        Dining = "dining",
        HomeOffice = "home_office",
        Outdoor = "outdoor",
        KidsRoom = "kids_room",
        Bathroom = "bathroom",
    }
}

open_enum! {
    /// Furniture styles: the union of v1's create list and create-variation list (service-api.md part 2).
    pub enum Style {
        Standard = "standard",
        Modern = "modern",
        Scandinavian = "scandinavian",
        Industrial = "industrial",
        Midcentury = "midcentury",
        MidCenturyModern = "mid-century modern",
        Luxury = "luxury",
        Farmhouse = "farmhouse",
        Coastal = "coastal",
        /// Deprecated: the service maps it to a current style (`Style::current`).
        American = "american",
        /// Deprecated: the service maps it to a current style (`Style::current`).
        Southwestern = "southwestern",
        /// Deprecated: the service maps it to a current style (`Style::current`).
        Hamptons = "hamptons",
    }
}

impl Style {
    /// The deprecated styles the service still takes (its docs: "hamptons", "american" and "southwestern" are
    /// mapped to current ones); a request naming one is answered as for the style it maps to.
    pub const DEPRECATED: &'static [&'static str] = &["hamptons", "american", "southwestern"];

    /// The style a render is made in: a deprecated style's current counterpart (which one is vstage's reading,
    /// docs/api-notes.md "Deprecated styles": `hamptons` coastal, `american` standard, `southwestern` farmhouse),
    /// any other style itself.
    pub fn current(&self) -> Style {
        match self {
            Style::Hamptons => Style::Coastal,
            Style::American => Style::Standard,
            Style::Southwestern => Style::Farmhouse,
            other => other.clone(),
        }
    }
}

open_enum! {
    /// `remove_furniture.mode`. service-api.md names `on` and `auto`; `off` (no removal) comes from v1's declutter modes.
    pub enum RemovalMode {
        Off = "off",
        On = "on",
        Auto = "auto",
    }
}

open_enum! {
    /// Day-to-dusk sky styles (service-api.md part 1), written in lower case.
    pub enum SkyStyle {
        /// Deep twilight.
        Dusk = "dusk",
        /// Warm sunset.
        Golden = "golden",
        /// Early-evening blue hour.
        Blue = "blue",
    }
}

/// `output_resolution`: service-api.md shows `default`; vstage also knows v1's `4k` and `full-hd`, and a number
/// of pixels on the long side, as a public client in production sends it (`1536`: superdevvs/Repro_Backend,
/// app/Services/Studio/VirtualStagingOptions.php; the service's docs say the default is at least 1536 px). Any
/// other word is kept. Each is written back as it was read: words as strings, pixels as a number.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum OutputResolution {
    Default,
    FourK,
    FullHd,
    Pixels(u64),
    /// A word this version of vstage does not know, kept as sent.
    Other(String),
}

impl OutputResolution {
    /// The words vstage knows, in the contract's order.
    pub const KNOWN: &'static [OutputResolution] =
        &[OutputResolution::Default, OutputResolution::FourK, OutputResolution::FullHd];

    /// Whether vstage knows it (a number of pixels always is).
    pub fn is_known(&self) -> bool {
        !matches!(self, OutputResolution::Other(_))
    }
}

impl From<&str> for OutputResolution {
    fn from(value: &str) -> Self {
        match value {
            "default" => OutputResolution::Default,
            "4k" => OutputResolution::FourK,
            "full-hd" => OutputResolution::FullHd,
            other => {
                other.parse().map_or_else(|_| OutputResolution::Other(other.to_string()), OutputResolution::Pixels)
            }
        }
    }
}

impl std::fmt::Display for OutputResolution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OutputResolution::Default => f.write_str("default"),
            OutputResolution::FourK => f.write_str("4k"),
            OutputResolution::FullHd => f.write_str("full-hd"),
            OutputResolution::Pixels(pixels) => write!(f, "{pixels}"),
            OutputResolution::Other(word) => f.write_str(word),
        }
    }
}

impl Serialize for OutputResolution {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            OutputResolution::Pixels(pixels) => serializer.serialize_u64(*pixels),
            word => serializer.collect_str(word),
        }
    }
}

impl<'de> Deserialize<'de> for OutputResolution {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ResolutionVisitor)
    }
}

/// A number of pixels or a word; a word that is a number stays a word, written back as it came. A visitor rather
/// than an untagged enum, whose buffering would weigh on the widget's first load.
struct ResolutionVisitor;

impl serde::de::Visitor<'_> for ResolutionVisitor {
    type Value = OutputResolution;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("a resolution's name or a number of pixels")
    }

    fn visit_u64<E: serde::de::Error>(self, pixels: u64) -> Result<Self::Value, E> {
        Ok(OutputResolution::Pixels(pixels))
    }

    fn visit_str<E: serde::de::Error>(self, word: &str) -> Result<Self::Value, E> {
        Ok(match OutputResolution::from(word) {
            OutputResolution::Pixels(_) => OutputResolution::Other(word.to_string()),
            read => read,
        })
    }
}

open_enum! {
    /// An analysis's status. service-api.md shows `done`; `processing` and `error` are vstage's reading.
    pub enum AnalysisStatus {
        Processing = "processing",
        Done = "done",
        Error = "error",
    }
}

/// The order of a list by creation date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SortOrder {
    Asc,
    #[default]
    Desc,
}

impl SortOrder {
    pub fn as_str(self) -> &'static str {
        match self {
            SortOrder::Asc => "asc",
            SortOrder::Desc => "desc",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values_are_written_as_the_contract_spells_them() {
        assert_eq!(serde_json::to_string(&RoomType::HomeOffice).unwrap(), r#""home_office""#);
        assert_eq!(serde_json::to_string(&Style::MidCenturyModern).unwrap(), r#""mid-century modern""#);
        assert_eq!(serde_json::to_string(&OutputResolution::FullHd).unwrap(), r#""full-hd""#);
    }

    #[test]
    fn a_resolution_is_a_word_or_a_number_and_written_back_as_read() {
        for wire in ["1536", r#""default""#, r#""8k""#] {
            let resolution: OutputResolution = serde_json::from_str(wire).unwrap();
            assert_eq!(serde_json::to_string(&resolution).unwrap(), wire);
        }
        assert_eq!(serde_json::from_str::<OutputResolution>("1536").unwrap(), OutputResolution::Pixels(1536));
        assert!(serde_json::from_str::<OutputResolution>("-3").is_err());
    }

    /// superdevvs/Repro_Backend, app/Services/Studio/VirtualStagingProcessor.php (`await`): pending is `queued`,
    /// `rendering`, `idle`; terminal is `done`, `error`, `deleted`.
    #[test]
    fn the_statuses_real_clients_wait_in_are_in_progress_and_the_others_final() {
        for pending in ["queued", "rendering", "idle", "processing"] {
            assert!(VariationStatus::from(pending).is_in_progress(), "{pending}");
        }
        for settled in ["done", "error", "deleted"] {
            assert!(VariationStatus::from(settled).is_final(), "{settled}");
        }
    }

    #[test]
    fn unknown_values_are_kept_and_written_back() {
        let status: VariationStatus = serde_json::from_str(r#""upscaling""#).unwrap();
        assert_eq!(status, VariationStatus::Other("upscaling".into()));
        assert!(status.is_final(), "an unknown status is not waited on");
        assert_eq!(serde_json::to_string(&status).unwrap(), r#""upscaling""#);
        let style: Style = serde_json::from_str(r#""gothic""#).unwrap();
        assert!(!style.is_known());
        let deprecated: Style = serde_json::from_str(r#""hamptons""#).unwrap();
        assert_eq!((deprecated.is_known(), deprecated.current()), (true, Style::Coastal), "taken, and mapped");
    }
}
