//! The contract's named values: statuses, types, room types, styles, modes, sky styles, resolutions.
//! All are open (unknown values kept) because service-api.md never shows their full lists; see docs/api-notes.md.

use serde::{Deserialize, Serialize};

use crate::open_enum;

open_enum! {
    /// A v2 variation's status. service-api.md shows `queued` and `done`; `processing` and `error` are vstage's
    /// reading of the states in between and of a failure (docs/api-notes.md).
    pub enum VariationStatus {
        Queued = "queued",
        Processing = "processing",
        Done = "done",
        Error = "error",
    }
}

impl VariationStatus {
    /// No further change is expected: done or failed. Unknown statuses count as still in progress.
    pub fn is_final(&self) -> bool {
        matches!(self, VariationStatus::Done | VariationStatus::Error)
    }
}

open_enum! {
    /// What a variation is. service-api.md names `staging` and `removal`; vstage adds `day_to_dusk` and `enhancement`.
    pub enum VariationType {
        Staging = "staging",
        Removal = "removal",
        DayToDusk = "day_to_dusk",
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
        /// Deprecated: the service maps it to another style.
        American = "american",
        /// Deprecated: the service maps it to another style.
        Southwestern = "southwestern",
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

open_enum! {
    /// `output_resolution`. service-api.md shows `default`; vstage also writes v1's `4k` and `full-hd`.
    pub enum OutputResolution {
        Default = "default",
        FourK = "4k",
        FullHd = "full-hd",
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
    fn unknown_values_are_kept_and_written_back() {
        let status: VariationStatus = serde_json::from_str(r#""upscaling""#).unwrap();
        assert_eq!(status, VariationStatus::Other("upscaling".into()));
        assert!(!status.is_final());
        assert_eq!(serde_json::to_string(&status).unwrap(), r#""upscaling""#);
        let style: Style = serde_json::from_str(r#""hamptons""#).unwrap();
        assert!(!style.is_known());
    }
}
