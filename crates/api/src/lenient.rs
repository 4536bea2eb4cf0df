//! Liberal readers for values the contract leaves loose: flags that may be booleans, strings or numbers.
//! Used with `#[serde(deserialize_with = ...)]`; what vstage writes stays strict.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// `true`/`false`, `"true"`/`"false"` (any case), `1`/`0`, or null/missing (`None`). Anything else is an error.
pub fn bool<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<bool>, D::Error> {
    let value = Value::deserialize(deserializer)?;
    match &value {
        Value::Null => Ok(None),
        Value::Bool(flag) => Ok(Some(*flag)),
        Value::Number(number) if number.as_f64() == Some(1.0) => Ok(Some(true)),
        Value::Number(number) if number.as_f64() == Some(0.0) => Ok(Some(false)),
        Value::String(text) if text.eq_ignore_ascii_case("true") => Ok(Some(true)),
        Value::String(text) if text.eq_ignore_ascii_case("false") => Ok(Some(false)),
        _ => Err(serde::de::Error::custom(format!("expected true or false, got {value}"))),
    }
}
