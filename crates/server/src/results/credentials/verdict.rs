//! What the reference reader makes of an image's content credentials: whether they verify and whether this
//! server's signer made them, who signed, what they say was done and by what, and whether the original photo kept
//! beside the image is the parent they name.

use std::io::Cursor;

use c2pa::{Context, Reader, Relationship, ValidationState};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::ORIGINAL_SHA256;

/// How far the credentials hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trust {
    /// Intact, and signed by this server's signer (or under its authority).
    Trusted,
    /// Intact, but signed by someone this server does not know.
    Valid,
    /// Broken: the image changed after it was signed, or the signature or its certificate does not hold.
    Invalid,
}

/// Whether the kept original is the parent photo the credentials name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OriginalCheck {
    Matches,
    Differs,
    /// The credentials name no parent photo with its hash.
    NotNamed,
    /// No original was given to compare.
    NotCompared,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The image carries no content credentials.
    Absent,
    Read {
        trust: Trust,
        /// The signer's name and organization, as its certificate gives them.
        signer: Option<String>,
        organization: Option<String>,
        /// The software agent of the edit (the service) and IPTC's digital source type.
        agent: Option<String>,
        source_type: Option<String>,
        original: OriginalCheck,
        /// The reader's failure codes, for the log and the curious.
        problems: Vec<String>,
    },
}

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
