//! What is in the host's listing: the images handed to it, one list for the whole studio (the render page and the
//! board's rows read the same), each with the listing's photo it takes the place of and where the listing's rules
//! put it. The host shows one result per photo: handing another image of the same photo takes the first one's place.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::disclosure::Placement;

use crate::host::ListingDisclosure;
use crate::locale::Locale;

/// The images the studio has handed to the listing, one list for all its screens.
#[derive(Debug, Clone, Copy)]
pub struct InListing(RwSignal<Vec<Placed>>);

impl InListing {
    /// The studio's list, made the first time a screen asks for it under the studio's own owner (the one that
    /// provides the listing's rules), so that every screen, now and later, finds the same one; the shell, whose
    /// first load has a budget, carries none of this. Without a studio (a test), a list of its own.
    fn used() -> InListing {
        if let Some(list) = use_context::<InListing>() {
            return list;
        }
        let made = || {
            let list = InListing(RwSignal::new(Vec::new()));
            provide_context(list);
            list
        };
        match studio_owner() {
            Some(studio) => studio.with(made),
            None => made(),
        }
    }
}

/// The owner that provides the listing's rules (`ListingDisclosure`): the studio's, above every screen.
fn studio_owner() -> Option<Owner> {
    let mut owner = Owner::current()?;
    owner.with(use_context::<ListingDisclosure>)?;
    while let Some(parent) = owner.parent() {
        if parent.with(use_context::<ListingDisclosure>).is_none() {
            break;
        }
        owner = parent;
    }
    Some(owner)
}

/// One image handed to the listing, under the listing's disclosure rules (`rules`) then: under other rules it may be
/// chosen again. (The server keeps one record of the same choice whatever the page.)
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    variation_id: String,
    image_index: u32,
    rules: Option<String>,
    /// The listing's photo it takes the place of (the render's photo), when known.
    replaces: Option<String>,
    /// Where the rules put it, once its record says.
    placement: Option<Placement>,
}

impl Placed {
    /// Whether `self` and `other` are the same listing photo's result: the same image, or another image of the same
    /// photo, which the host shows in its place.
    fn same_photo(&self, other: &Placed) -> bool {
        (self.variation_id == other.variation_id && self.image_index == other.image_index)
            || (self.replaces.is_some() && self.replaces == other.replaces && self.image_index == other.image_index)
    }
}

/// "Use in listing" where a listing takes results: the choice of one image of a render's variation, the photo it
/// replaces, and what is in the listing.
#[derive(Clone, Copy)]
pub struct ListingUse {
    pub choose: Callback<(String, u32)>,
    in_listing: InListing,
    disclosure: Signal<Option<String>>,
    /// The render's photo, which the listing shows the chosen result in place of.
    replaces: Signal<Option<String>>,
}

impl ListingUse {
    /// `choose` is called with a variation's id and image index; `replaces` is the render's photo.
    pub fn new(choose: Callback<(String, u32)>, replaces: Signal<Option<String>>) -> Self {
        let disclosure = use_context::<ListingDisclosure>().map_or(Signal::stored(None), |rules| rules.0);
        ListingUse { choose, in_listing: InListing::used(), disclosure, replaces }
    }

    fn entry(&self, variation_id: &str, image_index: u32) -> Placed {
        Placed {
            variation_id: variation_id.to_string(),
            image_index,
            rules: self.disclosure.get_untracked(),
            replaces: self.replaces.get_untracked(),
            placement: None,
        }
    }

    /// Whether the image is in the listing under its rules now (reactive).
    pub fn placed(&self, variation_id: &str, image_index: u32) -> bool {
        let rules = self.disclosure.get();
        self.in_listing.0.with(|list| {
            list.iter().any(|placed| {
                placed.variation_id == variation_id && placed.image_index == image_index && placed.rules == rules
            })
        })
    }

    /// Where the image stands in the listing, in words ("In the listing ✓, in place of living-empty.jpg"), once it
    /// is there (reactive); `view` numbers a multi-view result's image.
    pub fn words(&self, locale: Locale, variation_id: &str, image_index: u32, view: Option<usize>) -> String {
        let placement = self.in_listing.0.with(|list| {
            let found =
                list.iter().find(|placed| placed.variation_id == variation_id && placed.image_index == image_index);
            found.and_then(|placed| placed.placement)
        });
        in_listing_words(locale, view, self.replaces.get().as_deref(), placement)
    }

    /// Marks the image as handed to the listing under the rules now; what it took the place of (the same photo's
    /// earlier result) is returned, to put back should the listing not take it after all.
    pub fn hand(&self, variation_id: &str, image_index: u32) -> Vec<Placed> {
        let placed = self.entry(variation_id, image_index);
        let mut displaced = Vec::new();
        self.in_listing.0.update(|list| {
            let (same, others): (Vec<Placed>, Vec<Placed>) =
                list.drain(..).partition(|other| other.same_photo(&placed));
            displaced = same.into_iter().filter(|other| other.variation_id != variation_id).collect();
            *list = others;
            list.push(placed);
        });
        displaced
    }

    /// Notes where the listing's rules put the image, from its record (`None`: there was none).
    pub fn recorded(&self, variation_id: &str, image_index: u32, placement: Option<Placement>) {
        self.in_listing.0.update(|list| {
            let found =
                list.iter_mut().find(|placed| placed.variation_id == variation_id && placed.image_index == image_index);
            if let Some(placed) = found {
                placed.placement = placement;
            }
        });
    }

    /// Takes the image out again (the listing did not get it), and puts back what it had displaced.
    pub fn withdraw(&self, variation_id: &str, image_index: u32, displaced: Vec<Placed>) {
        self.in_listing.0.update(|list| {
            list.retain(|placed| !(placed.variation_id == variation_id && placed.image_index == image_index));
            list.extend(displaced);
        });
    }
}

/// What the listing does with a handed image, as the host contract says it does (docs/embedding.md): "In the listing
/// ✓, in place of living-empty.jpg", or, where the rules show the original first, "right after" it; `view` numbers
/// a multi-view result's image, `replaces` is the listing's photo's address, `placement` the record's.
pub fn in_listing_words(
    locale: Locale,
    view: Option<usize>,
    replaces: Option<&str>,
    placement: Option<Placement>,
) -> String {
    let placed = match view {
        Some(number) => td_string!(locale, studio.variation_in_listing_view, number = number).to_string(),
        None => td_string!(locale, studio.variation_in_listing).to_string(),
    };
    let Some(photo) = replaces.map(file_name) else { return placed };
    match placement {
        Some(Placement::OriginalFirst) => {
            td_string!(locale, studio.variation_in_listing_after, placed = placed, photo = photo).to_string()
        }
        _ => td_string!(locale, studio.variation_in_listing_replacing, placed = placed, photo = photo).to_string(),
    }
}

/// The last part of an address's path, as a person names the photo: `living-room.jpg`.
fn file_name(address: &str) -> String {
    let path = address.split(['?', '#']).next().unwrap_or(address);
    path.rsplit('/').find(|part| !part.is_empty()).unwrap_or(path).to_string()
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    const LIVING: &str = "https://img.example/photos/living-empty.jpg?v=2";

    #[wasm_bindgen_test(unsupported = test)]
    fn the_words_say_what_the_listing_does_with_the_photo() {
        assert_eq!(in_listing_words(Locale::en, None, None, None), "In the listing ✓");
        let replacing = in_listing_words(Locale::en, None, Some(LIVING), Some(Placement::NextToAlteredPhoto));
        assert_eq!(replacing, "In the listing ✓, in place of living-empty.jpg");
        assert_eq!(in_listing_words(Locale::en, None, Some(LIVING), None), replacing, "no record: in its place");
        assert_eq!(
            in_listing_words(Locale::en, Some(2), Some(LIVING), Some(Placement::OriginalFirst)),
            "View 2 in the listing ✓, right after living-empty.jpg, which its rules show first"
        );
        let french = in_listing_words(Locale::fr, None, Some(LIVING), Some(Placement::OriginalFirst));
        assert!(french.starts_with("Dans l’annonce ✓"), "{french}");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn another_result_of_the_same_photo_takes_the_first_ones_place() {
        let owner = Owner::new();
        owner.with(|| {
            provide_context(ListingDisclosure(Signal::stored(Some("ab723".to_string()))));
            let living = ListingUse::new(Callback::new(|_| {}), Signal::stored(Some(LIVING.to_string())));
            let kitchen =
                ListingUse::new(Callback::new(|_| {}), Signal::stored(Some("https://img.example/k.jpg".into())));
            assert!(living.hand("var_1", 0).is_empty());
            assert!(kitchen.hand("var_9", 0).is_empty(), "another photo displaces nothing");
            living.recorded("var_1", 0, Some(Placement::NextToAlteredPhoto));
            assert!(living.placed("var_1", 0));
            let displaced = living.hand("var_2", 0);
            assert_eq!(displaced.len(), 1, "the same photo's first result gives way");
            assert!(!living.placed("var_1", 0) && living.placed("var_2", 0) && kitchen.placed("var_9", 0));
            assert_eq!(living.words(Locale::en, "var_2", 0, None), "In the listing ✓, in place of living-empty.jpg");
            // the listing's rules refused it: the first is back
            living.withdraw("var_2", 0, displaced);
            assert!(living.placed("var_1", 0) && !living.placed("var_2", 0));
            // one list for the studio: another screen's, made below it and after, sees it
            let screen = Owner::current().unwrap().child();
            let again = screen.with(|| ListingUse::new(Callback::new(|_| {}), Signal::stored(Some(LIVING.into()))));
            assert!(again.placed("var_1", 0));
        });
        owner.cleanup();
    }
}
