//! The host's references (`listing-id`, `photo-id`, `metadata`) on their way: sent with each creation in the
//! `Vstage-Reference` header (`photo-id` with `photo-url`, so that it names the renders of that photo only), and
//! read back from the server for the DOM events about a render (`GET /api/references/{id}`), so that an event
//! says what the render was made for, not what the element says now.

use std::sync::Arc;

use leptos::prelude::*;
use vstage_api::host_reference::{self, HostReference};
use vstage_api::transport::{HttpRequest, Method};

use crate::api::ApiClient;
use crate::host::{Host, use_host};

/// The element's references, as signals (the attributes').
#[derive(Debug, Clone, Copy)]
pub struct HostReferences {
    pub listing_id: Signal<Option<String>>,
    pub photo_id: Signal<Option<String>>,
    /// The photo `photo_id` names.
    pub photo_url: Signal<Option<String>>,
    pub metadata: Signal<Option<String>>,
}

impl HostReferences {
    /// The `Vstage-Reference` header for `request`, when it creates renders and the host gave references; its
    /// `photo_url` tells the server which renders `photo_id` names (those of `photo-url`'s photo). Metadata that
    /// is not within its bounds is left out (`check` told the host).
    fn header_for(&self, request: &HttpRequest) -> Option<String> {
        let path = request.url.split('?').next().unwrap_or_default();
        let creates = ["/v2/renders", "/v2/renders/bulk", "/v1/render/create"].iter().any(|end| path.ends_with(end));
        if request.method != Method::Post || !creates {
            return None;
        }
        let (listing_id, photo_id) = (self.listing_id.get_untracked(), self.photo_id.get_untracked());
        let metadata = self.metadata.get_untracked().and_then(|text| HostReference::metadata_of(&text).ok());
        if listing_id.is_none() && photo_id.is_none() && metadata.is_none() {
            return None;
        }
        let photo_url = photo_id.as_ref().and(self.photo_url.get_untracked());
        let sent = serde_json::json!({
            "listing_id": listing_id, "photo_id": photo_id, "photo_url": photo_url, "metadata": metadata,
        });
        Some(host_reference::ascii_json(&sent.to_string()))
    }
}

/// Has the studio's calls carry the host's references from now on: called by each screen that creates renders,
/// so that this code loads with them, not with the studio's first screen (`api::CreationHeader`). While the
/// screen is shown, the host is told (`vstage-error`) when the `metadata` attribute cannot be sent.
pub fn send_with_creations() {
    crate::api::CreationHeader::install(HostReferences::header_for);
    let (Some(references), Some(host)) = (use_context::<HostReferences>(), use_host()) else { return };
    let metadata = references.metadata;
    Effect::new(move |_| {
        if let Some(Err(problem)) = metadata.get().map(|text| HostReference::metadata_of(&text)) {
            host.error(format!("{problem}; renders are made without it until it is fixed"));
        }
    });
}

/// Tells the host `name` about `render_id` once the render's references are read from the server (none when
/// they cannot be: the event is not held back for them), `detail` made with them.
pub fn emit_about_render<T: serde::Serialize>(
    (api, host): (Arc<ApiClient>, Host),
    name: &'static str,
    render_id: String,
    detail: impl FnOnce(HostReference) -> T + 'static,
) {
    leptos::task::spawn_local(async move {
        let reference = api.host_reference(&render_id).await.unwrap_or_default();
        host.emit(name, &detail(reference));
    });
}
