//! The photo's furniture, before it is staged: the service's analysis (`crate::furnishing`) is asked once the photo's
//! address has stood still a moment (typing one asks nothing a key), and beside the photo a sentence says what
//! staging will do: remove the furniture of a furnished room first (the form's staging starts so), or stage an
//! empty room as it is.

use std::time::Duration;

use leptos::prelude::*;
use leptos::task::spawn_local;
use vstage_api::{RemovalMode, RoomType};

use super::model::other_views;
use super::state::NewRenderForm;
use crate::api::use_api;
use crate::config_draft::{ConfigDraft, Kind};
use crate::draft_defaults::{Defaults, keep_defaults, listing_mark};
use crate::furnishing::{self, Furnishing};
use crate::locale::use_locale;

/// The form's defaults from what the studio knows (`crate::draft_defaults`): the listing's mark, and the furniture
/// of the photo removed first when its analysis finds some; with what the analysis says now, and whether the form
/// waits for it (a configuration stages the photo, whose furniture is not known yet: nothing is charged before).
pub fn staging_defaults(form: NewRenderForm) -> (Signal<Option<Furnishing>>, Signal<bool>) {
    let furnishing = follow_furnishing(form.image_url);
    let mark = listing_mark();
    // several views of one room are staged with their furniture kept (the service's multi-view rule)
    let one_photo = move || other_views(&form.views.get()).is_empty();
    let removal = move || furnishing.get().filter(|_| one_photo()).map_or(RemovalMode::Off, Furnishing::removal);
    keep_defaults(form.drafts, Signal::derive(move || Defaults { mark: mark.get(), removal: removal() }));
    let checking = Signal::derive(move || {
        let stages = form.drafts.with(|list| list.iter().any(|(_, draft)| draft.kind == Kind::Staging));
        let photo = !form.image_url.with(|url| url.trim().is_empty());
        stages && one_photo() && photo && !furnishing.get().is_some_and(Furnishing::is_known)
    });
    (furnishing, checking)
}

/// How long the address stands still before the analysis is asked.
const SETTLE: Duration = Duration::from_millis(400);

/// What the analysis says of the photo at `image_url` now: `None` without a photo.
fn follow_furnishing(image_url: RwSignal<String>) -> Signal<Option<Furnishing>> {
    let api = use_api();
    let known = RwSignal::new(None::<(String, Furnishing)>);
    let timer = StoredValue::new(None::<TimeoutHandle>);
    Effect::new(move |_| {
        let address = image_url.get().trim().to_string();
        if let Some(handle) = timer.get_value() {
            handle.clear();
        }
        if address.is_empty() || known.with_untracked(|known| known.as_ref().is_some_and(|(at, _)| *at == address)) {
            return;
        }
        known.set(Some((address.clone(), Furnishing::Checking)));
        let api = api.clone();
        let ask = move || {
            spawn_local(async move {
                let found = furnishing::check(&api, &address).await;
                let _ = known.try_update(|known| {
                    if known.as_ref().is_some_and(|(at, _)| *at == address) {
                        *known = Some((address, found));
                    }
                });
            })
        };
        timer.set_value(set_timeout_with_handle(ask, SETTLE).ok());
    });
    on_cleanup(move || {
        if let Some(handle) = timer.try_get_value().flatten() {
            handle.clear();
        }
    });
    Signal::derive(move || {
        let address = image_url.get();
        known.with(|known| known.as_ref().filter(|(at, _)| at == address.trim()).map(|(_, found)| *found))
    })
}

/// What staging will do with the photo's furniture, said while a configuration stages it.
#[component]
pub fn FurnitureNote(
    furnishing: Signal<Option<Furnishing>>,
    drafts: RwSignal<Vec<(u32, ConfigDraft)>>,
) -> impl IntoView {
    let locale = use_locale();
    let staging = move || {
        drafts.with(|list| list.iter().any(|(_, d)| d.kind == Kind::Staging && d.room_type != RoomType::Outdoor))
    };
    let kept = move || drafts.with(|list| list.iter().any(|(_, draft)| furniture_kept(draft)));
    move || {
        let found = furnishing.get().filter(|_| staging())?;
        Some(view! { <p class="vstage-hint vstage-furnishing" role="status">{found.words(locale.get(), kept())}</p> })
    }
}

/// Whether `draft` stages the room with the furniture there is.
fn furniture_kept(draft: &ConfigDraft) -> bool {
    draft.kind == Kind::Staging && draft.base_variation_id.is_none() && draft.removal == RemovalMode::Off
}
