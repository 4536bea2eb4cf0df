//! Liberal readers for values the contract leaves loose: flags that may be booleans, strings or numbers.
//! Used with `#[serde(deserialize_with = ...)]`; what vstage writes stays strict. They read the one value they
//! are given and nothing around it, so an odd flag never costs more than its own bytes.

use std::fmt;

use serde::Deserializer;
use serde::de::{Error, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// A flag as the service reads it (docs/api-notes.md, "Flags"): `true`/`false`; the words `"true"`/`"false"` and
/// `"1"`/`"0"` (any case, spaces around them ignored) by their meaning, as a query or a form must be read; null or
/// missing as not given (`None`). Anything else by its truthiness, as the service's JavaScript reads a value: a
/// number other than 0, a non-empty string (such as `"$waitForCompletion"`, a PHP string never interpolated), an
/// array or an object are true; 0 and the empty string are false. It never fails.
pub fn bool<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<bool>, D::Error> {
    deserializer.deserialize_any(Flag)
}

struct Flag;

impl<'de> Visitor<'de> for Flag {
    type Value = Option<bool>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a flag: true or false (or \"true\", \"false\", 1, 0)")
    }

    fn visit_bool<E: Error>(self, flag: bool) -> Result<Self::Value, E> {
        Ok(Some(flag))
    }

    fn visit_u64<E: Error>(self, number: u64) -> Result<Self::Value, E> {
        Ok(Some(number != 0))
    }

    fn visit_i64<E: Error>(self, number: i64) -> Result<Self::Value, E> {
        Ok(Some(number != 0))
    }

    fn visit_f64<E: Error>(self, number: f64) -> Result<Self::Value, E> {
        Ok(Some(number != 0.0 && !number.is_nan()))
    }

    fn visit_str<E: Error>(self, text: &str) -> Result<Self::Value, E> {
        let word = text.trim();
        Ok(Some(!(word.is_empty() || word == "0" || word.eq_ignore_ascii_case("false"))))
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

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Self::Value, A::Error> {
        while items.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Some(true))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Self::Value, A::Error> {
        while entries.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Some(true))
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
    fn words_by_their_meaning_and_anything_else_by_its_truthiness() {
        for (given, expected) in [
            (json!(true), Some(true)),
            (json!("FALSE"), Some(false)),
            (json!(" true "), Some(true)),
            (json!("0"), Some(false)),
            (json!(1), Some(true)),
            (json!(0.0), Some(false)),
            (json!(null), None),
            // what a JavaScript service does with `if (flag)`
            (json!("$waitForCompletion"), Some(true)),
            (json!("yes"), Some(true)),
            (json!(""), Some(false)),
            (json!(2), Some(true)),
            (json!(-1), Some(true)),
            (json!([]), Some(true)),
            (json!({"a": 1}), Some(true)),
        ] {
            assert_eq!(read(json!({ "flag": given })).unwrap(), expected, "{given}");
        }
        assert_eq!(read(json!({})).unwrap(), None);
    }

    #[test]
    fn a_query_is_read_the_same_way() {
        let read = |query: &str| serde_urlencoded::from_str::<Holder>(query).unwrap().flag;
        assert_eq!(read("flag=false"), Some(false));
        assert_eq!(read("flag=true"), Some(true));
        assert_eq!(read("flag=%24waitForCompletion"), Some(true));
        assert_eq!(read(""), None);
    }
}
