//! The service's answer as the browser may see it: JSON that parses, or a raster image (JPEG, PNG, WebP) told by
//! its bytes, relayed with a content type of this server's choosing and nothing else of the service's headers. An
//! error becomes this server's own `{"message"}`, the service's sentence kept only when it is short plain text
//! that echoes nothing this server sent. Anything else is a 502.

use axum::body::{Body, Bytes};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, RETRY_AFTER};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use image::ImageFormat;
use serde::de::IgnoredAny;
use vstage_api::Message;

use crate::error::ServerError;
use crate::upstream::http_client::Answer;

/// The headers of the service's answer that are read here (the rest are never kept).
pub const READ_HEADERS: [axum::http::HeaderName; 2] = [CONTENT_TYPE, RETRY_AFTER];

/// The longest sentence of the service's that is passed on.
const MESSAGE_CHARS: usize = 300;

/// Who checks that a successful answer said to be JSON parses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonCheck {
    /// Here, before anything else reads it.
    Here,
    /// Its reader, whose one reading of it is the check (`typed`): the same 502 when it does not parse.
    ByItsReader,
}

/// `answer` as it may be relayed, or why not. `sent` holds what must never come back: the key and every header
/// value this server sent with the call.
pub fn examined(mut answer: Answer, path: &str, sent: &[&[u8]], json: JsonCheck) -> Result<Answer, ServerError> {
    if answer.status.is_redirection() {
        tracing::warn!(status = %answer.status, path, "the service answered with a redirect; not followed");
        return Err(unexpected());
    }
    if !answer.status.is_success() {
        return Ok(own_error(answer, sent));
    }
    if answer.body.is_empty() {
        answer.headers.clear();
        return Ok(answer);
    }
    let content_type = match what_it_is(&answer, json) {
        Some(content_type) => content_type,
        None => {
            // A proxy's error page, say: served under the widget's origin it would be a page of ours.
            tracing::warn!(status = %answer.status, path, "the service answered neither JSON nor a raster image");
            return Err(unexpected());
        }
    };
    answer.headers.clear();
    answer.headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    if content_type.starts_with("image/") {
        crate::inert::as_inert(&mut answer.headers);
    }
    Ok(answer)
}

/// The answer as this server sends it on: status, the chosen headers, the body, never cached.
pub fn relay(answer: Answer) -> Response {
    let mut response = Response::new(Body::from(answer.body));
    *response.status_mut() = answer.status;
    *response.headers_mut() = answer.headers;
    response.headers_mut().insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The content type to relay a successful body under, judged by its bytes: JSON that parses when the service
/// says JSON, or a JPEG, PNG or WebP image when it says image.
fn what_it_is(answer: &Answer, json: JsonCheck) -> Option<&'static str> {
    let declared = answer.headers.get(CONTENT_TYPE).and_then(|value| value.to_str().ok()).unwrap_or_default();
    let essence = declared.split(';').next().unwrap_or_default().trim();
    if essence.eq_ignore_ascii_case("application/json") || ends_with_ignoring_case(essence, "+json") {
        let parses = json == JsonCheck::ByItsReader || serde_json::from_slice::<IgnoredAny>(&answer.body).is_ok();
        return parses.then_some("application/json");
    }
    if starts_with_ignoring_case(essence, "image/") {
        return match image::guess_format(&answer.body).ok()? {
            ImageFormat::Jpeg => Some("image/jpeg"),
            ImageFormat::Png => Some("image/png"),
            ImageFormat::WebP => Some("image/webp"),
            _ => None,
        };
    }
    None
}

fn ends_with_ignoring_case(text: &str, end: &str) -> bool {
    text.len() >= end.len() && text.as_bytes()[text.len() - end.len()..].eq_ignore_ascii_case(end.as_bytes())
}

fn starts_with_ignoring_case(text: &str, start: &str) -> bool {
    text.len() >= start.len() && text.as_bytes()[..start.len()].eq_ignore_ascii_case(start.as_bytes())
}

/// The service's refusal as this server's `{"message"}`. The status stays, but for a 401: the service refusing
/// this server's key is not the caller's credential failing (which the widget would answer by asking its host for
/// a new token).
fn own_error(answer: Answer, sent: &[&[u8]]) -> Answer {
    let status = answer.status;
    let theirs = serde_json::from_slice::<Message>(&answer.body).ok().map(|message| message.message);
    let message = theirs.filter(|message| safe_to_relay(message, sent)).unwrap_or_else(|| said_for(status));
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    let retry_after = answer.headers.get(RETRY_AFTER).filter(|value| value.as_bytes().iter().all(u8::is_ascii_digit));
    if let Some(seconds) = retry_after.filter(|value| !value.is_empty()) {
        headers.insert(RETRY_AFTER, seconds.clone());
    }
    let status = if status == StatusCode::UNAUTHORIZED { StatusCode::BAD_GATEWAY } else { status };
    let body = serde_json::to_vec(&Message { message }).map(Bytes::from).unwrap_or_default();
    Answer { status, headers, body }
}

/// A refusal as a widget token's holder may read it: what the service says of the account (its plan, its photos
/// used: 402 and 403) is the listing site's business, so it is said without the account's figures.
pub fn to_a_token_holder(answer: Answer) -> Answer {
    if !matches!(answer.status.as_u16(), 402 | 403) {
        return answer;
    }
    let message = format!(
        "The listing site's account with the staging service refused this (HTTP {}); its photos for this period \
         may be used up. Ask the listing site.",
        answer.status.as_u16()
    );
    let body = serde_json::to_vec(&Message { message }).map(Bytes::from).unwrap_or_default();
    Answer { body, ..answer }
}

/// Short plain text with nothing in it this server sent (the key, or any stretch of it, or a header's value).
fn safe_to_relay(message: &str, sent: &[&[u8]]) -> bool {
    let plain = !message.trim().is_empty()
        && message.chars().count() <= MESSAGE_CHARS
        && !message.chars().any(|c| c.is_control() || matches!(c, '<' | '>' | '\u{2028}' | '\u{2029}'));
    plain && !sent.iter().any(|value| echoes(message.as_bytes(), value))
}

/// Whether `message` holds `value`, or any 8 bytes in a row of it (a key cut short is still the key).
fn echoes(message: &[u8], value: &[u8]) -> bool {
    let window = value.len().min(8);
    window > 0 && value.windows(window).any(|part| message.windows(window).any(|seen| seen.eq_ignore_ascii_case(part)))
}

/// This server's sentence for a refusal whose own could not be passed on.
fn said_for(status: StatusCode) -> String {
    let code = status.as_u16();
    match code {
        401 => {
            "The staging service did not accept this server's API key; the operator should check VSTAGE_API_KEY.".into()
        }
        402 | 403 => format!("The staging service refused this for the account (HTTP {code})."),
        404 => "The staging service has no such render, variation or analysis; check the address.".into(),
        409 => "The staging service cannot do that yet; wait until the render is done and try again.".into(),
        429 => "The staging service has too many calls from this account just now; wait a moment and try again.".into(),
        500..=599 => format!("The staging service failed (HTTP {code}); try again in a moment."),
        _ => format!("The staging service refused the request (HTTP {code}); check what was sent."),
    }
}

pub fn unexpected() -> ServerError {
    ServerError::BadGateway(
        "The staging service answered with something other than data. Try again in a moment.".into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(status: u16, content_type: &str, body: &[u8]) -> Answer {
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, HeaderValue::from_str(content_type).unwrap());
        Answer { status: StatusCode::from_u16(status).unwrap(), headers, body: Bytes::copy_from_slice(body) }
    }

    fn message(answer: &Answer) -> String {
        serde_json::from_slice::<Message>(&answer.body).unwrap().message
    }

    #[test]
    fn a_refusal_keeps_a_plain_sentence_and_nothing_that_was_sent() {
        let sent: [&[u8]; 2] = [b"sk-secret-key-123456", b"Api-Key sk-secret-key-123456"];
        let kept = examined(
            answer(409, "application/json", br#"{"message": "Render is not done yet."}"#),
            "/",
            &sent,
            JsonCheck::Here,
        );
        assert_eq!(message(&kept.unwrap()), "Render is not done yet.");
        for body in [
            br#"{"message": "bad header Authorization: Api-Key sk-secret-key-123456"}"#.as_slice(),
            br#"{"message": "key sk-secret-k... refused"}"#,
            br#"{"message": "<script>alert(1)</script>"}"#,
            br#"{"message": "line one\nline two"}"#,
            b"<html>Bad gateway</html>",
        ] {
            let answered = examined(answer(401, "application/json", body), "/", &sent, JsonCheck::Here).unwrap();
            assert_eq!(answered.status, StatusCode::BAD_GATEWAY);
            assert!(message(&answered).contains("VSTAGE_API_KEY"), "{}", String::from_utf8_lossy(body));
        }
        let long = format!(r#"{{"message": "{}"}}"#, "x".repeat(MESSAGE_CHARS + 1));
        let answered = examined(answer(400, "application/json", long.as_bytes()), "/", &sent, JsonCheck::Here).unwrap();
        assert!(message(&answered).contains("HTTP 400"));
    }

    #[test]
    fn only_json_and_raster_images_pass_and_images_are_inert() {
        let png = {
            let mut bytes = Vec::new();
            image::RgbImage::new(1, 1).write_to(&mut std::io::Cursor::new(&mut bytes), ImageFormat::Png).unwrap();
            bytes
        };
        let relayed = examined(answer(200, "image/png", &png), "/", &[], JsonCheck::Here).unwrap();
        assert_eq!(relayed.headers[CONTENT_TYPE], "image/png");
        assert!(relayed.headers[axum::http::header::CONTENT_SECURITY_POLICY].to_str().unwrap().contains("sandbox"));
        assert!(
            examined(answer(200, "application/json; charset=utf-8", b"{\"a\": 1}"), "/", &[], JsonCheck::Here).is_ok()
        );
        let svg = br#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#;
        for (content_type, body) in [
            ("image/svg+xml", svg.as_slice()),
            ("image/png", svg.as_slice()),
            ("text/html", b"<p>hi</p>".as_slice()),
            ("application/json", b"{\"a\": "),
            ("application/json", b"<html>"),
        ] {
            assert!(
                matches!(
                    examined(answer(200, content_type, body), "/", &[], JsonCheck::Here),
                    Err(ServerError::BadGateway(_))
                ),
                "{content_type}"
            );
        }
    }
}
