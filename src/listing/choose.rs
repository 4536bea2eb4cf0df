//! "Use in listing" on a render's finished results, wherever they are shown (the render page, a row of the board),
//! offered only where a listing embeds the studio (the standalone page has none). The variation is read again
//! first, so that the addresses given are the kept copies' when the server keeps them; then it is recorded with the
//! listing's disclosure rules and handed over, naming the render's photo as the one it takes the place of.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::Variation;
use vstage_api::disclosure::DisclosureProfile;
use vstage_api::host_events::ResultChosen;

use super::placed::Placed;
use super::{ListingUse, NotRecorded};
use crate::api::{ApiClient, use_api};
use crate::chunks::{ChunkError, chunk};
use crate::host::{Host, Placement, placement, use_host};
use crate::locale::{Locale, use_locale};
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
        let choice = Choice {
            render_id: render_id.get_untracked(),
            original: state.render.with_untracked(|r| r.as_ref().and_then(|r| r.image_url.clone())),
            known: state.variations.with_untracked(|list| list.iter().find(|v| v.id == variation_id).cloned()),
            variation_id,
            image_index,
            displaced,
            profile: super::listing_profile(&host),
            locale: locale.get_untracked(),
        };
        let said = Said { announcement, refusal };
        let (api, host) = (api.clone(), host.clone());
        spawn_local(async move {
            let (variation_id, image_index, displaced) =
                (choice.variation_id.clone(), choice.image_index, choice.displaced.clone());
            let locale = choice.locale;
            match hand_over_choice(api, host, listing, choice, said).await {
                Ok(handing_over) => handing_over.await,
                // The hand-over's code could not be fetched: nothing was sent, and trying again may.
                Err(ChunkError) => {
                    listing.withdraw(&variation_id, image_index, displaced);
                    let _ = refusal.try_set(Some(td_string!(locale, common.chunk_failed).to_string()));
                }
            }
        });
    });
    let replaces = Signal::derive(move || state.render.with(|r| r.as_ref().and_then(|r| r.image_url.clone())));
    let made = ListingUse::new(choose, replaces);
    listing.set_value(Some(made));
    Some(made)
}

/// What was chosen, read while the click was handled.
struct Choice {
    render_id: String,
    variation_id: String,
    image_index: u32,
    /// What it took the place of in the listing, put back if it is not handed over.
    displaced: Vec<Placed>,
    /// The render's photo, and the variation as shown (used when it cannot be read again).
    original: Option<String>,
    known: Option<Variation>,
    profile: Option<DisclosureProfile>,
    locale: Locale,
}

/// Where the outcome is said: sent (read out), or why the listing's rules kept it out (shown).
#[derive(Clone, Copy)]
struct Said {
    announcement: RwSignal<String>,
    refusal: RwSignal<Option<String>>,
}

type HandingOver = Pin<Box<dyn Future<Output = ()>>>;

chunk! {
    // Its code (reading the variation again, the record, the host's event) is fetched on the first "Use in listing".
    list fn hand_over_choice(api: Arc<ApiClient>, host: Host, listing: ListingUse, choice: Choice, said: Said) -> HandingOver {
        Box::pin(hand_over_chosen(api, host, listing, choice, said))
    }
}

/// Reads the variation again (the kept copies' addresses), records it and tells the host; says how it went.
async fn hand_over_chosen(api: Arc<ApiClient>, host: Host, listing: ListingUse, choice: Choice, said: Said) {
    let Choice { render_id, variation_id, image_index, displaced, original, known, profile, locale } = choice;
    let fresh = api.get_variation(&render_id, &variation_id).await.ok();
    let Some(chosen) = fresh.or(known).and_then(|v| ResultChosen::of(&v, image_index, original.as_deref())) else {
        listing.withdraw(&variation_id, image_index, displaced);
        return;
    };
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
            let _ = said.refusal.try_set(Some(refused));
            return;
        }
    };
    let _ = said.announcement.try_set(sent);
}
