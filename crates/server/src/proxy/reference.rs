//! The host's references a creation is sent with (the `Vstage-Reference` header, `vstage_api::host_reference`):
//! read and checked before anything is charged or sent, one for each render the creation makes.

use axum::http::{HeaderMap, HeaderName};
use vstage_api::host_reference::{self, HostReference};

use crate::error::ServerError;
use crate::proxy::call::Call;

/// The header, by name: looked up by a `&str`, its name is hashed afresh on every call.
const HEADER: HeaderName = HeaderName::from_static(host_reference::HEADER);

/// The header's text, when the call has it once: twice, or not in visible ASCII, is refused with what to send.
pub fn sent(headers: &HeaderMap) -> Result<Option<String>, ServerError> {
    let mut values = headers.get_all(&HEADER).iter();
    let Some(value) = values.next() else { return Ok(None) };
    if values.next().is_some() {
        return Err(ServerError::BadRequest("Vstage-Reference is given twice; give it once.".into()));
    }
    let text = value.to_str().map_err(|_| {
        ServerError::BadRequest(
            "Vstage-Reference is not ASCII: write other characters as JSON's \\u escapes (\\u00e9 for é).".into(),
        )
    })?;
    Ok(Some(text.to_string()))
}

/// The listing a query of renders asks for (`listing_id`, ours beside the contract's `limit`, `cursor`, `order`):
/// paged from the server's records, never sent to the service.
pub fn listing_asked(query: &str) -> Result<Option<String>, ServerError> {
    #[derive(serde::Deserialize)]
    struct Asked {
        listing_id: Option<String>,
    }
    let asked: Asked = crate::proxy::call::read_query(query)?;
    match asked.listing_id {
        Some(id) if !host_reference::is_id(&id) => Err(ServerError::BadRequest(
            "listing_id is empty, longer than 128 characters, or holds a control character; give the listing's id."
                .into(),
        )),
        other => Ok(other),
    }
}

/// The references of each render `call` makes, from the header's text (all `None` without it); none for a call
/// that makes no render, whose header is not read.
pub fn of_call(call: &Call, sent: Option<&str>) -> Result<Vec<HostReference>, ServerError> {
    let photos: Vec<Option<&str>> = match call {
        Call::CreateRender(body) => vec![Some(body.image_url.as_str())],
        Call::V1Create { arguments, .. } => vec![arguments.image_url.as_deref()],
        Call::CreateRenders(body) => body.renders.iter().map(|render| Some(render.image_url.as_str())).collect(),
        _ => return Ok(Vec::new()),
    };
    match sent {
        Some(text) => host_reference::of_header(text, &photos).map_err(|e| ServerError::BadRequest(e.to_string())),
        None => Ok(vec![HostReference::default(); photos.len()]),
    }
}

/// The references every render shares, when there are some: what a delivery that comes before the answer can
/// give the render it adopts.
pub fn shared(references: &[HostReference]) -> Option<&HostReference> {
    let first = references.first().filter(|first| !first.is_empty())?;
    references.iter().all(|other| other == first).then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shared_reference_is_the_one_all_have() {
        let listing = |id: &str| HostReference { listing_id: Some(id.into()), ..HostReference::default() };
        assert_eq!(shared(&[listing("a"), listing("a")]), Some(&listing("a")));
        assert_eq!(shared(&[listing("a"), listing("b")]), None);
        assert_eq!(shared(&[HostReference::default()]), None, "nothing to remember");
        assert_eq!(shared(&[]), None);
    }

    #[test]
    fn a_header_given_twice_or_not_in_ascii_is_refused() {
        let mut headers = HeaderMap::new();
        headers.append(host_reference::HEADER, "{}".parse().unwrap());
        assert_eq!(sent(&headers).unwrap().as_deref(), Some("{}"));
        headers.append(host_reference::HEADER, "{}".parse().unwrap());
        assert!(sent(&headers).unwrap_err().to_string().contains("twice"));
        let mut latin = HeaderMap::new();
        latin.insert(
            host_reference::HEADER,
            axum::http::HeaderValue::from_bytes(b"{\"listing_id\": \"\xe9\"}").unwrap(),
        );
        assert!(sent(&latin).unwrap_err().to_string().contains("\\u"));
    }
}
