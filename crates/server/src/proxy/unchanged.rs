//! Whether an answer passes as the service sent it: what this server writes of an answer is its typed reading with
//! the safe fields the contract does not list added back (`unlisted::merged`); when that is the answer as sent
//! (every value the reading writes is the one sent, at the same place, and every field it leaves out is safe at any
//! depth), the service's bytes are relayed as they came and nothing is rebuilt. The reading is written into a
//! serde `Serializer` that compares as it goes, against the answer's tree, and stops at the first difference.

use std::fmt;

use serde::Serialize;
use serde::ser::{self, Impossible};

use super::answer_json::AnswerJson;
use super::unlisted;

/// Whether `read`, the typed reading of `sent`, written with `sent`'s safe unlisted fields, is `sent` itself.
pub fn is_unchanged<T: Serialize + ?Sized>(read: &T, sent: &AnswerJson) -> bool {
    read.serialize(Against(sent)).is_ok()
}

/// Whether a value the contract does not list may pass as it is: no unsafe name in it at any depth.
pub fn only_safe_names(value: &AnswerJson) -> bool {
    match value {
        AnswerJson::Object(fields) => {
            fields.iter().all(|(name, value)| unlisted::is_safe_name(name) && only_safe_names(value))
        }
        AnswerJson::Array(items) => items.iter().all(only_safe_names),
        _ => true,
    }
}

/// The written value is not the one sent (or is one this comparison does not take).
#[derive(Debug)]
pub struct Differs;

impl fmt::Display for Differs {
    fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("the written answer differs from the one sent")
    }
}

impl std::error::Error for Differs {}

impl ser::Error for Differs {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Differs
    }
}

fn same(equal: bool) -> Result<(), Differs> {
    if equal { Ok(()) } else { Err(Differs) }
}

/// Writes a value against the sent value at the same place.
struct Against<'t, 'a>(&'t AnswerJson<'a>);

impl<'t, 'a> Against<'t, 'a> {
    fn number(&self, matches: impl FnOnce(&serde_json::Number) -> bool) -> Result<(), Differs> {
        same(matches!(self.0, AnswerJson::Number(number) if matches(number)))
    }

    fn text(&self, written: &str) -> Result<(), Differs> {
        same(matches!(self.0, AnswerJson::String(text) if text == written))
    }

    fn object(&self) -> Result<Fields<'t, 'a>, Differs> {
        match self.0 {
            AnswerJson::Object(fields) => Ok(Fields { fields, seen: vec![false; fields.len()], current: None }),
            _ => Err(Differs),
        }
    }

    /// The value of an object of one field, `name` (an enum's variant with its content).
    fn only_field(&self, name: &str) -> Result<&'t AnswerJson<'a>, Differs> {
        match self.0 {
            AnswerJson::Object(fields) if fields.len() == 1 && fields[0].0 == name => Ok(&fields[0].1),
            _ => Err(Differs),
        }
    }

    fn items(&self, length: Option<usize>) -> Result<Items<'t, 'a>, Differs> {
        match self.0 {
            AnswerJson::Array(items) if length.is_none_or(|length| length == items.len()) => {
                Ok(Items { items, next: 0 })
            }
            _ => Err(Differs),
        }
    }
}

impl<'t, 'a> ser::Serializer for Against<'t, 'a> {
    type Ok = ();
    type Error = Differs;
    type SerializeSeq = Items<'t, 'a>;
    type SerializeTuple = Items<'t, 'a>;
    type SerializeTupleStruct = Items<'t, 'a>;
    type SerializeTupleVariant = Items<'t, 'a>;
    type SerializeMap = Fields<'t, 'a>;
    type SerializeStruct = Fields<'t, 'a>;
    type SerializeStructVariant = Fields<'t, 'a>;

    fn serialize_bool(self, flag: bool) -> Result<(), Differs> {
        same(matches!(self.0, AnswerJson::Bool(sent) if *sent == flag))
    }

    fn serialize_i8(self, number: i8) -> Result<(), Differs> {
        self.serialize_i64(number.into())
    }

    fn serialize_i16(self, number: i16) -> Result<(), Differs> {
        self.serialize_i64(number.into())
    }

    fn serialize_i32(self, number: i32) -> Result<(), Differs> {
        self.serialize_i64(number.into())
    }

    fn serialize_i64(self, number: i64) -> Result<(), Differs> {
        match u64::try_from(number) {
            Ok(positive) => self.serialize_u64(positive),
            Err(_) => self.number(|sent| sent.as_i64() == Some(number)),
        }
    }

    fn serialize_u8(self, number: u8) -> Result<(), Differs> {
        self.serialize_u64(number.into())
    }

    fn serialize_u16(self, number: u16) -> Result<(), Differs> {
        self.serialize_u64(number.into())
    }

    fn serialize_u32(self, number: u32) -> Result<(), Differs> {
        self.serialize_u64(number.into())
    }

    fn serialize_u64(self, number: u64) -> Result<(), Differs> {
        self.number(|sent| sent.as_u64() == Some(number))
    }

    fn serialize_f32(self, number: f32) -> Result<(), Differs> {
        self.serialize_f64(number.into())
    }

    fn serialize_f64(self, number: f64) -> Result<(), Differs> {
        // serde_json writes a non-finite float as null.
        if !number.is_finite() {
            return same(matches!(self.0, AnswerJson::Null));
        }
        self.number(|sent| sent.is_f64() && sent.as_f64() == Some(number))
    }

    fn serialize_char(self, character: char) -> Result<(), Differs> {
        self.text(character.encode_utf8(&mut [0; 4]))
    }

    fn serialize_str(self, text: &str) -> Result<(), Differs> {
        self.text(text)
    }

    fn serialize_bytes(self, _: &[u8]) -> Result<(), Differs> {
        Err(Differs)
    }

    fn serialize_none(self) -> Result<(), Differs> {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Differs> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Differs> {
        same(matches!(self.0, AnswerJson::Null))
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Differs> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<(), Differs> {
        self.text(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<(), Differs> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Differs> {
        value.serialize(Against(self.only_field(variant)?))
    }

    fn serialize_seq(self, length: Option<usize>) -> Result<Items<'t, 'a>, Differs> {
        self.items(length)
    }

    fn serialize_tuple(self, length: usize) -> Result<Items<'t, 'a>, Differs> {
        self.items(Some(length))
    }

    fn serialize_tuple_struct(self, _: &'static str, length: usize) -> Result<Items<'t, 'a>, Differs> {
        self.items(Some(length))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        length: usize,
    ) -> Result<Items<'t, 'a>, Differs> {
        Against(self.only_field(variant)?).items(Some(length))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Fields<'t, 'a>, Differs> {
        self.object()
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Fields<'t, 'a>, Differs> {
        self.object()
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Fields<'t, 'a>, Differs> {
        Against(self.only_field(variant)?).object()
    }
}

/// An array written against the one sent: item by item, as many as were sent.
struct Items<'t, 'a> {
    items: &'t [AnswerJson<'a>],
    next: usize,
}

impl Items<'_, '_> {
    fn item<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Differs> {
        let sent = self.items.get(self.next).ok_or(Differs)?;
        self.next += 1;
        value.serialize(Against(sent))
    }

    fn done(self) -> Result<(), Differs> {
        same(self.next == self.items.len())
    }
}

impl ser::SerializeSeq for Items<'_, '_> {
    type Ok = ();
    type Error = Differs;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Differs> {
        self.item(value)
    }
    fn end(self) -> Result<(), Differs> {
        self.done()
    }
}

impl ser::SerializeTuple for Items<'_, '_> {
    type Ok = ();
    type Error = Differs;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Differs> {
        self.item(value)
    }
    fn end(self) -> Result<(), Differs> {
        self.done()
    }
}

impl ser::SerializeTupleStruct for Items<'_, '_> {
    type Ok = ();
    type Error = Differs;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Differs> {
        self.item(value)
    }
    fn end(self) -> Result<(), Differs> {
        self.done()
    }
}

impl ser::SerializeTupleVariant for Items<'_, '_> {
    type Ok = ();
    type Error = Differs;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Differs> {
        self.item(value)
    }
    fn end(self) -> Result<(), Differs> {
        self.done()
    }
}

/// An object written against the one sent: each written field must be sent with the same value; once all are
/// written, every field sent but not written must be safe to pass on, and no name may come twice.
struct Fields<'t, 'a> {
    fields: &'t [(std::borrow::Cow<'a, str>, AnswerJson<'a>)],
    seen: Vec<bool>,
    /// The sent field a map's key named, for its value.
    current: Option<usize>,
}

impl Fields<'_, '_> {
    fn field<T: Serialize + ?Sized>(&mut self, name: &str, value: &T) -> Result<(), Differs> {
        let index = self.written(KeyIndex(self.fields).find(name)?)?;
        value.serialize(Against(&self.fields[index].1))
    }

    /// Marks the sent field at `index` as written (a name written twice differs).
    fn written(&mut self, index: usize) -> Result<usize, Differs> {
        same(!std::mem::replace(&mut self.seen[index], true))?;
        Ok(index)
    }

    fn done(self) -> Result<(), Differs> {
        for (index, (name, value)) in self.fields.iter().enumerate() {
            if self.seen[index] {
                continue;
            }
            let repeated = self.fields.iter().filter(|(other, _)| other == name).count() > 1;
            same(!repeated && unlisted::is_safe_name(name) && only_safe_names(value))?;
        }
        Ok(())
    }
}

impl ser::SerializeMap for Fields<'_, '_> {
    type Ok = ();
    type Error = Differs;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Differs> {
        let index = key.serialize(KeyIndex(self.fields))?;
        self.current = Some(self.written(index)?);
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Differs> {
        let index = self.current.take().ok_or(Differs)?;
        value.serialize(Against(&self.fields[index].1))
    }

    fn end(self) -> Result<(), Differs> {
        self.done()
    }
}

impl ser::SerializeStruct for Fields<'_, '_> {
    type Ok = ();
    type Error = Differs;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, name: &'static str, value: &T) -> Result<(), Differs> {
        self.field(name, value)
    }
    fn end(self) -> Result<(), Differs> {
        self.done()
    }
}

impl ser::SerializeStructVariant for Fields<'_, '_> {
    type Ok = ();
    type Error = Differs;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, name: &'static str, value: &T) -> Result<(), Differs> {
        self.field(name, value)
    }
    fn end(self) -> Result<(), Differs> {
        self.done()
    }
}

/// Finds the sent field a map's key names; only string keys are taken (others are compared the long way).
struct KeyIndex<'t, 'a>(&'t [(std::borrow::Cow<'a, str>, AnswerJson<'a>)]);

impl KeyIndex<'_, '_> {
    fn find(&self, name: &str) -> Result<usize, Differs> {
        self.0.iter().position(|(sent, _)| sent == name).ok_or(Differs)
    }
}

/// Serializer methods that refuse what they are given.
macro_rules! refused {
    ($($method:ident($($argument:ty),*) -> $ok:ty;)*) => {
        $(fn $method(self, $(_: $argument),*) -> Result<$ok, Differs> {
            Err(Differs)
        })*
    };
}

impl ser::Serializer for KeyIndex<'_, '_> {
    type Ok = usize;
    type Error = Differs;
    type SerializeSeq = Impossible<usize, Differs>;
    type SerializeTuple = Impossible<usize, Differs>;
    type SerializeTupleStruct = Impossible<usize, Differs>;
    type SerializeTupleVariant = Impossible<usize, Differs>;
    type SerializeMap = Impossible<usize, Differs>;
    type SerializeStruct = Impossible<usize, Differs>;
    type SerializeStructVariant = Impossible<usize, Differs>;

    fn serialize_str(self, name: &str) -> Result<usize, Differs> {
        self.find(name)
    }

    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<usize, Differs> {
        self.find(variant)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<usize, Differs> {
        Err(Differs)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, _: &T) -> Result<usize, Differs> {
        Err(Differs)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<usize, Differs> {
        Err(Differs)
    }

    refused! {
        serialize_bool(bool) -> usize;
        serialize_i8(i8) -> usize;
        serialize_i16(i16) -> usize;
        serialize_i32(i32) -> usize;
        serialize_i64(i64) -> usize;
        serialize_u8(u8) -> usize;
        serialize_u16(u16) -> usize;
        serialize_u32(u32) -> usize;
        serialize_u64(u64) -> usize;
        serialize_f32(f32) -> usize;
        serialize_f64(f64) -> usize;
        serialize_char(char) -> usize;
        serialize_bytes(&[u8]) -> usize;
        serialize_none() -> usize;
        serialize_unit() -> usize;
        serialize_unit_struct(&'static str) -> usize;
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }
}
