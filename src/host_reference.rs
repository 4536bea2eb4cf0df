//! The host's references (`listing-id`, `photo-id`, `metadata`) on their way: sent with each creation in the
//! `Vstage-Reference` header (`photo-id` with `photo-url`, so that it names the renders of that photo only), and
//! read back from the server for the DOM events about a render (`GET /api/references/{id}`), so that an event
//! says what the render was made for, not what the element says now.

use std::sync::Arc;

use leptos::prelude::*;
use vstage_api::host_reference::{self, HostReference};

use crate::api::ApiClient;
use crate::host::{Host, use_host};

/// The element's references: its attributes' own signals.
#[derive(Debug, Clone, Copy)]
pub struct HostReferences {
    pub listing_id: RwSignal<Option<String>>,
    pub photo_id: RwSignal<Option<String>>,
    /// The photo `photo_id` names.
    pub photo_url: RwSignal<Option<String>>,
    pub metadata: RwSignal<Option<String>>,
    /// The `Vstage-Reference` header's value made of the above, `None` when the host gave none: kept by the
    /// screens that create renders (`send_with_creations`), so that its making loads with them, not with the
    /// studio's first screen; the transport adds it to each creation.
    pub header: RwSignal<Option<String>>,
}

impl HostReferences {
    /// The header's value for the references as they are now; its `photo_url` tells the server which renders
    /// `photo_id` names (those of `photo-url`'s photo). Metadata that is not within its bounds is left out
    /// (`send_with_creations` told the host).
    fn header_now(&self) -> Option<String> {
        let (listing_id, photo_id) = (self.listing_id.get(), self.photo_id.get());
        let metadata = self.metadata.get().and_then(|text| HostReference::metadata_of(&text).ok());
        if listing_id.is_none() && photo_id.is_none() && metadata.is_none() {
            return None;
        }
        let photo_url = photo_id.as_ref().and(self.photo_url.get());
        let sent = serde_json::json!({
            "listing_id": listing_id, "photo_id": photo_id, "photo_url": photo_url, "metadata": metadata,
        });
        Some(host_reference::ascii_json(&sent.to_string()))
    }
}

/// The element's `listing-id` attribute (none on the standalone page): the lists of renders show only those made
/// for its value.
pub fn listing_id() -> Option<RwSignal<Option<String>>> {
    use_context::<HostReferences>().map(|references| references.listing_id)
}

/// Keeps the header the studio's creations carry true to the element's references while the calling screen (one
/// that creates renders) is shown, and tells the host (`vstage-error`) when the `metadata` attribute cannot be
/// sent.
pub fn send_with_creations() {
    let Some(references) = use_context::<HostReferences>() else { return };
    Effect::new(move |_| references.header.set(references.header_now()));
    let Some(host) = use_host() else { return };
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
        let reference = reference_of(&api, &render_id).await;
        host.emit(name, &detail(reference));
    });
}

/// The most renders whose references a page remembers.
const REMEMBERED: usize = 256;

thread_local! {
    /// The references read, by server and render: kept by the server as they were sent with the creation and
    /// never changed, so each render's are read once a page, not once an event.
    static READ: std::cell::RefCell<std::collections::HashMap<(String, String), HostReference>> = Default::default();
}

/// `render_id`'s references as the server keeps them, read once; none when they cannot be read now (read again
/// for the next event).
async fn reference_of(api: &ApiClient, render_id: &str) -> HostReference {
    let key = (api.base_url().to_string(), render_id.to_string());
    if let Some(known) = READ.with_borrow(|read| read.get(&key).cloned()) {
        return known;
    }
    let Ok(reference) = api.host_reference(render_id).await else { return HostReference::default() };
    READ.with_borrow_mut(|read| {
        if read.len() >= REMEMBERED {
            read.clear();
        }
        read.insert(key, reference.clone());
    });
    reference
}
