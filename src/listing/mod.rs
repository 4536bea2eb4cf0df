//! Handing a chosen result to the host's listing: the choice recorded with the listing's disclosure rules
//! (`POST /api/disclosures`), then `vstage-result-chosen` with what those rules ask the listing to show and the
//! listing's photo it takes the place of. When the record cannot be made, the listing still gets the photo with its
//! plain caption, and the caller says why; when the rules forbid the result, it gets nothing. What is in the
//! listing (`placed`) is one list for the whole studio, so the render page and the board agree; "Use in listing"
//! on a render's variations, wherever they are shown, is `choose`.

mod choose;
mod placed;

pub use self::choose::use_in_listing;
pub use self::placed::{ListingUse, in_listing_words};

use leptos::prelude::*;
use vstage_api::ApiError;
use vstage_api::disclosure::{DiscloseRequest, DisclosureProfile, Placement};
use vstage_api::host_events::ResultChosen;

use crate::api::ApiClient;
use crate::host::{Host, ListingDisclosure, RESULT_CHOSEN};
use crate::locale::Locale;

/// Why a chosen result did not reach the listing with its record.
#[derive(Debug)]
pub enum NotRecorded {
    /// The record could not be made: the listing got the photo with its plain caption.
    PlainCaption(ApiError),
    /// The listing's rules do not allow this result (the server's 422, which names the rule): the listing got
    /// nothing.
    AgainstRules(ApiError),
}

/// Records `chosen` under `profile` (the listing's, read with [`listing_profile`] while the click is handled) and
/// the studio's language, then tells the host; when it could not be recorded, the host got the plain choice,
/// unless the listing's rules forbid the result. Recorded, the answer is where the rules put it (the original
/// first, or the result in the original's place).
pub async fn hand_over(
    api: &ApiClient,
    host: &Host,
    chosen: ResultChosen,
    profile: Option<DisclosureProfile>,
    locale: Locale,
) -> Result<Placement, NotRecorded> {
    let request = DiscloseRequest {
        render_id: chosen.render_id.clone(),
        variation_id: chosen.variation_id.clone(),
        image_index: chosen.image_index,
        profile,
        lang: Some(leptos_i18n::Locale::as_str(locale).to_string()),
        original_url: chosen.original_url.clone(),
    };
    match api.disclose(&request).await {
        Ok(record) => {
            let placement = record.placement;
            host.emit(RESULT_CHOSEN, &ResultChosen::recorded(record));
            Ok(placement)
        }
        Err(error) if error.status() == Some(422) => Err(NotRecorded::AgainstRules(error)),
        Err(error) => {
            host.emit(RESULT_CHOSEN, &chosen);
            Err(NotRecorded::PlainCaption(error))
        }
    }
}

/// The profile the host's `disclosure` attribute names; `None` (the server's default) when it names none, or one
/// that is not a profile, which the host is told. Read under the studio's owner (in an event handler, not after an
/// await).
pub fn listing_profile(host: &Host) -> Option<DisclosureProfile> {
    let named = use_context::<ListingDisclosure>()?.0.get_untracked()?;
    let profile = DisclosureProfile::parse(&named);
    if profile.is_none() {
        let known: Vec<&str> = DisclosureProfile::ALL.iter().map(|profile| profile.as_str()).collect();
        host.error(format!("disclosure: `{named}` is not a profile; use one of {}", known.join(", ")));
    }
    profile
}
