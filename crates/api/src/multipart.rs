//! One file as `multipart/form-data` (RFC 7578), for `POST /v1/render/create`'s `file` field: the body and its
//! `Content-Type` with the boundary. Names are quoted as browsers quote them; the boundary is random per body.

/// A photo to send as a form's file.
#[derive(Clone, PartialEq, Eq)]
pub struct PhotoFile {
    /// The file's name as the form gives it (`room.jpg`).
    pub name: String,
    /// `image/jpeg`, `image/png`, ...
    pub content_type: String,
    pub bytes: Vec<u8>,
}

impl std::fmt::Debug for PhotoFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PhotoFile({}, {}, {} bytes)", self.name, self.content_type, self.bytes.len())
    }
}

/// The form with `file` as its field `field`, and the `Content-Type` header that goes with it. `random` (0 to 1,
/// from the transport) makes the boundary; a boundary found inside the file is drawn again.
pub fn form(field: &str, file: &PhotoFile, mut random: impl FnMut() -> f64) -> (Vec<u8>, String) {
    let boundary = loop {
        let candidate =
            format!("vstage-{:016x}{:016x}", (random() * u64::MAX as f64) as u64, (random() * u64::MAX as f64) as u64);
        if !file.bytes.windows(candidate.len()).any(|window| window == candidate.as_bytes()) {
            break candidate;
        }
    };
    let mut body = Vec::with_capacity(file.bytes.len() + 256);
    body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
    body.extend_from_slice(
        format!(
            "Content-Disposition: form-data; name=\"{}\"; filename=\"{}\"\r\nContent-Type: {}\r\n\r\n",
            quoted(field),
            quoted(&file.name),
            file.content_type.replace(['\r', '\n'], "")
        )
        .as_bytes(),
    );
    body.extend_from_slice(&file.bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (body, format!("multipart/form-data; boundary={boundary}"))
}

/// A name inside quotes, as the HTML form encoding escapes it (`"` as `%22`, line breaks as `%0D` and `%0A`).
fn quoted(name: &str) -> String {
    name.replace('"', "%22").replace('\r', "%0D").replace('\n', "%0A")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_file_between_boundaries_with_its_name_quoted() {
        let file =
            PhotoFile { name: "my \"room\".jpg".into(), content_type: "image/jpeg".into(), bytes: b"JPEG".to_vec() };
        let (body, content_type) = form("file", &file, || 0.5);
        let boundary = content_type.strip_prefix("multipart/form-data; boundary=").unwrap();
        let text = String::from_utf8(body).unwrap();
        assert_eq!(
            text,
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"my %22room%22.jpg\"\r\n\
                 Content-Type: image/jpeg\r\n\r\nJPEG\r\n--{boundary}--\r\n"
            )
        );
    }

    #[test]
    fn a_boundary_inside_the_file_is_drawn_again() {
        let mut draws = [0.25, 0.25, 0.75, 0.75].into_iter();
        let first =
            form("file", &PhotoFile { name: "a".into(), content_type: "image/png".into(), bytes: vec![] }, || 0.25).1;
        let inside = first.strip_prefix("multipart/form-data; boundary=").unwrap().as_bytes().to_vec();
        let file = PhotoFile { name: "a".into(), content_type: "image/png".into(), bytes: inside.clone() };
        let (_, content_type) = form("file", &file, || draws.next().unwrap_or(0.9));
        assert!(!content_type.ends_with(std::str::from_utf8(&inside).unwrap()));
    }
}
