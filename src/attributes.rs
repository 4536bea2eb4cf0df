//! The element's attributes (each also a JS property) as signals, so a change after mount reaches the studio:
//! a new token, another view or render, the listing's photo, the language, another server, the host's references.

use leptos::prelude::*;
use web_sys::HtmlElement;

/// The photo the host's listing offers (`photo-url`): a new render starts with it.
#[derive(Debug, Clone, Copy)]
pub struct ListingPhoto(pub Signal<Option<String>>);

/// Every attribute the element observes, as `docs/embedding.md` documents them.
pub const ATTRIBUTES: [&str; 11] = [
    "api-base",
    "token",
    "view",
    "render-id",
    "photo-url",
    "lang",
    "routing",
    "disclosure",
    "listing-id",
    "photo-id",
    "metadata",
];

#[derive(Debug, Clone, Copy)]
pub struct Attributes {
    /// Where `/api` is; `None` means the server the code came from.
    pub api_base: RwSignal<Option<String>>,
    pub token: RwSignal<Option<String>>,
    pub view: RwSignal<Option<String>>,
    pub render_id: RwSignal<Option<String>>,
    pub photo_url: RwSignal<Option<String>>,
    /// The studio's language (`de`, `fr-CA`); else the page's `<html lang>`, else the browser's.
    pub lang: RwSignal<Option<String>>,
    /// `address` on the standalone page: the route follows the page's address. Read at mount only.
    pub routing: RwSignal<Option<String>>,
    /// The disclosure profile of the listing (`ab723`, `smart-mls`, ...), for "Use in listing".
    pub disclosure: RwSignal<Option<String>>,
    /// The host's references, kept with each render made here (`host_reference.rs`): its listing, the id of
    /// `photo-url`'s photo, and a flat JSON object of its own (a property may be set to the object itself).
    pub listing_id: RwSignal<Option<String>>,
    pub photo_id: RwSignal<Option<String>>,
    pub metadata: RwSignal<Option<String>>,
}

impl Attributes {
    /// The element's attributes now (under the studio's owner).
    pub fn read(element: &HtmlElement) -> Self {
        let read = |name: &str| RwSignal::new(element.get_attribute(name).filter(|value| !value.trim().is_empty()));
        Attributes {
            api_base: read("api-base"),
            token: read("token"),
            view: read("view"),
            render_id: read("render-id"),
            photo_url: read("photo-url"),
            lang: read("lang"),
            routing: read("routing"),
            disclosure: read("disclosure"),
            listing_id: read("listing-id"),
            photo_id: read("photo-id"),
            metadata: read("metadata"),
        }
    }

    /// Applies a change; an empty value is no value. Unknown names are ignored (the element observes only ours).
    pub fn set(&self, name: &str, value: Option<String>) {
        let value = value.filter(|value| !value.trim().is_empty());
        let signal = match name {
            "api-base" => self.api_base,
            "token" => self.token,
            "view" => self.view,
            "render-id" => self.render_id,
            "photo-url" => self.photo_url,
            "lang" => self.lang,
            "routing" => self.routing,
            "disclosure" => self.disclosure,
            "listing-id" => self.listing_id,
            "photo-id" => self.photo_id,
            "metadata" => self.metadata,
            _ => return,
        };
        // After the studio was removed the signals are gone; a late change is then nothing to do.
        if signal.try_get_untracked().as_ref() != Some(&value) {
            let _ = signal.try_set(value);
        }
    }
}
