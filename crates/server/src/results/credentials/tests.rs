//! Credentials signed here and read back by the reference crate's reader: trusted with this server's signer,
//! naming the edit, the service and the original's hash; broken by a changed pixel; an operator's certificate
//! used as given, and one C2PA refuses stopping the start with a sentence.

use std::path::Path;

use super::*;

fn jpeg(shade: u8) -> Vec<u8> {
    let mut jpeg = Vec::new();
    let pixels = image::RgbImage::from_fn(64, 48, |x, y| image::Rgb([shade, (x * 3) as u8, (y * 5) as u8]));
    pixels.write_to(&mut Cursor::new(&mut jpeg), image::ImageFormat::Jpeg).unwrap();
    jpeg
}

const STAGED: &str = "http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia";

fn made() -> Made<'static> {
    Made { format: "image/jpeg", title: "0-url.jpg", source_type: STAGED, description: "Virtually staged." }
}

#[test]
fn a_signed_result_names_the_edit_the_service_and_its_original() {
    let data = tempfile::tempdir().unwrap();
    let credentials = ContentCredentials::load(None, None, data.path(), "Virtual Staging AI").unwrap();
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

    // the same certificate at the next start; another server's is not trusted here
    let again = ContentCredentials::load(None, None, data.path(), "Virtual Staging AI").unwrap();
    assert!(matches!(again.verify(&signed, "image/jpeg", None), Verdict::Read { trust: Trust::Trusted, .. }));
    let elsewhere = ContentCredentials::load(None, None, tempfile::tempdir().unwrap().path(), "x").unwrap();
    assert!(matches!(elsewhere.verify(&signed, "image/jpeg", None), Verdict::Read { trust: Trust::Valid, .. }));
}

#[test]
fn a_result_whose_original_is_not_known_says_it_was_made_by_trained_media() {
    let data = tempfile::tempdir().unwrap();
    let credentials = ContentCredentials::load(None, None, data.path(), "vstage sandbox").unwrap();
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

#[test]
fn an_operators_certificate_signs_and_one_c2pa_refuses_stops_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let (chain, key) = operators_files(dir.path(), |signer| {
        signer.is_ca = rcgen::IsCa::ExplicitNoCa;
        signer.key_usages = vec![rcgen::KeyUsagePurpose::DigitalSignature];
        signer.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::EmailProtection];
        signer.use_authority_key_identifier_extension = true;
    });
    let credentials = ContentCredentials::load(Some(&chain), Some(&key), dir.path(), "Virtual Staging AI").unwrap();
    assert!(!dir.path().join(authority::FOLDER).exists(), "no certificate of its own is made");
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
    let refused = ContentCredentials::load(Some(&chain), Some(&key), dir.path(), "x").unwrap_err().to_string();
    assert!(refused.contains("cannot sign") && refused.contains("emailProtection"), "{refused}");
    // one whose subject names no organization signs, but the reference reader finds the signature invalid
    let (chain, key) = operators_files(dir.path(), |signer| {
        signer.is_ca = rcgen::IsCa::ExplicitNoCa;
        signer.key_usages = vec![rcgen::KeyUsagePurpose::DigitalSignature];
        signer.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::EmailProtection];
        signer.use_authority_key_identifier_extension = true;
        signer.distinguished_name.remove(rcgen::DnType::OrganizationName);
    });
    let refused = ContentCredentials::load(Some(&chain), Some(&key), dir.path(), "x").unwrap_err().to_string();
    assert!(refused.contains("organization (O=)"), "{refused}");
    let alone = ContentCredentials::load(Some(&chain), None, dir.path(), "x").unwrap_err().to_string();
    assert!(alone.contains("go together"), "{alone}");
}

#[test]
fn a_copy_drawn_on_a_signed_result_leads_back_to_the_original() {
    let data = tempfile::tempdir().unwrap();
    let credentials = ContentCredentials::load(None, None, data.path(), "Virtual Staging AI").unwrap();
    let original = jpeg(10);
    let staged = credentials.sign(&jpeg(200), &made(), Some(("image/jpeg", &original))).unwrap();
    let labelled = credentials.sign(&jpeg(201), &made(), Some(("image/jpeg", &staged))).unwrap();
    let verdict = credentials.verify(&labelled, "image/jpeg", Some(&original));
    assert!(
        matches!(verdict, Verdict::Read { trust: Trust::Trusted, original: OriginalCheck::Matches, .. }),
        "{verdict:?}"
    );
}
