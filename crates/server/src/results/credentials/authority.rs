//! The signing certificate a server makes at first start when its operator gives none: a local authority (a root
//! that signs nothing but its signer) and a signer under it, as C2PA asks of a signing certificate (version 3, an
//! authority key identifier, key usage `digitalSignature`, extended key usage `emailProtection`, not an authority,
//! ECDSA on P-256), kept in the data folder so that every result this server signs names the same signer.
//! A self-signed signer is what the C2PA specification forbids, so the root is separate.

use std::path::{Path, PathBuf};

use anyhow::Context;
use chrono::Datelike;
use rcgen::{
    BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose, PKCS_ECDSA_P256_SHA256,
};

/// The folder in the data folder, and its files.
pub const FOLDER: &str = "content-credentials";
const CHAIN: &str = "signer.pem";
const KEY: &str = "signer-key.pem";
const ROOT: &str = "local-authority.pem";

/// A signer's certificate chain (signer first), its PKCS#8 private key, and the root to trust it by (PEM each).
pub struct Certificates {
    pub chain_pem: String,
    pub key_pem: String,
    pub root_pem: String,
}

/// The certificates kept in `data_dir`, made there the first time.
pub fn kept_in(data_dir: &Path) -> anyhow::Result<Certificates> {
    let folder = data_dir.join(FOLDER);
    let read = |name: &str| std::fs::read_to_string(folder.join(name));
    if let (Ok(chain_pem), Ok(key_pem), Ok(root_pem)) = (read(CHAIN), read(KEY), read(ROOT)) {
        return Ok(Certificates { chain_pem, key_pem, root_pem });
    }
    let made = make().context("making the content credentials' signing certificate")?;
    std::fs::create_dir_all(&folder).with_context(|| format!("creating {}", folder.display()))?;
    write_private(&folder.join(KEY), &made.key_pem)?;
    for (name, pem) in [(CHAIN, &made.chain_pem), (ROOT, &made.root_pem)] {
        std::fs::write(folder.join(name), pem).with_context(|| format!("writing {}", folder.join(name).display()))?;
    }
    Ok(made)
}

/// Where the local authority's root is kept, for `vstage check` to name.
pub fn root_file(data_dir: &Path) -> PathBuf {
    data_dir.join(FOLDER).join(ROOT)
}

fn write_private(path: &Path, pem: &str) -> anyhow::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("writing {}", path.display()))?;
    file.write_all(pem.as_bytes()).with_context(|| format!("writing {}", path.display()))
}

fn name(common_name: &str) -> DistinguishedName {
    let mut name = DistinguishedName::new();
    name.push(DnType::CommonName, common_name);
    name.push(DnType::OrganizationName, "vstage (made by this server)");
    name
}

/// A root valid for 20 years and a signer under it valid for 10: without a time-stamping authority a reader checks
/// the signer against today's date, so a short validity would make every kept result's credentials expire with it.
fn make() -> anyhow::Result<Certificates> {
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
    Ok(Certificates { chain_pem, key_pem: signer_key.serialize_pem(), root_pem })
}
