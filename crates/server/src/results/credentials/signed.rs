//! Content credentials made and checked with the `c2pa` crate: the signer (the operator's certificate or the one
//! made here, `authority`), checked at start by signing a small image and reading it back, and the manifest each
//! kept image is signed with.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use c2pa::assertions::DigitalSourceType;
use c2pa::{BoxedSigner, Builder, BuilderIntent, Context, SigningAlg, create_signer};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::reading::{self, ORIGINAL_SHA256};
use super::{Made, Trust, Verdict, authority};
use crate::storage::store::{SignerRecord, Store};

/// Who signs the credentials.
#[derive(Debug, Clone)]
pub enum Signer {
    /// The operator's certificate, from this file.
    Operator(PathBuf),
    /// A certificate a server on this database made at first start, under the local authority written to this
    /// file.
    MadeHere(PathBuf),
}

pub struct ContentCredentials {
    /// The signer's key with its certificate chain, made once, in the first algorithm that works with it.
    signing: BoxedSigner,
    /// The reader's trust settings: the signer's authority as an anchor, or the signer itself when it has none.
    trust: Value,
    pub signer: Signer,
    /// What made the results: the service, or the embedded sandbox in its place.
    maker: &'static str,
}

impl std::fmt::Debug for ContentCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ContentCredentials").field("signer", &self.signer).field("maker", &self.maker).finish()
    }
}

impl ContentCredentials {
    /// The operator's certificate chain and key (both or neither), or else the signer this server made at first
    /// start, kept in `store` for every server on it (`authority`); checked by signing a small image and reading
    /// it back, so that a certificate C2PA refuses stops the start with a sentence rather than every result later.
    pub async fn for_server(
        (cert, key): (Option<&Path>, Option<&Path>),
        store: &dyn Store,
        data_dir: &Path,
        maker: &'static str,
    ) -> anyhow::Result<Self> {
        match (cert, key) {
            (Some(cert), Some(key)) => ContentCredentials::operators(cert, key, maker),
            (None, None) => {
                let signer = authority::kept(store, data_dir).await?;
                ContentCredentials::made_here(signer, authority::root_file(data_dir), maker)
            }
            _ => bail!(
                "--c2pa-cert and --c2pa-key go together: give both (the signer's certificate chain, signer first, \
                 and its PKCS#8 private key, as PEM files) or neither, and this server makes its own"
            ),
        }
    }

    /// Signing with the operator's chain (PEM, signer first) and key (PKCS#8 PEM), trusting the chain's authorities
    /// (or the signer itself when it comes alone).
    pub fn operators(cert: &Path, key: &Path, maker: &'static str) -> anyhow::Result<Self> {
        let read = |path: &Path| std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()));
        let chain_pem = read(cert)?;
        let anchors = certificates(&chain_pem).into_iter().skip(1).collect::<String>();
        let trust = match anchors.is_empty() {
            true => json!({"allowed_list": certificates(&chain_pem).into_iter().next().unwrap_or_default()}),
            false => json!({"user_anchors": anchors}),
        };
        ContentCredentials::checked(chain_pem, read(key)?, trust, Signer::Operator(cert.to_path_buf()), maker)
    }

    /// Signing with a signer made by a server (`authority`), trusting its root (written to `root_file`).
    pub fn made_here(signer: SignerRecord, root_file: PathBuf, maker: &'static str) -> anyhow::Result<Self> {
        let trust = json!({"user_anchors": signer.root_pem});
        ContentCredentials::checked(signer.chain_pem, signer.key_pem, trust, Signer::MadeHere(root_file), maker)
    }

    fn checked(
        chain_pem: String,
        key_pem: String,
        trust: Value,
        signer: Signer,
        maker: &'static str,
    ) -> anyhow::Result<Self> {
        let signing = usable_signer((&chain_pem, &key_pem), &trust, maker)?;
        Ok(ContentCredentials { signing, trust, signer, maker })
    }

    /// `bytes` with a manifest saying what `made` says, and `original` (its bytes as kept) as the parent.
    pub fn sign(&self, bytes: &[u8], made: &Made<'_>, original: Option<(&str, &[u8])>) -> Result<Vec<u8>, String> {
        sign_with(&*self.signing, self.maker, bytes, made, original)
    }

    /// What a reader makes of `bytes`' credentials, trusting this server's signer, with `original` (as kept) to
    /// compare with the parent the credentials name.
    pub fn verify(&self, bytes: &[u8], format: &str, original: Option<&[u8]>) -> Verdict {
        reading::read(bytes, format, &self.trust, original)
    }

    /// One line for `vstage check`.
    pub fn describe(&self) -> String {
        match &self.signer {
            Signer::Operator(cert) => format!("content credentials (C2PA): signed with {}", cert.display()),
            Signer::MadeHere(root) => format!(
                "content credentials (C2PA): signed with a certificate this server made at first start, kept in \
                 the database for every server on it (its authority's root: {}); readers elsewhere do not trust \
                 it: give --c2pa-cert and --c2pa-key for credentials a listing's readers can trust",
                root.display()
            ),
        }
    }
}

/// The key of `chain_pem` and `key_pem` in the first algorithm it signs a small image with, which the reference
/// reader then finds valid (it asks more than signing does); or why there is none.
fn usable_signer(
    (chain_pem, key_pem): (&str, &str),
    trust: &Value,
    maker: &'static str,
) -> anyhow::Result<BoxedSigner> {
    let sample = sample_jpeg();
    let source_type = crate::results::provenance::source_type(None);
    let made = Made { format: "image/jpeg", title: "check.jpg", source_type, description: "a check" };
    let mut last = String::new();
    for algorithm in [SigningAlg::Es256, SigningAlg::Es384, SigningAlg::Es512, SigningAlg::Ps256, SigningAlg::Ed25519] {
        let made_and_signed = create_signer::from_keys(chain_pem.as_bytes(), key_pem.as_bytes(), algorithm, None)
            .map_err(|error| error.to_string())
            .and_then(|signing| Ok((sign_with(&*signing, maker, &sample, &made, None)?, signing)));
        let (signed, signing) = match made_and_signed {
            Ok(made_and_signed) => made_and_signed,
            Err(error) => {
                last = error;
                continue;
            }
        };
        if let Verdict::Read { trust: Trust::Invalid, problems, .. } = reading::read(&signed, made.format, trust, None)
        {
            bail!(
                "content credentials signed with this certificate do not verify ({}); the reference reader asks the \
                 signer's subject to name its organization (O=), and a chain that leads to it",
                problems.join(", ")
            );
        }
        return Ok(signing);
    }
    bail!(
        "the content credentials' certificate cannot sign ({last}). C2PA asks for an X.509 v3 signer that is not an \
         authority, with an authority key identifier, key usage digitalSignature and an extended key usage such as \
         emailProtection or documentSigning, its chain in PEM (signer first) and its key as PKCS#8 PEM \
         (`openssl pkcs8 -topk8 -nocrypt` converts one)"
    )
}

/// `bytes` with a manifest signed by `signing`: what `made` says, done by `maker`, with `original` (its media
/// type and bytes as kept) as the parent when known.
fn sign_with(
    signing: &dyn c2pa::Signer,
    maker: &str,
    bytes: &[u8],
    made: &Made<'_>,
    original: Option<(&str, &[u8])>,
) -> Result<Vec<u8>, String> {
    let failed = |error: c2pa::Error| error.to_string();
    let context = Context::new().with_settings(json!({"builder": {"thumbnail": {"enabled": false}}}));
    let mut builder = Builder::from_context(context.map_err(failed)?)
        .with_definition(json!({
            "title": made.title,
            "format": made.format,
            "claim_generator_info": [{"name": "vstage", "version": env!("CARGO_PKG_VERSION")}],
        }))
        .map_err(failed)?;
    let source_type: DigitalSourceType =
        serde_json::from_value(json!(made.source_type)).unwrap_or(DigitalSourceType::TrainedAlgorithmicData);
    let mut edited = json!({
        "action": "c2pa.edited",
        "digitalSourceType": made.source_type,
        "softwareAgent": {"name": maker},
        "description": made.description,
    });
    match original {
        Some((format, original)) => {
            builder.set_intent(BuilderIntent::Edit);
            let ingredient = json!({
                "title": "original photo",
                "relationship": "parentOf",
                "label": "original",
                "metadata": {ORIGINAL_SHA256: hex::encode(Sha256::digest(original))},
            });
            builder
                .add_ingredient_from_stream(ingredient.to_string(), format, &mut Cursor::new(original))
                .map_err(failed)?;
            edited["parameters"] = json!({"ingredientIds": ["original"]});
        }
        None => {
            builder.set_intent(BuilderIntent::Create(source_type));
            edited["action"] = json!("c2pa.created");
        }
    }
    builder.add_action(edited).map_err(failed)?;
    let mut signed = Cursor::new(Vec::with_capacity(bytes.len() + 32 * 1024));
    builder.sign(signing, made.format, &mut Cursor::new(bytes), &mut signed).map_err(failed)?;
    Ok(signed.into_inner())
}

/// Each certificate of a PEM chain, in order.
fn certificates(chain_pem: &str) -> Vec<String> {
    const END: &str = "-----END CERTIFICATE-----";
    chain_pem.split_inclusive(END).filter(|part| part.contains(END)).map(|part| format!("{}\n", part.trim())).collect()
}

/// An 8×8 JPEG to sign when checking a certificate.
fn sample_jpeg() -> Vec<u8> {
    let mut jpeg = Vec::new();
    let pixels = image::RgbImage::from_pixel(8, 8, image::Rgb([120, 140, 160]));
    let _ = pixels.write_to(&mut Cursor::new(&mut jpeg), image::ImageFormat::Jpeg);
    jpeg
}
