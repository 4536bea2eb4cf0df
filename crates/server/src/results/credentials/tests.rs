//! Credentials signed here and read back by the reference crate's reader: trusted with this server's signer,
//! naming the edit, the service and the original's hash; broken by a changed pixel; an operator's certificate
//! used as given, and one C2PA refuses stopping the start with a sentence.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use super::*;
use crate::storage::store::SignerRecord;

fn jpeg(shade: u8) -> Vec<u8> {
    let mut jpeg = Vec::new();
    let pixels = image::RgbImage::from_fn(64, 48, |x, y| image::Rgb([shade, (x * 3) as u8, (y * 5) as u8]));
    pixels.write_to(&mut Cursor::new(&mut jpeg), image::ImageFormat::Jpeg).unwrap();
    jpeg
}

const STAGED: &str = "http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia";

fn made_here(signer: SignerRecord, maker: &'static str) -> ContentCredentials {
    ContentCredentials::made_here(signer, PathBuf::from("local-authority.pem"), maker).unwrap()
}

fn made() -> Made<'static> {
    Made { format: "image/jpeg", title: "0-url.jpg", source_type: STAGED, description: "Virtually staged." }
}

#[test]
fn a_signed_result_names_the_edit_the_service_and_its_original() {
    let made_signer = authority::make().unwrap();
    let credentials = made_here(made_signer.clone(), "Virtual Staging AI");
    let (original, result) = (jpeg(10), jpeg(200));
    let signed = credentials.sign(&result, &made(), Some(("image/jpeg", &original))).unwrap();
    let Verdict::Read { trust, agent, source_type, original: check, signer, .. } =
        credentials.verify(&signed, "image/jpeg", Some(&original))
    else {
        panic!("credentials are read back")
    };
    assert_eq!(trust, Trust::Trusted);
    assert_eq!((agent.as_deref(), source_type.as_deref()), (Some("Virtual Staging AI"), Some(STAGED)));
    assert_eq!(check, OriginalCheck::Matches);
    assert_eq!(signer.as_deref(), Some("vstage content credentials signer"));
    // another photo is not the one named; a changed image no longer verifies
    let other = credentials.verify(&signed, "image/jpeg", Some(&jpeg(11)));
    assert!(matches!(other, Verdict::Read { original: OriginalCheck::Differs, .. }), "{other:?}");
    let mut changed = signed.clone();
    let at = changed.len() - 40;
    changed[at] ^= 0x55;
    let broken = credentials.verify(&changed, "image/jpeg", Some(&original));
    assert!(matches!(broken, Verdict::Read { trust: Trust::Invalid, .. }), "{broken:?}");
    assert_eq!(credentials.verify(&result, "image/jpeg", None), Verdict::Absent);

    // the same signer on another server of the database; a signer made elsewhere is not trusted here
    let again = made_here(made_signer, "Virtual Staging AI");
    assert!(matches!(again.verify(&signed, "image/jpeg", None), Verdict::Read { trust: Trust::Trusted, .. }));
    let elsewhere = made_here(authority::make().unwrap(), "x");
    assert!(matches!(elsewhere.verify(&signed, "image/jpeg", None), Verdict::Read { trust: Trust::Valid, .. }));
}

#[test]
fn a_result_whose_original_is_not_known_says_it_was_made_by_trained_media() {
    let credentials = made_here(authority::make().unwrap(), "vstage sandbox");
    let signed = credentials.sign(&jpeg(90), &made(), None).unwrap();
    let verdict = credentials.verify(&signed, "image/jpeg", Some(&jpeg(10)));
    let Verdict::Read { trust, source_type, original, .. } = verdict else { panic!("{verdict:?}") };
    assert_eq!((trust, source_type.as_deref(), original), (Trust::Trusted, Some(STAGED), OriginalCheck::NotNamed));
}

/// A chain and key in `dir`, made as an operator's authority would, with `signer` shaping the signer.
fn operators_files(dir: &Path, signer: impl FnOnce(&mut rcgen::CertificateParams)) -> (PathBuf, PathBuf) {
    use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair, PKCS_ECDSA_P256_SHA256};
    let root_key = KeyPair::generate_for(&PKCS_ECDSA_P256_SHA256).unwrap();
    let mut root = CertificateParams::default();
    root.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
    root.key_usages = vec![rcgen::KeyUsagePurpose::KeyCertSign, rcgen::KeyUsagePurpose::CrlSign];
    root.distinguished_name.push(rcgen::DnType::CommonName, "Listings Example Root");
    root.distinguished_name.push(rcgen::DnType::OrganizationName, "Listings Example");
    (root.not_before, root.not_after) = (rcgen::date_time_ymd(2025, 1, 1), rcgen::date_time_ymd(2040, 1, 1));
    let root_pem = root.self_signed(&root_key).unwrap().pem();
    let key = KeyPair::generate_for(&PKCS_ECDSA_P256_SHA256).unwrap();
    let mut params = CertificateParams::default();
    params.distinguished_name.push(rcgen::DnType::CommonName, "Listings Example");
    params.distinguished_name.push(rcgen::DnType::OrganizationName, "Listings Example");
    (params.not_before, params.not_after) = (rcgen::date_time_ymd(2025, 1, 1), rcgen::date_time_ymd(2035, 1, 1));
    signer(&mut params);
    let cert = params.signed_by(&key, &Issuer::new(root, &root_key)).unwrap();
    let (chain, key_file) = (dir.join("chain.pem"), dir.join("key.pem"));
    std::fs::write(&chain, format!("{}{root_pem}", cert.pem())).unwrap();
    std::fs::write(&key_file, key.serialize_pem()).unwrap();
    (chain, key_file)
}

#[tokio::test]
async fn an_operators_certificate_signs_and_one_c2pa_refuses_stops_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let (chain, key) = operators_files(dir.path(), |signer| {
        signer.is_ca = rcgen::IsCa::ExplicitNoCa;
        signer.key_usages = vec![rcgen::KeyUsagePurpose::DigitalSignature];
        signer.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::EmailProtection];
        signer.use_authority_key_identifier_extension = true;
    });
    let credentials = ContentCredentials::operators(&chain, &key, "Virtual Staging AI").unwrap();
    let signed = credentials.sign(&jpeg(30), &made(), None).unwrap();
    let verdict = credentials.verify(&signed, "image/jpeg", None);
    assert!(
        matches!(&verdict, Verdict::Read { trust: Trust::Trusted, signer: Some(name), .. } if name == "Listings Example"),
        "{verdict:?}"
    );

    // a TLS server's certificate is not a C2PA signer
    let (chain, key) = operators_files(dir.path(), |signer| {
        signer.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ServerAuth];
    });
    let refused = ContentCredentials::operators(&chain, &key, "x").unwrap_err().to_string();
    assert!(refused.contains("cannot sign") && refused.contains("emailProtection"), "{refused}");
    // one whose subject names no organization signs, but the reference reader finds the signature invalid
    let (chain, key) = operators_files(dir.path(), |signer| {
        signer.is_ca = rcgen::IsCa::ExplicitNoCa;
        signer.key_usages = vec![rcgen::KeyUsagePurpose::DigitalSignature];
        signer.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::EmailProtection];
        signer.use_authority_key_identifier_extension = true;
        signer.distinguished_name.remove(rcgen::DnType::OrganizationName);
    });
    let refused = ContentCredentials::operators(&chain, &key, "x").unwrap_err().to_string();
    assert!(refused.contains("organization (O=)"), "{refused}");
    let store = crate::storage::open(None, dir.path()).await.unwrap();
    let alone = ContentCredentials::for_server((Some(&chain), None), store.as_ref(), dir.path(), "x").await;
    assert!(alone.unwrap_err().to_string().contains("go together"));
    assert_eq!(store.signer().await.unwrap(), None, "no signer of its own is made for an operator's");
}

#[test]
fn a_copy_drawn_on_a_signed_result_leads_back_to_the_original() {
    let credentials = made_here(authority::make().unwrap(), "Virtual Staging AI");
    let original = jpeg(10);
    let staged = credentials.sign(&jpeg(200), &made(), Some(("image/jpeg", &original))).unwrap();
    let labelled = credentials.sign(&jpeg(201), &made(), Some(("image/jpeg", &staged))).unwrap();
    let verdict = credentials.verify(&labelled, "image/jpeg", Some(&original));
    assert!(
        matches!(verdict, Verdict::Read { trust: Trust::Trusted, original: OriginalCheck::Matches, .. }),
        "{verdict:?}"
    );
}

#[tokio::test]
async fn servers_on_one_database_sign_with_one_signer() {
    let database = tokio::task::spawn_blocking(|| vstage_postgres_cluster::Cluster::fresh_test_database("signer"))
        .await
        .unwrap()
        .expect("a fresh database on the private PostgreSQL cluster");
    let (first_data, second_data) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let first_store = crate::storage::open(Some(&database), first_data.path()).await.unwrap();
    let second_store = crate::storage::open(Some(&database), second_data.path()).await.unwrap();
    let (first, second) = tokio::join!(
        ContentCredentials::for_server((None, None), first_store.as_ref(), first_data.path(), "vstage sandbox"),
        ContentCredentials::for_server((None, None), second_store.as_ref(), second_data.path(), "vstage sandbox"),
    );
    let signed = first.unwrap().sign(&jpeg(60), &made(), None).unwrap();
    let verdict = second.unwrap().verify(&signed, "image/jpeg", None);
    assert!(matches!(verdict, Verdict::Read { trust: Trust::Trusted, .. }), "{verdict:?}");
    let root = |data: &tempfile::TempDir| std::fs::read_to_string(authority::root_file(data.path())).unwrap();
    assert_eq!(root(&first_data), root(&second_data), "each writes the one authority's root for readers");
}
