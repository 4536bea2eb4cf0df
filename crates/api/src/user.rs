//! The account as `GET /v2/user` describes it: who it is, its photo limits and what it used this period.
//! Usage is counted per kind: `staging` (staging and removal) and `imageEditing` (day-to-dusk, enhancement).
//! A limit is a number of photos or `"UNLIMITED"` (docs/service-api.md, "What the real service does beyond the
//! contract"); counts are read from numbers or numeric strings.

use std::fmt;

use serde::de::{Error, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// `GET /v2/user`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct User {
    /// Absent for a widget token's holder: `vstage serve` shows tokens usage, not the operator's identity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<UserIdentity>,
    #[serde(rename = "photoLimit")]
    pub photo_limit: PhotoLimits,
    #[serde(rename = "photosUsedThisPeriod")]
    pub photos_used_this_period: PhotoCounts,
    /// When the period's counts start again (epoch milliseconds): `vstage serve` says it for a widget token's
    /// holder, whose figures are its own allowance of the month, and the sandbox for its accounts, whose periods
    /// renew monthly (no public client shows the real service's name for it). A plain integer, not a `Timestamp`:
    /// reading a JSON number of any form would weigh on the widget's first load.
    #[serde(rename = "renewsAt", default, skip_serializing_if = "Option::is_none")]
    pub renews_at: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserIdentity {
    pub email: String,
    pub uid: String,
}

/// A number of photos per kind of processing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhotoCounts {
    #[serde(default, deserialize_with = "count")]
    pub staging: u64,
    #[serde(default, rename = "imageEditing", deserialize_with = "count")]
    pub image_editing: u64,
}

/// The photo limit per kind of processing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhotoLimits {
    #[serde(default)]
    pub staging: Limit,
    #[serde(default, rename = "imageEditing")]
    pub image_editing: Limit,
}

/// How many photos a period allows: a number, `"UNLIMITED"` (any case), or a word vstage does not know, kept as
/// sent and written back. A missing limit reads as `Photos(0)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Limit {
    Photos(u64),
    Unlimited,
    Other(String),
}

impl Default for Limit {
    fn default() -> Self {
        Limit::Photos(0)
    }
}

impl Limit {
    /// The photos left after `used`; `None` when the limit sets no number.
    pub fn remaining(&self, used: u64) -> Option<u64> {
        match self {
            Limit::Photos(limit) => Some(limit.saturating_sub(used)),
            Limit::Unlimited | Limit::Other(_) => None,
        }
    }
}

impl From<u64> for Limit {
    fn from(photos: u64) -> Self {
        Limit::Photos(photos)
    }
}

impl Serialize for Limit {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Limit::Photos(photos) => serializer.serialize_u64(*photos),
            Limit::Unlimited => serializer.serialize_str("UNLIMITED"),
            Limit::Other(word) => serializer.serialize_str(word),
        }
    }
}

impl<'de> Deserialize<'de> for Limit {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match deserializer.deserialize_any(CountOrWord)? {
            CountOrWordValue::Count(photos) => Ok(Limit::Photos(photos)),
            CountOrWordValue::Word(word) if word.eq_ignore_ascii_case("unlimited") => Ok(Limit::Unlimited),
            CountOrWordValue::Word(word) => Ok(Limit::Other(word)),
        }
    }
}

/// A count of photos: a whole number, as a JSON number or a numeric string; null reads as 0.
fn count<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    match deserializer.deserialize_any(CountOrWord)? {
        CountOrWordValue::Count(photos) => Ok(photos),
        CountOrWordValue::Word(word) => {
            let shown: String = word.chars().take(40).collect();
            Err(D::Error::custom(format!("expected a number of photos, got \"{shown}\"")))
        }
    }
}

enum CountOrWordValue {
    Count(u64),
    Word(String),
}

/// Reads a whole, non-negative number (integer, integral float or numeric string) or else the string as a word.
struct CountOrWord;

impl<'de> Visitor<'de> for CountOrWord {
    type Value = CountOrWordValue;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a number of photos or a word such as \"UNLIMITED\"")
    }

    fn visit_u64<E: Error>(self, number: u64) -> Result<Self::Value, E> {
        Ok(CountOrWordValue::Count(number))
    }

    fn visit_i64<E: Error>(self, number: i64) -> Result<Self::Value, E> {
        u64::try_from(number).map(CountOrWordValue::Count).map_err(|_| E::custom(format!("{number} is below zero")))
    }

    fn visit_f64<E: Error>(self, number: f64) -> Result<Self::Value, E> {
        if number >= 0.0 && number.fract() == 0.0 && number <= u64::MAX as f64 {
            Ok(CountOrWordValue::Count(number as u64))
        } else {
            // (no float in the sentence: formatting one would weigh on the widget's first load)
            Err(E::custom("expected a whole number of photos"))
        }
    }

    fn visit_str<E: Error>(self, text: &str) -> Result<Self::Value, E> {
        Ok(text.trim().parse().map_or_else(|_| CountOrWordValue::Word(text.to_string()), CountOrWordValue::Count))
    }

    fn visit_unit<E: Error>(self) -> Result<Self::Value, E> {
        Ok(CountOrWordValue::Count(0))
    }
}

impl User {
    /// The staging usage as `(used, limit)`.
    pub fn staging_usage(&self) -> (u64, &Limit) {
        (self.photos_used_this_period.staging, &self.photo_limit.staging)
    }

    /// The image-editing usage as `(used, limit)`.
    pub fn image_editing_usage(&self) -> (u64, &Limit) {
        (self.photos_used_this_period.image_editing, &self.photo_limit.image_editing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_contract_shape_and_ignores_unknown_fields() {
        let json = r#"{
            "user": {"email": "agent@example.com", "uid": "u_1", "plan": "pro"},
            "photoLimit": {"staging": 100, "imageEditing": 50},
            "photosUsedThisPeriod": {"staging": 3, "imageEditing": 0},
            "somethingNew": true
        }"#;
        let user: User = serde_json::from_str(json).unwrap();
        assert_eq!(user.user.as_ref().unwrap().email, "agent@example.com");
        assert_eq!(user.staging_usage(), (3, &Limit::Photos(100)));
        assert_eq!(user.image_editing_usage(), (0, &Limit::Photos(50)));
    }

    /// superdevvs/Repro_Backend, tests/Feature/VirtualStagingAiTest.php: the fixture of `GET /v2/user` its client
    /// reads (app/Services/Studio/Providers/VirtualStagingAiClient.php accepts a number or "UNLIMITED").
    #[test]
    fn an_unlimited_plan_and_counts_as_strings_are_read_and_written_back() {
        let json = r#"{
            "user": {"email": "owner@example.com", "uid": "uid-1"},
            "photoLimit": {"staging": 100, "imageEditing": "UNLIMITED"},
            "photosUsedThisPeriod": {"staging": "4", "imageEditing": 0.0}
        }"#;
        let user: User = serde_json::from_str(json).unwrap();
        assert_eq!(user.staging_usage(), (4, &Limit::Photos(100)));
        assert_eq!(user.image_editing_usage(), (0, &Limit::Unlimited));
        assert_eq!(user.photo_limit.image_editing.remaining(7), None);
        assert_eq!(serde_json::to_value(&user).unwrap()["photoLimit"]["imageEditing"], "UNLIMITED");
        let other: Limit = serde_json::from_str(r#""per-seat""#).unwrap();
        assert_eq!(serde_json::to_string(&other).unwrap(), r#""per-seat""#);
        assert!(serde_json::from_str::<PhotoCounts>(r#"{"staging": "lots"}"#).is_err());
        assert!(serde_json::from_str::<PhotoCounts>(r#"{"staging": -1}"#).is_err());
    }

    #[test]
    fn writes_the_contract_field_names() {
        let user = User {
            user: Some(UserIdentity { email: "a@b.c".into(), uid: "u".into() }),
            photo_limit: PhotoLimits { staging: Limit::Photos(10), image_editing: Limit::Unlimited },
            photos_used_this_period: PhotoCounts { staging: 1, image_editing: 2 },
            renews_at: None,
        };
        let value = serde_json::to_value(&user).unwrap();
        assert_eq!(value["photoLimit"]["staging"], 10);
        assert_eq!(value["photoLimit"]["imageEditing"], "UNLIMITED");
        assert_eq!(value["photosUsedThisPeriod"]["staging"], 1);
    }
}
