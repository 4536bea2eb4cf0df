//! The host's own references to what a render is about: its listing (`listing_id`), its photo (`photo_id`) and a
//! small object of its own (`metadata`). Set on `<vstage-widget>` (`listing-id`, `photo-id`, `metadata`) or sent
//! with a creation in the `Vstage-Reference` header, kept with each render and sent back in every host webhook and
//! DOM event about it, so that the host's backend can join them to its own records.
//!
//! Bounded as Stripe bounds its `metadata`, the best-known design of the kind: at most 50 keys of at most 40
//! characters (no square brackets), values of at most 500 characters; ids of at most 128 characters. Values are
//! strings, numbers or booleans (a flat object, as Stripe's, but a number need not be quoted).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The request header that carries a creation's references: a JSON object (`{"listing_id": "L-1"}`), or for
/// `POST /v2/renders/bulk` an array of them, one per render in the order of `renders` (or one object for all).
/// With `photo_url` beside `photo_id`, only renders of that photo get the id. Written in ASCII: JSON's `\u`
/// escapes carry any other character.
pub const HEADER: &str = "vstage-reference";

/// The most keys `metadata` holds.
pub const MAX_METADATA_KEYS: usize = 50;
/// The longest key, in characters.
pub const MAX_KEY_CHARS: usize = 40;
/// The longest string value, in characters.
pub const MAX_VALUE_CHARS: usize = 500;
/// The longest `listing_id` or `photo_id`, in characters.
pub const MAX_ID_CHARS: usize = 128;
/// The longest header the server reads (a bulk creation's 25 references, each well within its bounds).
pub const MAX_HEADER_BYTES: usize = 64 * 1024;

/// What the host said a render is about. Every field is optional; all three are always written (`null` when not
/// given), so that a receiver reads one shape.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostReference {
    #[serde(default)]
    pub listing_id: Option<String>,
    #[serde(default)]
    pub photo_id: Option<String>,
    #[serde(default)]
    pub metadata: Option<BTreeMap<String, serde_json::Value>>,
}

/// What a host sends: the same fields, and `photo_url`, the photo `photo_id` names (a render of another photo
/// gets no `photo_id`); any other field is refused (a `listingId` is a typo to say, not to drop).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Sent {
    #[serde(default)]
    listing_id: Option<String>,
    #[serde(default)]
    photo_id: Option<String>,
    #[serde(default)]
    photo_url: Option<String>,
    #[serde(default)]
    metadata: Option<BTreeMap<String, serde_json::Value>>,
}

impl Sent {
    /// The reference of a render of `photo` (its address; `None` when the call names none, a v1 file).
    fn checked(self, photo: Option<&str>) -> Result<HostReference, ReferenceError> {
        let photo_id = match &self.photo_url {
            Some(named) => self.photo_id.filter(|_| photo == Some(named.as_str())),
            None => self.photo_id,
        };
        let reference = HostReference { listing_id: self.listing_id, photo_id, metadata: self.metadata };
        reference.validate()?;
        Ok(reference)
    }
}

/// Why references were refused, in words for the host's developer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReferenceError {
    #[error("{0}: JSON that is not a reference ({1}); send an object such as {{\"listing_id\": \"L-1042\"}}")]
    NotJson(&'static str, String),
    #[error("{0} is empty or longer than {MAX_ID_CHARS} characters, or holds a control character; send a shorter id")]
    BadId(&'static str),
    #[error("metadata holds more than {MAX_METADATA_KEYS} keys; keep it to what your backend joins on")]
    TooManyKeys,
    #[error(
        "metadata key `{0}` is empty, longer than {MAX_KEY_CHARS} characters, or holds `[`, `]` or a control character"
    )]
    BadKey(String),
    #[error("metadata `{0}` is an object, an array or null; values are strings, numbers or booleans")]
    NotScalar(String),
    #[error("metadata `{0}` is longer than {MAX_VALUE_CHARS} characters")]
    ValueTooLong(String),
    #[error("{0} names {1} references for {2} renders; send one for each, or one object for all")]
    WrongCount(&'static str, usize, usize),
    #[error("{0} is longer than {MAX_HEADER_BYTES} bytes")]
    TooLong(&'static str),
}

impl HostReference {
    /// Whether nothing was given.
    pub fn is_empty(&self) -> bool {
        self.listing_id.is_none() && self.photo_id.is_none() && self.metadata.is_none()
    }

    /// Checks the bounds; each failure says which field and what to do.
    pub fn validate(&self) -> Result<(), ReferenceError> {
        for (name, id) in [("listing_id", &self.listing_id), ("photo_id", &self.photo_id)] {
            if id.as_deref().is_some_and(|id| !is_id(id)) {
                return Err(ReferenceError::BadId(name));
            }
        }
        let Some(metadata) = &self.metadata else { return Ok(()) };
        if metadata.len() > MAX_METADATA_KEYS {
            return Err(ReferenceError::TooManyKeys);
        }
        for (key, value) in metadata {
            let bad_char = |c: char| c == '[' || c == ']' || c.is_control();
            if key.is_empty() || key.chars().count() > MAX_KEY_CHARS || key.chars().any(bad_char) {
                return Err(ReferenceError::BadKey(key.chars().take(MAX_KEY_CHARS).collect()));
            }
            match value {
                serde_json::Value::String(text) if text.chars().count() > MAX_VALUE_CHARS => {
                    return Err(ReferenceError::ValueTooLong(key.clone()));
                }
                serde_json::Value::String(_) | serde_json::Value::Number(_) | serde_json::Value::Bool(_) => {}
                _ => return Err(ReferenceError::NotScalar(key.clone())),
            }
        }
        Ok(())
    }

    /// The references `text` names, checked (`name` says where it came from, for the error): a JSON object.
    pub fn parse(name: &'static str, text: &str) -> Result<Self, ReferenceError> {
        serde_json::from_str::<Sent>(text).map_err(|e| ReferenceError::NotJson(name, e.to_string()))?.checked(None)
    }

    /// The `metadata` attribute's object, checked: a flat JSON object.
    pub fn metadata_of(text: &str) -> Result<BTreeMap<String, serde_json::Value>, ReferenceError> {
        let metadata = serde_json::from_str(text).map_err(|e| ReferenceError::NotJson("metadata", e.to_string()))?;
        let reference = HostReference { metadata: Some(metadata), ..HostReference::default() };
        reference.validate()?;
        Ok(reference.metadata.unwrap_or_default())
    }

    /// This reference with `other`'s fields where this one has none.
    pub fn or(self, other: &HostReference) -> HostReference {
        HostReference {
            listing_id: self.listing_id.or_else(|| other.listing_id.clone()),
            photo_id: self.photo_id.or_else(|| other.photo_id.clone()),
            metadata: self.metadata.or_else(|| other.metadata.clone()),
        }
    }
}

/// Whether `id` is a `listing_id` or `photo_id`: 1 to 128 characters, none a control character.
pub fn is_id(id: &str) -> bool {
    !id.is_empty() && id.chars().count() <= MAX_ID_CHARS && !id.chars().any(char::is_control)
}

/// The references of each render a creation makes, from its `Vstage-Reference` header: one object for all, or an
/// array with one for each. `photos` are the renders' photos, in order (`None` where the call names none).
pub fn of_header(value: &str, photos: &[Option<&str>]) -> Result<Vec<HostReference>, ReferenceError> {
    if value.len() > MAX_HEADER_BYTES {
        return Err(ReferenceError::TooLong("Vstage-Reference"));
    }
    let parsed: serde_json::Value =
        serde_json::from_str(value).map_err(|e| ReferenceError::NotJson("Vstage-Reference", e.to_string()))?;
    let each = match parsed {
        serde_json::Value::Array(items) => {
            if items.len() != photos.len() {
                return Err(ReferenceError::WrongCount("Vstage-Reference", items.len(), photos.len()));
            }
            items
        }
        one => vec![one; photos.len()],
    };
    each.into_iter()
        .zip(photos)
        .map(|(item, photo)| {
            serde_json::from_value::<Sent>(item)
                .map_err(|e| ReferenceError::NotJson("Vstage-Reference", e.to_string()))?
                .checked(*photo)
        })
        .collect()
}

/// `value` as JSON in ASCII alone, as an HTTP header carries it: every other character as JSON's `\u` escape (two,
/// a surrogate pair, beyond the Basic Multilingual Plane).
pub fn to_header(value: &impl Serialize) -> String {
    ascii_json(&serde_json::to_string(value).unwrap_or_else(|_| "null".into()))
}

/// JSON text in ASCII alone: every other character (found only in its strings) as its `\u` escape.
pub fn ascii_json(json: &str) -> String {
    let mut ascii = String::with_capacity(json.len());
    for c in json.chars() {
        if c.is_ascii() {
            ascii.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                ascii.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    ascii
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_is_written_even_when_absent() {
        let json = serde_json::to_value(HostReference::default()).unwrap();
        assert_eq!(json, serde_json::json!({"listing_id": null, "photo_id": null, "metadata": null}));
    }

    #[test]
    fn a_header_in_ascii_reads_back_the_same_unicode() {
        let reference = HostReference {
            listing_id: Some("Straße-7 🏠".into()),
            photo_id: Some("p\"1".into()),
            metadata: Some([("agent".to_string(), serde_json::json!("Zoë"))].into()),
        };
        let header = to_header(&reference);
        assert!(header.is_ascii(), "{header}");
        assert_eq!(of_header(&header, &[None]).unwrap(), vec![reference]);
    }

    #[test]
    fn one_object_is_for_every_render_and_an_array_one_each() {
        let all = of_header(r#"{"listing_id": "L-1"}"#, &[None, None, None]).unwrap();
        assert_eq!(all.len(), 3);
        assert!(all.iter().all(|one| one.listing_id.as_deref() == Some("L-1")));
        let each = of_header(r#"[{"photo_id": "a"}, {"photo_id": "b"}]"#, &[None, None]).unwrap();
        assert_eq!(each[1].photo_id.as_deref(), Some("b"));
        let wrong = of_header(r#"[{"photo_id": "a"}]"#, &[None, None]).unwrap_err();
        assert_eq!(wrong, ReferenceError::WrongCount("Vstage-Reference", 1, 2));
    }

    #[test]
    fn a_photo_id_with_its_photo_url_names_only_renders_of_that_photo() {
        let header = r#"{"listing_id": "L-1", "photo_id": "p-7", "photo_url": "https://a.example/7.jpg"}"#;
        let made =
            of_header(header, &[Some("https://a.example/7.jpg"), Some("https://a.example/8.jpg"), None]).unwrap();
        let ids: Vec<Option<&str>> = made.iter().map(|one| one.photo_id.as_deref()).collect();
        assert_eq!(ids, [Some("p-7"), None, None]);
        assert!(made.iter().all(|one| one.listing_id.as_deref() == Some("L-1")), "the listing is every render's");
        let unscoped = of_header(r#"{"photo_id": "p-7"}"#, &[Some("https://a.example/8.jpg")]).unwrap();
        assert_eq!(unscoped[0].photo_id.as_deref(), Some("p-7"), "without photo_url, it is every render's");
    }

    #[test]
    fn bounds_are_stripes() {
        let with_metadata = |pairs: Vec<(String, serde_json::Value)>| HostReference {
            metadata: Some(pairs.into_iter().collect()),
            ..HostReference::default()
        };
        let many = (0..=MAX_METADATA_KEYS).map(|n| (format!("k{n}"), serde_json::json!(n))).collect();
        assert_eq!(with_metadata(many).validate(), Err(ReferenceError::TooManyKeys));
        let long_key = "k".repeat(MAX_KEY_CHARS + 1);
        assert!(matches!(with_metadata(vec![(long_key, 1.into())]).validate(), Err(ReferenceError::BadKey(_))));
        let bracket = with_metadata(vec![("a[b]".into(), 1.into())]);
        assert!(matches!(bracket.validate(), Err(ReferenceError::BadKey(_))));
        let nested = with_metadata(vec![("a".into(), serde_json::json!({"b": 1}))]);
        assert_eq!(nested.validate(), Err(ReferenceError::NotScalar("a".into())));
        let long_value = with_metadata(vec![("a".into(), "é".repeat(MAX_VALUE_CHARS + 1).into())]);
        assert_eq!(long_value.validate(), Err(ReferenceError::ValueTooLong("a".into())));
        let fits = with_metadata(vec![("a".into(), "é".repeat(MAX_VALUE_CHARS).into()), ("n".into(), 7.into())]);
        assert_eq!(fits.validate(), Ok(()));
        let control = HostReference { listing_id: Some("L\n1".into()), ..HostReference::default() };
        assert_eq!(control.validate(), Err(ReferenceError::BadId("listing_id")));
        let long_id = HostReference { photo_id: Some("x".repeat(MAX_ID_CHARS + 1)), ..HostReference::default() };
        assert_eq!(long_id.validate(), Err(ReferenceError::BadId("photo_id")));
    }

    #[test]
    fn unknown_fields_and_other_json_are_refused_with_what_to_send() {
        let typo = HostReference::parse("metadata", r#"{"listingId": "L-1"}"#).unwrap_err();
        assert!(typo.to_string().contains("listing_id"), "{typo}");
        assert!(matches!(of_header("L-1", &[None]), Err(ReferenceError::NotJson(..))));
        assert!(of_header(&" ".repeat(MAX_HEADER_BYTES + 1), &[None]).is_err());
    }
}
