//! "Use in listing" on a render's finished results, wherever they are shown (the render page, a row of the board),
//! offered only where a listing embeds the studio (the standalone page has none). The variation is read again
//! first, so that the addresses given are the kept copies' when the server keeps them; then it is recorded with the
//! listing's disclosure rules and handed over, naming the render's photo as the one it takes the place of.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::host_events::ResultChosen;

use super::{ListingUse, NotRecorded};
use crate::api::use_api;
use crate::host::{Placement, placement, use_host};
use crate::locale::use_locale;
use crate::render_state::RenderState;

/// "Use in listing" where there is a listing: the callback runs with a variation's id and image, which is marked as
/// in the listing at once (a second click records nothing); `announcement` says it was sent, `refusal` (shown)
/// why the listing's rules kept it out.
pub fn use_in_listing(
    render_id: Signal<String>,
    state: RenderState,
    announcement: RwSignal<String>,
    refusal: RwSignal<Option<String>>,
) -> Option<ListingUse> {
    let (api, locale) = (use_api(), use_locale());
    let host = use_host().filter(|_| placement() == Placement::Embedded)?;
    // a refusal is about the render it was made on
    Effect::new(move |_| {
        render_id.track();
        refusal.set(None);
    });
    let listing = StoredValue::new(None::<ListingUse>);
    let choose = Callback::new(move |(variation_id, image_index): (String, u32)| {
        let Some(listing) = listing.get_value() else { return };
        if listing.placed(&variation_id, image_index) {
            return;
        }
        let displaced = listing.hand(&variation_id, image_index);
        refusal.set(None);
        let original = state.render.with_untracked(|r| r.as_ref().and_then(|r| r.image_url.clone()));
        let known = state.variations.with_untracked(|list| list.iter().find(|v| v.id == variation_id).cloned());
        let (api, host) = (api.clone(), host.clone());
        let profile = super::listing_profile(&host);
        spawn_local(async move {
            let render_id = render_id.get_untracked();
            let fresh = api.get_variation(&render_id, &variation_id).await.ok();
            let Some(chosen) = fresh.or(known).and_then(|v| ResultChosen::of(&v, image_index, original.as_deref()))
            else {
                listing.withdraw(&variation_id, image_index, displaced);
                return;
            };
            let locale = locale.get_untracked();
            let sent = match super::hand_over(&api, &host, chosen, profile, locale).await {
                Ok(placed) => {
                    listing.recorded(&variation_id, image_index, Some(placed));
                    td_string!(locale, studio.detail_sent_to_listing).to_string()
                }
                Err(NotRecorded::PlainCaption(error)) => {
                    td_string!(locale, studio.detail_sent_without_record, reason = error.to_string()).to_string()
                }
                Err(NotRecorded::AgainstRules(error)) => {
                    listing.withdraw(&variation_id, image_index, displaced);
                    let refused = td_string!(locale, studio.detail_not_sent, reason = error.to_string()).to_string();
                    let _ = refusal.try_set(Some(refused));
                    return;
                }
            };
            let _ = announcement.try_set(sent);
        });
    });
    let replaces = Signal::derive(move || state.render.with(|r| r.as_ref().and_then(|r| r.image_url.clone())));
    let made = ListingUse::new(choose, replaces);
    listing.set_value(Some(made));
    Some(made)
}
