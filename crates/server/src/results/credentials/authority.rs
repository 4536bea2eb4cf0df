//! The signing certificate a server makes at first start when its operator gives none: a local authority (a root
//! that signs nothing but its signer) and a signer under it, as C2PA asks of a signing certificate (version 3, an
//! authority key identifier, key usage `digitalSignature`, extended key usage `emailProtection`, not an authority,
//! ECDSA on P-256, a subject that names its organization). A self-signed signer is what the C2PA specification
//! forbids, so the root is separate. Kept in the database, so that every server on it signs as one and a result
//! kept by one verifies on another's pages; the root is also written to the data folder, to hand to readers.

use std::path::{Path, PathBuf};

use anyhow::Context;
use chrono::Datelike;
use rcgen::{
    BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose, PKCS_ECDSA_P256_SHA256,
};

use crate::storage::store::{SignerRecord, Store};

/// Where the local authority's root is written in the data folder.
pub fn root_file(data_dir: &Path) -> PathBuf {
    data_dir.join("content-credentials").join("local-authority.pem")
}

/// The signer kept in `store`, made and kept the first time (the first kept wins among servers starting
/// together); its root written to `data_dir`.
pub async fn kept(store: &dyn Store, data_dir: &Path) -> anyhow::Result<SignerRecord> {
    let signer = match store.signer().await? {
        Some(signer) => signer,
        None => store.keep_signer(&make().context("making the content credentials' signing certificate")?).await?,
    };
    let root = root_file(data_dir);
    if let Some(folder) = root.parent() {
        std::fs::create_dir_all(folder).with_context(|| format!("creating {}", folder.display()))?;
    }
    std::fs::write(&root, &signer.root_pem).with_context(|| format!("writing {}", root.display()))?;
    Ok(signer)
}

fn name(common_name: &str) -> DistinguishedName {
    let mut name = DistinguishedName::new();
    name.push(DnType::CommonName, common_name);
    name.push(DnType::OrganizationName, "vstage (made by this server)");
    name
}

/// A root valid for 20 years and a signer under it valid for 10: without a time-stamping authority a reader checks
/// the signer against today's date, so a short validity would make every kept result's credentials expire with it.
pub fn make() -> anyhow::Result<SignerRecord> {
    let today = chrono::Utc::now().date_naive();
    let valid_from = rcgen::date_time_ymd(today.year(), today.month() as u8, today.day() as u8);
    let until = |years: i32| rcgen::date_time_ymd(today.year() + years, today.month() as u8, today.day().min(28) as u8);

    let root_key = KeyPair::generate_for(&PKCS_ECDSA_P256_SHA256)?;
    let mut root = CertificateParams::default();
    root.distinguished_name = name("vstage local content credentials authority");
    root.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
    root.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    (root.not_before, root.not_after) = (valid_from, until(20));
    let root_pem = root.self_signed(&root_key)?.pem();
    let issuer = Issuer::new(root, &root_key);

    let signer_key = KeyPair::generate_for(&PKCS_ECDSA_P256_SHA256)?;
    let mut signer = CertificateParams::default();
    signer.distinguished_name = name("vstage content credentials signer");
    signer.is_ca = IsCa::ExplicitNoCa;
    signer.key_usages = vec![KeyUsagePurpose::DigitalSignature];
    signer.extended_key_usages = vec![ExtendedKeyUsagePurpose::EmailProtection];
    signer.use_authority_key_identifier_extension = true;
    (signer.not_before, signer.not_after) = (valid_from, until(10));
    let chain_pem = signer.signed_by(&signer_key, &issuer)?.pem();
    Ok(SignerRecord { chain_pem, key_pem: signer_key.serialize_pem(), root_pem })
}
