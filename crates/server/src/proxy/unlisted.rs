//! The fields of the service's answers that the contract does not list, passed on beside what was read (the
//! service grows fields before its docs do; a client should see them), except those that are unsafe in a token
//! holder's hands: anything named after the account, its people or its secrets, at any depth.
//!
//! The typed reading stays the judge of shape and values: a field the contract has is written as it was read (open
//! enums, lenient numbers), and only names it does not have are added back, as the service sent them.

use serde_json::{Map, Value};

/// Parts of a field's name (lower-cased) that make it unsafe to pass on: the account's identity and people, money,
/// credentials, where webhooks go, network addresses.
const UNSAFE_NAME_PARTS: &[&str] = &[
    "account",
    "email",
    "user",
    "owner",
    "customer",
    "billing",
    "payment",
    "card",
    "invoice",
    "price",
    "cost",
    "key",
    "secret",
    "token",
    "password",
    "credential",
    "auth",
    "webhook",
    "ip_",
    "_ip",
    "internal",
];

/// Whether a field the contract does not list may be passed on under `name`.
pub fn is_safe_name(name: &str) -> bool {
    let name = name.as_bytes();
    let holds = |part: &str| name.windows(part.len()).any(|window| window.eq_ignore_ascii_case(part.as_bytes()));
    !name.eq_ignore_ascii_case(b"ip") && !UNSAFE_NAME_PARTS.iter().any(|part| holds(part))
}

/// `written` (what this server wrote of an answer) with the safe fields of `sent` (the answer as the service sent
/// it) that `written` does not have, at every level where both are objects (and arrays of the same length).
pub fn merged(sent: Value, written: Value) -> Value {
    match (sent, written) {
        (Value::Object(sent), Value::Object(written)) => Value::Object(merged_objects(sent, written)),
        (Value::Array(sent), Value::Array(written)) if sent.len() == written.len() => {
            Value::Array(sent.into_iter().zip(written).map(|(sent, written)| merged(sent, written)).collect())
        }
        (_, written) => written,
    }
}

fn merged_objects(sent: Map<String, Value>, mut written: Map<String, Value>) -> Map<String, Value> {
    for (name, value) in sent {
        match written.remove(&name) {
            Some(ours) => {
                written.insert(name, merged(value, ours));
            }
            None if is_safe_name(&name) => {
                written.insert(name, without_unsafe_names(value));
            }
            None => {}
        }
    }
    written
}

/// `value` without the unsafe fields of its objects, at any depth.
fn without_unsafe_names(value: Value) -> Value {
    match value {
        Value::Object(fields) => Value::Object(
            fields
                .into_iter()
                .filter(|(name, _)| is_safe_name(name))
                .map(|(name, value)| (name, without_unsafe_names(value)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_unsafe_names).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_field_the_contract_lacks_is_added_back_and_an_unsafe_one_is_not() {
        let sent = json!({"id": "rnd_1", "thumbnail": {"url": "https://x/t.jpg", "api_key": "k"},
            "account_email": "ops@example.com", "variations": {"items": [{"id": "v", "seed": 7, "owner": "o"}]}});
        let written = json!({"id": "rnd_1", "variations": {"items": [{"id": "v"}]}});
        let merged = merged(sent, written);
        assert_eq!(
            merged,
            json!({"id": "rnd_1", "thumbnail": {"url": "https://x/t.jpg"}, "variations": {"items": [{"id": "v", "seed": 7}]}})
        );
    }

    #[test]
    fn what_was_read_wins_over_what_was_sent() {
        let merged = merged(json!({"status": "DONE", "n": "3"}), json!({"status": "done", "n": 3}));
        assert_eq!(merged, json!({"status": "done", "n": 3}));
    }

    #[test]
    fn names_of_the_account_and_its_secrets_are_unsafe() {
        for name in ["account_email", "Email", "userId", "webhook_url", "ip", "client_ip", "X-Api-Key", "cost_cents"] {
            assert!(!is_safe_name(name), "{name}");
        }
        for name in ["seed", "thumbnail_url", "room_type_detected", "views", "zip"] {
            assert!(is_safe_name(name), "{name}");
        }
    }
}
