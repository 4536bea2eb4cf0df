//! JSON objects told apart by a tag field (`type`, `event_type`) whose unknown tags are kept verbatim.
//! Shared by configs and webhook events: known shapes are read into types, anything else stays a `Value`.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// `value` read as `T`, or `None` when it does not fit (the caller then keeps the raw value).
pub fn parse<T: DeserializeOwned>(value: &Value) -> Option<T> {
    serde_json::from_value(value.clone()).ok()
}

/// The object `fields` serialises to, with `tag_field: tag` first.
pub fn with_tag(tag_field: &str, tag: &str, fields: &impl Serialize) -> Result<Value, String> {
    let Value::Object(fields) = serde_json::to_value(fields).map_err(|e| e.to_string())? else {
        return Err(format!("a value tagged `{tag}` must serialise to an object"));
    };
    let mut tagged = Map::new();
    tagged.insert(tag_field.into(), Value::from(tag));
    tagged.extend(fields);
    Ok(Value::Object(tagged))
}
