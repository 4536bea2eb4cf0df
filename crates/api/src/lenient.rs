//! Liberal readers for values the contract leaves loose: flags that may be booleans, strings or numbers.
//! Used with `#[serde(deserialize_with = ...)]`; what vstage writes stays strict. They read the one value they
//! are given and nothing around it, so an odd flag never costs more than its own bytes.

use std::fmt;

use serde::Deserializer;
use serde::de::{Error, Visitor};

/// `true`/`false`, `"true"`/`"false"` (any case), `1`/`0`, or null/missing (`None`). Anything else is an error.
pub fn bool<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<bool>, D::Error> {
    deserializer.deserialize_any(Flag)
}

struct Flag;

impl<'de> Visitor<'de> for Flag {
    type Value = Option<bool>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("true or false (or \"true\", \"false\", 1, 0)")
    }

    fn visit_bool<E: Error>(self, flag: bool) -> Result<Self::Value, E> {
        Ok(Some(flag))
    }

    fn visit_u64<E: Error>(self, number: u64) -> Result<Self::Value, E> {
        match number {
            0 => Ok(Some(false)),
            1 => Ok(Some(true)),
            _ => Err(E::custom(format!("expected true or false, got {number}"))),
        }
    }

    fn visit_i64<E: Error>(self, number: i64) -> Result<Self::Value, E> {
        u64::try_from(number).map_err(|_| E::custom(format!("expected true or false, got {number}")))?;
        self.visit_u64(number as u64)
    }

    fn visit_f64<E: Error>(self, number: f64) -> Result<Self::Value, E> {
        match number {
            0.0 => Ok(Some(false)),
            1.0 => Ok(Some(true)),
            // The number is not written back: formatting a float would bring Rust's float printing (12 KB of wasm)
            // into every screen that reads a render, for a message no one should see.
            _ => Err(E::custom("expected true or false, got a number other than 0 and 1")),
        }
    }

    fn visit_str<E: Error>(self, text: &str) -> Result<Self::Value, E> {
        if text.eq_ignore_ascii_case("true") {
            Ok(Some(true))
        } else if text.eq_ignore_ascii_case("false") {
            Ok(Some(false))
        } else {
            let shown: String = text.chars().take(40).collect();
            Err(E::custom(format!("expected true or false, got \"{shown}\"")))
        }
    }

    fn visit_unit<E: Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_none<E: Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(Flag)
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize)]
    struct Holder {
        #[serde(default, deserialize_with = "super::bool")]
        flag: Option<bool>,
    }

    fn read(value: serde_json::Value) -> Result<Option<bool>, serde_json::Error> {
        serde_json::from_value::<Holder>(value).map(|holder| holder.flag)
    }

    #[test]
    fn flags_are_read_in_every_spelling_and_nothing_else() {
        for (given, expected) in [
            (json!(true), Some(true)),
            (json!("FALSE"), Some(false)),
            (json!(1), Some(true)),
            (json!(0.0), Some(false)),
            (json!(null), None),
        ] {
            assert_eq!(read(json!({ "flag": given })).unwrap(), expected, "{given}");
        }
        assert_eq!(read(json!({})).unwrap(), None);
        for refused in [json!(2), json!(-1), json!(0.5), json!("yes"), json!([true]), json!({"a": 1})] {
            assert!(read(json!({ "flag": refused })).is_err(), "{refused}");
        }
        let said = read(json!({ "flag": 2.5 })).unwrap_err().to_string();
        assert!(said.starts_with("expected true or false, got a number other than 0 and 1"), "{said}");
    }
}
