//! Said before the click, under a room choice: the room is the outside and the listing's rules forbid staging it
//! (MAAR's), so the result could not be used in the listing (the server refuses to record it). The choice stays
//! the agent's: the photo may serve elsewhere. Nothing shows without a `disclosure` attribute.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::RoomType;
use vstage_api::disclosure::DisclosureProfile;

use crate::host::ListingDisclosure;
use crate::locale::use_locale;

#[component]
pub fn ExteriorRuleNote(
    /// The room chosen to stage.
    #[prop(into)]
    room: Signal<RoomType>,
) -> impl IntoView {
    let locale = use_locale();
    let listing = use_context::<ListingDisclosure>().map_or(Signal::stored(None), |rules| rules.0);
    let forbidding = move || {
        let profile = listing.get().as_deref().and_then(DisclosureProfile::parse)?;
        (room.get() == RoomType::Outdoor && !profile.allows_staged_exteriors()).then_some(profile.name())
    };
    move || {
        forbidding().map(|rules| {
            view! {
                <p class="vstage-hint" role="note">
                    {td_string!(locale.get(), forms.config_exterior_against_rules, rules = rules)}
                </p>
            }
        })
    }
}
