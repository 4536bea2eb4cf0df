//! The host's references (`listing-id`, `photo-id`, `metadata`) on their way: sent with each creation in the
//! `Vstage-Reference` header (`photo-id` only for a render of `photo-url`'s photo), and read back from the server
//! for the DOM events about a render (`GET /api/references/{id}`), so that an event says what the render was made
//! for, not what the element says now.

use leptos::prelude::*;
use serde::Deserialize;
use vstage_api::host_reference::{self, HostReference};
use vstage_api::transport::{HttpRequest, Method};

use crate::api::use_api;
use crate::host::Host;

/// The element's references, as signals (the attributes').
#[derive(Debug, Clone, Copy)]
pub struct HostReferences {
    pub listing_id: Signal<Option<String>>,
    pub photo_id: Signal<Option<String>>,
    /// The photo `photo_id` names.
    pub photo_url: Signal<Option<String>>,
    pub metadata: Signal<Option<String>>,
}

/// The photo addresses of a creation's body, in the order of the renders it makes.
#[derive(Deserialize)]
struct Photos {
    #[serde(default)]
    image_url: Option<String>,
    #[serde(default)]
    renders: Vec<Photo>,
}

#[derive(Deserialize)]
struct Photo {
    #[serde(default)]
    image_url: String,
}

impl HostReferences {
    /// The `Vstage-Reference` header for `request`, when it creates renders and the host gave references: one
    /// object for a render, an array for a bulk creation (each render's `photo_id` by its photo).
    pub fn header_for(&self, request: &HttpRequest) -> Option<String> {
        if request.method != Method::Post {
            return None;
        }
        let path = request.url.split('?').next().unwrap_or_default();
        let bulk = path.ends_with("/v2/renders/bulk");
        if !(bulk || path.ends_with("/v2/renders") || path.ends_with("/v1/render/create")) {
            return None;
        }
        let shared = self.shared();
        let photo_id = self.photo_id.get_untracked();
        if shared.is_empty() && photo_id.is_none() {
            return None;
        }
        let listing_photo = self.photo_url.get_untracked();
        let of_photo = |address: Option<&str>| {
            let ours = address.is_some() && address == listing_photo.as_deref();
            HostReference { photo_id: photo_id.clone().filter(|_| ours), ..shared.clone() }
        };
        // A v1 creation sent as a form names its photo in the file: no photo id.
        let photos = request.body.as_deref().and_then(|body| serde_json::from_slice::<Photos>(body).ok());
        match (bulk, photos) {
            (true, Some(photos)) => {
                let each: Vec<HostReference> =
                    photos.renders.iter().map(|photo| of_photo(Some(&photo.image_url))).collect();
                Some(host_reference::to_header(&each))
            }
            (_, photos) => Some(host_reference::to_header(&of_photo(photos.and_then(|p| p.image_url).as_deref()))),
        }
    }

    /// The listing and the metadata, which every render made here shares. Metadata that is not a flat JSON
    /// object within its bounds is left out (the element said so to the host when it was set: `check`).
    fn shared(&self) -> HostReference {
        HostReference {
            listing_id: self.listing_id.get_untracked(),
            photo_id: None,
            metadata: self.metadata.get_untracked().and_then(|text| HostReference::metadata_of(&text).ok()),
        }
    }

    /// Tells the host, with `vstage-error`, each time the `metadata` attribute becomes something that cannot be
    /// sent (under the studio's owner).
    pub fn check(&self, error: impl Fn(String) + 'static) {
        let metadata = self.metadata;
        Effect::new(move |_| {
            if let Some(Err(problem)) = metadata.get().map(|text| HostReference::metadata_of(&text)) {
                error(format!("{problem}; renders are made without it until it is fixed"));
            }
        });
    }
}

/// Tells the host `name` about `render_id` once the render's references are read from the server (none when
/// they cannot be: the event is not held back for them), `detail` made with them.
pub fn emit_about_render<T: serde::Serialize>(
    host: Host,
    name: &'static str,
    render_id: String,
    detail: impl FnOnce(HostReference) -> T + 'static,
) {
    let api = use_api();
    leptos::task::spawn_local(async move {
        let reference = api.host_reference(&render_id).await.unwrap_or_default();
        host.emit(name, &detail(reference));
    });
}
