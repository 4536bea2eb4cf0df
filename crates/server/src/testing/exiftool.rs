//! exiftool, the reference reader of photo metadata, over a file's bytes: every tag it finds in every group
//! (`-a -G1 -s`, unknown ones too, embedded files read), with its warnings (about data after the end, among
//! others); and the check that a file keeps nothing of a photo's metadata but what draws it.

use serde_json::{Map, Value};

use super::phone::SECRETS;

/// Every tag exiftool finds in `bytes`, by `Group:Name` (a tag found again gets ` (n)` after its name).
pub fn tags(bytes: &[u8]) -> Map<String, Value> {
    let file = tempfile::NamedTempFile::new().expect("a temporary file");
    std::fs::write(file.path(), bytes).expect("the photo written");
    let output = std::process::Command::new("exiftool")
        .args(["-j", "-a", "-G1", "-s", "-u", "-ee", "-b"])
        .arg(file.path())
        .output()
        .expect("exiftool (Debian's libimage-exiftool-perl, installed by `cargo xtask setup`)");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let found: Value = serde_json::from_slice(&output.stdout).expect("exiftool's JSON");
    found[0].as_object().expect("one file's tags").clone()
}

/// The groups whose tags say only how the image is drawn (or are exiftool's own, or the file's).
const DRAWING_GROUPS: [&str; 10] =
    ["ExifTool", "System", "File", "JFIF", "ICC-header", "ICC_Profile", "Composite", "PNG", "RIFF", "Adobe"];

/// Asserts that exiftool finds in `bytes` nothing but how the image is drawn: no group of metadata (EXIF but its
/// orientation, GPS, maker notes, XMP, IPTC, JUMBF/C2PA, MPF, trailers, thumbnails), no warning, and none of the
/// words of `SECRETS` anywhere in the file.
pub fn assert_drawing_only(bytes: &[u8], what: &str) {
    let tags = tags(bytes);
    for (name, value) in &tags {
        let group = name.split(':').next().unwrap_or_default();
        let orientation = name == "IFD0:Orientation" || name == "SourceFile";
        assert!(DRAWING_GROUPS.contains(&group) || orientation, "{what}: exiftool finds {name} = {value}");
        assert!(!name.contains("Warning") && !name.contains("Thumbnail"), "{what}: exiftool says {name} = {value}");
        // (an ICC profile's header has a device's maker and model fields, for the display it describes)
        for word in ["GPS", "Serial", "Make", "Model", "XMP", "Trailer", "Location", "MPImage"] {
            assert!(group.starts_with("ICC") || !name.contains(word), "{what}: exiftool finds {name} = {value}");
        }
    }
    for secret in SECRETS {
        let found = bytes.windows(secret.len()).any(|window| window == secret.as_bytes());
        assert!(!found, "{what}: {secret:?} is still in the file");
    }
}
