//! The service's JSON answer read once, into a tree that borrows its strings from the answer's bytes (a string is
//! copied only when it holds an escape) and keeps each object's fields in order in a list (no hashing, no map):
//! the contract's types are read from the tree (`&AnswerJson` is a serde `Deserializer`), whether the answer can
//! pass unchanged is judged on it (`unchanged`), and only an answer that must be rewritten becomes a `Value`.

use std::borrow::Cow;
use std::fmt;

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::{Map, Number, Value};

/// One JSON value of an answer, borrowing from its bytes.
#[derive(Debug, Clone, PartialEq)]
pub enum AnswerJson<'a> {
    Null,
    Bool(bool),
    Number(Number),
    String(Cow<'a, str>),
    Array(Vec<AnswerJson<'a>>),
    /// The fields in the order they came (a repeated name appears twice).
    Object(Vec<(Cow<'a, str>, AnswerJson<'a>)>),
}

impl<'a> AnswerJson<'a> {
    /// `body` read as JSON, or why not (serde_json's parser, its depth limit included). The bytes are checked to
    /// be UTF-8 once, whole, rather than string by string as the parser does with bytes (about 1,100 instructions
    /// per render answer under callgrind, where the whole check takes a third of that); not UTF-8 is not JSON.
    pub fn read(body: &'a [u8]) -> Result<Self, NotJson> {
        let text = std::str::from_utf8(body).map_err(NotJson::Utf8)?;
        serde_json::from_str(text).map_err(NotJson::Json)
    }

    /// The field `name` of an object (the first of that name).
    pub fn get(&self, name: &str) -> Option<&AnswerJson<'a>> {
        match self {
            AnswerJson::Object(fields) => fields.iter().find(|(field, _)| field == name).map(|(_, value)| value),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            AnswerJson::String(text) => Some(text),
            _ => None,
        }
    }

    /// The tree as a `Value` (a repeated name keeps its last value, as a `Value` read from the bytes would).
    pub fn into_value(self) -> Value {
        match self {
            AnswerJson::Null => Value::Null,
            AnswerJson::Bool(flag) => Value::Bool(flag),
            AnswerJson::Number(number) => Value::Number(number),
            AnswerJson::String(text) => Value::String(text.into_owned()),
            AnswerJson::Array(items) => Value::Array(items.into_iter().map(AnswerJson::into_value).collect()),
            AnswerJson::Object(fields) => {
                let mut object = Map::with_capacity(fields.len());
                for (name, value) in fields {
                    object.insert(name.into_owned(), value.into_value());
                }
                Value::Object(object)
            }
        }
    }
}

/// Why an answer is not JSON.
#[derive(Debug, thiserror::Error)]
pub enum NotJson {
    #[error("not UTF-8: {0}")]
    Utf8(std::str::Utf8Error),
    #[error("{0}")]
    Json(serde_json::Error),
}

/// A string of the answer: borrowed when the bytes hold it as is.
struct Text<'a>(Cow<'a, str>);

impl<'de> de::Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl<'de> Visitor<'de> for TextVisitor {
            type Value = Text<'de>;
            fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                formatter.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, text: &'de str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Borrowed(text)))
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(text.to_owned())))
            }
            fn visit_string<E: de::Error>(self, text: String) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(text)))
            }
        }
        deserializer.deserialize_str(TextVisitor)
    }
}

impl<'de> de::Deserialize<'de> for AnswerJson<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(TreeVisitor)
    }
}

struct TreeVisitor;

impl<'de> Visitor<'de> for TreeVisitor {
    type Value = AnswerJson<'de>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(AnswerJson::Null)
    }

    fn visit_bool<E: de::Error>(self, flag: bool) -> Result<Self::Value, E> {
        Ok(AnswerJson::Bool(flag))
    }

    fn visit_u64<E: de::Error>(self, number: u64) -> Result<Self::Value, E> {
        Ok(AnswerJson::Number(number.into()))
    }

    fn visit_i64<E: de::Error>(self, number: i64) -> Result<Self::Value, E> {
        Ok(AnswerJson::Number(number.into()))
    }

    fn visit_f64<E: de::Error>(self, number: f64) -> Result<Self::Value, E> {
        // JSON has no NaN nor infinity, so every number read is finite.
        Number::from_f64(number).map(AnswerJson::Number).ok_or_else(|| E::custom("a number out of range"))
    }

    fn visit_borrowed_str<E: de::Error>(self, text: &'de str) -> Result<Self::Value, E> {
        Ok(AnswerJson::String(Cow::Borrowed(text)))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
        Ok(AnswerJson::String(Cow::Owned(text.to_owned())))
    }

    fn visit_string<E: de::Error>(self, text: String) -> Result<Self::Value, E> {
        Ok(AnswerJson::String(Cow::Owned(text)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(AnswerJson::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        // The parser does not know how many fields come; the contract's objects have a few to a dozen.
        let mut fields = Vec::with_capacity(map.size_hint().unwrap_or(8).min(64));
        while let Some(Text(name)) = map.next_key()? {
            fields.push((name, map.next_value()?));
        }
        Ok(AnswerJson::Object(fields))
    }
}

/// The contract's types read from the tree, as serde_json reads them from a `Value`: its strings lent to what
/// borrows, copied only into what owns.
impl<'de, 'a: 'de> Deserializer<'de> for &'de AnswerJson<'a> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self {
            AnswerJson::Null => visitor.visit_unit(),
            AnswerJson::Bool(flag) => visitor.visit_bool(*flag),
            AnswerJson::Number(number) => number.deserialize_any(visitor),
            AnswerJson::String(text) => visitor.visit_borrowed_str(text),
            AnswerJson::Array(items) => visitor.visit_seq(Items(items.iter())),
            AnswerJson::Object(fields) => visitor.visit_map(Fields { fields: fields.iter(), value: None }),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self {
            AnswerJson::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self {
            AnswerJson::String(text) => visitor.visit_enum(BorrowedStrDeserializer::new(text)),
            AnswerJson::Object(fields) if fields.len() == 1 => {
                let (name, value) = &fields[0];
                visitor.visit_enum(Variant { name, value })
            }
            _ => Err(de::Error::custom("an enum must be a string or an object of one field")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_unit()
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit unit_struct seq
        tuple tuple_struct map struct identifier
    }
}

struct Items<'de, 'a>(std::slice::Iter<'de, AnswerJson<'a>>);

impl<'de, 'a: 'de> SeqAccess<'de> for Items<'de, 'a> {
    type Error = serde_json::Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>, Self::Error> {
        self.0.next().map(|item| seed.deserialize(item)).transpose()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

struct Fields<'de, 'a> {
    fields: std::slice::Iter<'de, (Cow<'a, str>, AnswerJson<'a>)>,
    value: Option<&'de AnswerJson<'a>>,
}

impl<'de, 'a: 'de> MapAccess<'de> for Fields<'de, 'a> {
    type Error = serde_json::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Self::Error> {
        let Some((name, value)) = self.fields.next() else { return Ok(None) };
        self.value = Some(value);
        seed.deserialize(BorrowedStrDeserializer::new(name)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Self::Error> {
        let value = self.value.take().ok_or_else(|| de::Error::custom("a value without its name"))?;
        seed.deserialize(value)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.fields.len())
    }
}

/// An enum written as an object of one field: the variant's name and its content.
struct Variant<'de, 'a> {
    name: &'de str,
    value: &'de AnswerJson<'a>,
}

impl<'de, 'a: 'de> de::EnumAccess<'de> for Variant<'de, 'a> {
    type Error = serde_json::Error;
    type Variant = &'de AnswerJson<'a>;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self::Variant), Self::Error> {
        let name = BorrowedStrDeserializer::<'de, serde_json::Error>::new(self.name);
        Ok((seed.deserialize(name)?, self.value))
    }
}

impl<'de, 'a: 'de> de::VariantAccess<'de> for &'de AnswerJson<'a> {
    type Error = serde_json::Error;

    fn unit_variant(self) -> Result<(), Self::Error> {
        de::Deserialize::deserialize(self)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Self::Error> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, Self::Error> {
        self.deserialize_seq(visitor)
    }

    fn struct_variant<V: Visitor<'de>>(self, _: &'static [&'static str], visitor: V) -> Result<V::Value, Self::Error> {
        self.deserialize_map(visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use vstage_api::Render;

    #[test]
    fn strings_are_borrowed_unless_escaped_and_fields_keep_their_order() {
        let body = br#"{"b":"plain","a":"caf\u00e9","b":[1,-2,2.5,true,null]}"#;
        let tree = AnswerJson::read(body).unwrap();
        let AnswerJson::Object(fields) = &tree else { panic!("{tree:?}") };
        let names: Vec<&str> = fields.iter().map(|(name, _)| name.as_ref()).collect();
        assert_eq!(names, ["b", "a", "b"]);
        assert!(matches!(&fields[0].1, AnswerJson::String(Cow::Borrowed("plain"))));
        assert!(matches!(&fields[1].1, AnswerJson::String(Cow::Owned(text)) if text == "café"));
        assert_eq!(tree.into_value(), json!({"b": [1, -2, 2.5, true, null], "a": "café"}));
        assert!(matches!(AnswerJson::read(b"{\"a\":\"\xff\"}"), Err(NotJson::Utf8(_))));
        assert!(matches!(AnswerJson::read(b"{\"a\":"), Err(NotJson::Json(_))));
    }

    #[test]
    fn the_contracts_types_read_from_the_tree_as_from_the_bytes() {
        let body = br#"{"id":"rnd_1","created_at":1700000000000.5,"eta":null,"image_url":"https://x/p.jpg",
            "variations":{"total_count":1,"next_cursor":null,"items":[{"id":"var_1","render_id":"rnd_1",
            "type":"staging","created_at":1,"status":"DONE-ish","result":[{"url":"https://x/a.jpg"}],
            "config":{"type":"staging","style":"modern","room_type":"bedroom","unknown":{"n":1}}}]},"extra":1}"#;
        let from_tree: Render = de::Deserialize::deserialize(&AnswerJson::read(body).unwrap()).unwrap();
        let from_bytes: Render = serde_json::from_slice(body).unwrap();
        assert_eq!(from_tree, from_bytes);
        let wrong = AnswerJson::read(br#"{"id":7,"created_at":1}"#).unwrap();
        assert!(<Render as de::Deserialize>::deserialize(&wrong).is_err());
    }
}
