//! What the renders list works out as plain functions: the query for a page, the order a choice names, the count's
//! sentence, what stands where the cards go, and the name a render goes by in the dialog. Tested in the browser.

use leptos_i18n::td_string;
use vstage_api::{ApiError, ListRenders, Render, SortOrder};

use crate::describe::photo_name;
use crate::locale::Locale;
use crate::plural;

pub const PAGE_SIZE: u32 = 20;

/// What the list is reading, or why it could not.
#[derive(Debug, Clone, PartialEq)]
pub enum Loading {
    First,
    More,
    Idle,
    /// Put in words when shown.
    Failed(ApiError),
}

/// The query for the page in `order` that starts at `cursor` (`None`: the first page).
pub fn page_query(order: SortOrder, cursor: Option<String>) -> ListRenders {
    ListRenders { limit: Some(PAGE_SIZE), cursor, order: Some(order) }
}

/// The order the order chooser's value names: `asc` is oldest first, anything else newest first.
pub fn order_named(value: &str) -> SortOrder {
    if value == "asc" { SortOrder::Asc } else { SortOrder::Desc }
}

/// "3 renders" for the service's count; empty for none, and nothing until it is known. On a listing's page
/// (`listing`) it names the listing, so that the list is not taken for the account's: "3 renders for listing
/// L-1042", and for none, that only its renders are shown.
pub fn count_sentence(locale: Locale, total: Option<u64>, listing: Option<&str>) -> Option<String> {
    let total = total?;
    Some(match (total, listing) {
        (0, None) => String::new(),
        (0, Some(listing)) => td_string!(locale, studio.renders_count_listing_none, listing).to_string(),
        (n, None) => plural!(locale, n, studio.renders_count_singular, studio.renders_count_plural, count = n),
        (n, Some(listing)) => plural!(
            locale,
            n,
            studio.renders_count_listing_singular,
            studio.renders_count_listing_plural,
            count = n,
            listing = listing
        ),
    })
}

/// What stands where the cards go while there are none to show.
#[derive(Debug, Clone, PartialEq)]
pub enum Placeholder {
    /// Skeleton cards while the first page is read.
    Skeleton,
    /// Why the list could not be read, with "Try again".
    Failed(ApiError),
    /// A call to action on an account with no render.
    NoRenders,
}

/// The placeholder for this state of the list, if the cards (or nothing) are shown instead.
pub fn placeholder(loading: Loading, no_renders: bool) -> Option<Placeholder> {
    match (loading, no_renders) {
        (Loading::First, _) => Some(Placeholder::Skeleton),
        (Loading::Failed(error), true) => Some(Placeholder::Failed(error)),
        (Loading::Idle, true) => Some(Placeholder::NoRenders),
        _ => None,
    }
}

/// How a render is named in the dialog: its photo's file name, else its id.
pub fn render_name(render: &Render) -> String {
    let photo = render.image_url.as_deref().filter(|url| !url.starts_with("data:"));
    photo.map(photo_name).map_or_else(|| render.id.clone(), |name| format!("{name} ({})", render.id))
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn render(id: &str, image_url: Option<&str>) -> Render {
        serde_json::from_value(json!({"id": id, "created_at": 1, "eta": null, "image_url": image_url})).unwrap()
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn pages_are_twenty_in_the_order_chosen() {
        let first = page_query(order_named("asc"), None);
        assert_eq!(first, ListRenders { limit: Some(20), cursor: None, order: Some(SortOrder::Asc) });
        let next = page_query(order_named("desc"), Some("c1".into()));
        assert_eq!((next.cursor.as_deref(), next.order), (Some("c1"), Some(SortOrder::Desc)));
        assert_eq!(order_named(""), SortOrder::Desc, "newest first unless oldest is asked for");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_count_says_nothing_until_known_and_names_the_listing_it_is_of() {
        assert_eq!(count_sentence(Locale::en, None, None), None);
        assert_eq!(count_sentence(Locale::en, Some(0), None).as_deref(), Some(""));
        assert_eq!(count_sentence(Locale::en, Some(1), None).as_deref(), Some("1 render"));
        assert_eq!(count_sentence(Locale::en, Some(21), None).as_deref(), Some("21 renders"));
        let on_listing = |total| count_sentence(Locale::en, Some(total), Some("L-1042"));
        assert_eq!(on_listing(1).as_deref(), Some("1 render for listing L-1042"));
        assert_eq!(on_listing(3).as_deref(), Some("3 renders for listing L-1042"));
        assert_eq!(on_listing(0).as_deref(), Some("Only renders made for listing L-1042 are shown here: none yet."));
        assert_eq!(count_sentence(Locale::en, None, Some("L-1042")), None, "nothing until the count is known");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_cards_give_way_to_skeletons_a_failure_or_a_call_to_action() {
        let failed = Loading::Failed(ApiError::Network { detail: "offline".into() });
        assert_eq!(placeholder(Loading::First, false), Some(Placeholder::Skeleton), "a new order reads afresh");
        assert_eq!(placeholder(Loading::Idle, true), Some(Placeholder::NoRenders));
        assert!(matches!(placeholder(failed.clone(), true), Some(Placeholder::Failed(_))));
        assert_eq!(placeholder(failed, false), None, "a failed next page is said under the cards");
        assert_eq!(placeholder(Loading::More, false), None);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_render_goes_by_its_photo_s_name_else_its_id() {
        assert_eq!(
            render_name(&render("rnd_1", Some("https://img.example/rooms/Kitchen.jpg?v=2"))),
            "Kitchen.jpg (rnd_1)"
        );
        assert_eq!(render_name(&render("rnd_2", Some("data:image/png;base64,AAAA"))), "rnd_2");
        assert_eq!(render_name(&render("rnd_3", None)), "rnd_3");
    }
}
