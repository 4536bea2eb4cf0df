//! Handing a chosen result to the host's listing: the choice recorded with the listing's disclosure rules
//! (`POST /api/disclosures`), then `vstage-result-chosen` with what those rules ask the listing to show. When the
//! record cannot be made, the listing still gets the photo with its plain caption, and the caller says why; when
//! the rules forbid the result, it gets nothing.

use leptos::prelude::*;
use vstage_api::ApiError;
use vstage_api::disclosure::{DiscloseRequest, DisclosureProfile};
use vstage_api::host_events::ResultChosen;

use crate::api::ApiClient;
use crate::host::{Host, ListingDisclosure, RESULT_CHOSEN};
use crate::locale::Locale;

/// The images the render page has handed to the listing, by variation id, image index and the listing's disclosure
/// rules (`disclosure`) then, so that "Use in listing" says the image is there and never records it twice; under
/// other rules it may be chosen again. (The server keeps one record of the same choice whatever the page.)
#[derive(Debug, Clone, Copy)]
struct InListing(RwSignal<Vec<Placed>>);

type Placed = (String, u32, Option<String>);

/// "Use in listing" where a listing takes results: the choice of one image of a variation, and what is there.
#[derive(Clone, Copy)]
pub struct ListingUse {
    pub choose: Callback<(String, u32)>,
    in_listing: InListing,
    disclosure: Signal<Option<String>>,
}

impl ListingUse {
    /// `choose` is called with a variation's id and image index.
    pub fn new(choose: Callback<(String, u32)>) -> Self {
        let disclosure = use_context::<ListingDisclosure>().map_or(Signal::stored(None), |rules| rules.0);
        ListingUse { choose, in_listing: InListing(RwSignal::new(Vec::new())), disclosure }
    }

    /// Whether the image is in the listing under its rules now (reactive).
    pub fn placed(&self, variation_id: &str, image_index: u32) -> bool {
        let rules = self.disclosure.get();
        self.in_listing.0.with(|list| list.iter().any(|placed| *placed == key(variation_id, image_index, &rules)))
    }

    /// Marks an image as handed over under the rules now (`true`), or not.
    pub fn mark(&self, variation_id: &str, image_index: u32, handed: bool) {
        let placed = key(variation_id, image_index, &self.disclosure.get_untracked());
        self.in_listing.0.update(|list| {
            list.retain(|other| *other != placed);
            if handed {
                list.push(placed);
            }
        });
    }
}

fn key(variation_id: &str, image_index: u32, rules: &Option<String>) -> Placed {
    (variation_id.to_string(), image_index, rules.clone())
}

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
/// unless the listing's rules forbid the result.
pub async fn hand_over(
    api: &ApiClient,
    host: &Host,
    chosen: ResultChosen,
    profile: Option<DisclosureProfile>,
    locale: Locale,
) -> Result<(), NotRecorded> {
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
            host.emit(RESULT_CHOSEN, &ResultChosen::recorded(record));
            Ok(())
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
