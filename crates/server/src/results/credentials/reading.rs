//! The reference reader (the `c2pa` crate) on an image's content credentials, made into a `Verdict`.

use std::io::Cursor;

use c2pa::{Context, Reader, Relationship, ValidationState};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::{OriginalCheck, Trust, Verdict};

/// The ingredient's metadata field that holds the original's SHA-256 (C2PA's ingredient assertion has no field of
/// its own for the bytes of an ingredient without credentials).
pub const ORIGINAL_SHA256: &str = "vstage.original_sha256";

/// The verdict on `bytes` (of media type `format`) with `trust` as the reader's trust settings.
pub fn read(bytes: &[u8], format: &str, trust: &Value, original: Option<&[u8]>) -> Verdict {
    // Thumbnails off as when signing: the crate is built without them, and would warn of it on every read.
    let settings = json!({
        "verify": {"verify_after_reading": true},
        "trust": trust,
        "builder": {"thumbnail": {"enabled": false}},
    });
    let reader = Context::new()
        .with_settings(settings)
        .and_then(|context| Reader::from_context(context).with_stream(format, Cursor::new(bytes)));
    let Ok(reader) = reader else { return Verdict::Absent };
    let trust = match reader.validation_state() {
        ValidationState::Trusted => Trust::Trusted,
        ValidationState::Valid => Trust::Valid,
        ValidationState::Invalid => Trust::Invalid,
    };
    let problems = reader
        .validation_results()
        .and_then(|results| results.active_manifest())
        .map(|manifest| manifest.failure().iter().map(|status| status.code().to_string()).collect())
        .unwrap_or_default();
    let Some(manifest) = reader.active_manifest() else { return Verdict::Absent };
    let edit = last_action(manifest);
    let text = |value: Option<&Value>| value.and_then(Value::as_str).map(str::to_string);
    Verdict::Read {
        trust,
        signer: manifest.common_name(),
        organization: manifest.issuer(),
        agent: text(edit.as_ref().and_then(|action| action.pointer("/softwareAgent/name"))),
        source_type: text(edit.as_ref().and_then(|action| action.get("digitalSourceType"))),
        original: original_check(&reader, manifest, original),
        problems,
    }
}

/// The manifest's last action that names a digital source type (the edit, after the parent's opening).
fn last_action(manifest: &c2pa::Manifest) -> Option<Value> {
    let actions: Value = manifest.find_assertion("c2pa.actions.v2").ok()?;
    let actions = actions.get("actions")?.as_array()?;
    actions.iter().rev().find(|action| action.get("digitalSourceType").is_some()).cloned()
}

/// Whether `original` is a photo the credentials name as a parent: the parent's hash, or, for a copy drawn on a
/// kept result (the labelled one), its parent's own credentials' parent, a few steps up.
fn original_check(reader: &Reader, manifest: &c2pa::Manifest, original: Option<&[u8]>) -> OriginalCheck {
    let mut named = Vec::new();
    let mut manifest = Some(manifest);
    for _ in 0..4 {
        let Some(parent) = manifest.and_then(|manifest| {
            manifest.ingredients().iter().find(|ingredient| *ingredient.relationship() == Relationship::ParentOf)
        }) else {
            break;
        };
        let hash = parent.metadata().and_then(|metadata| metadata.get_field(ORIGINAL_SHA256)).and_then(Value::as_str);
        named.extend(hash);
        manifest = parent.active_manifest().and_then(|label| reader.get_manifest(label));
    }
    match (named.is_empty(), original) {
        (true, _) => OriginalCheck::NotNamed,
        (false, None) => OriginalCheck::NotCompared,
        (false, Some(original)) if named.contains(&hex::encode(Sha256::digest(original)).as_str()) => {
            OriginalCheck::Matches
        }
        (false, Some(_)) => OriginalCheck::Differs,
    }
}
