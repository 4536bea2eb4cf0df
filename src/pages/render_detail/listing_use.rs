//! "Use in listing": a finished result handed to the host page as `vstage-result-chosen`, offered only where a
//! listing embeds the studio (the standalone page has none). The variation is read again first, so that the
//! addresses given are the kept copies' when the server keeps them; then the choice is recorded with the listing's
//! disclosure profile (`POST /api/disclosures`), whose answer says what the listing shows beside the photo.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;
use vstage_api::disclosure::{DiscloseRequest, DisclosureProfile};
use vstage_api::host_events::ResultChosen;

use super::state::RenderState;
use crate::api::use_api;
use crate::host::{Host, ListingDisclosure, RESULT_CHOSEN, use_host};
use crate::locale::use_locale;
use crate::route::{History, use_navigator};

/// The callback "Use in listing" runs with a variation's id, where there is a listing; `announcement` says it was
/// sent.
pub fn use_in_listing(
    render_id: Signal<String>,
    state: RenderState,
    announcement: RwSignal<String>,
) -> Option<Callback<String>> {
    let (api, locale) = (use_api(), use_locale());
    let host = use_host().filter(|_| use_navigator().history() == History::Memory)?;
    Some(Callback::new(move |variation_id: String| {
        let original = state.render.with_untracked(|r| r.as_ref().and_then(|r| r.image_url.clone()));
        let known = state.variations.with_untracked(|list| list.iter().find(|v| v.id == variation_id).cloned());
        let (api, host) = (api.clone(), host.clone());
        let profile = listing_profile(&host);
        spawn_local(async move {
            let render_id = render_id.get_untracked();
            let fresh = api.get_variation(&render_id, &variation_id).await.ok();
            let Some(chosen) = fresh.or(known).and_then(|v| ResultChosen::of(&v, original.as_deref())) else {
                return;
            };
            let lang = leptos_i18n::Locale::as_str(locale.get_untracked()).to_string();
            let request = DiscloseRequest {
                render_id,
                variation_id,
                image_index: 0,
                profile,
                lang: Some(lang),
                original_url: original,
            };
            let sent = match api.disclose(&request).await {
                Ok(record) => {
                    host.emit(RESULT_CHOSEN, &chosen.disclosed(record));
                    td_string!(locale.get_untracked(), studio.detail_sent_to_listing).to_string()
                }
                // The listing still gets the photo, with the plain caption; the agent is told what is missing.
                Err(error) => {
                    host.emit(RESULT_CHOSEN, &chosen);
                    td_string!(locale.get_untracked(), studio.detail_sent_without_record, reason = error.to_string())
                        .to_string()
                }
            };
            let _ = announcement.try_set(sent);
        });
    }))
}

/// The profile the host's `disclosure` attribute names; `None` (the server's default) when it names none, or one
/// that is not a profile, which the host is told.
fn listing_profile(host: &Host) -> Option<DisclosureProfile> {
    let named = use_context::<ListingDisclosure>()?.0.get_untracked()?;
    let profile = DisclosureProfile::parse(&named);
    if profile.is_none() {
        let known: Vec<&str> = DisclosureProfile::ALL.iter().map(|profile| profile.as_str()).collect();
        host.error(format!("disclosure: `{named}` is not a profile; use one of {}", known.join(", ")));
    }
    profile
}
