//! The photos waiting on the board to become renders: uploading, ready, or refused with the reason, each with the
//! board's settings or its own. Kept by the studio, so leaving the board loses no upload or choice.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;

pub use super::model::{Photo, PhotoState};
use super::model::{checking_count, ready_count, uploading_count};
use crate::config_draft::ConfigDraft;
use crate::describe::photo_name;
use crate::locale::Locale;
use crate::upload::{self, Uploader};

/// The waiting photos and the board's settings for all of them.
#[derive(Debug, Clone, Copy)]
pub struct BoardPhotos {
    pub photos: RwSignal<Vec<Photo>>,
    /// The board's configuration (one entry, in the shape the configuration fields edit).
    pub shared: RwSignal<Vec<(u32, ConfigDraft)>>,
    next_key: StoredValue<u32>,
}

/// The draft id of the board's settings; a photo's own settings use `OWN_DRAFT_IDS + key`.
pub const SHARED_DRAFT_ID: u32 = 0;
pub const OWN_DRAFT_IDS: u32 = 1000;

impl BoardPhotos {
    pub fn new() -> Self {
        BoardPhotos {
            photos: RwSignal::new(Vec::new()),
            shared: RwSignal::new(vec![(SHARED_DRAFT_ID, ConfigDraft::default())]),
            next_key: StoredValue::new(0),
        }
    }

    /// Adds a photo from `source` (its address, or what tells a file apart) and returns its key; the same source
    /// waiting already is refused on a row of its own, saying so in `locale`.
    pub fn add(&self, locale: Locale, label: String, source: String, state: PhotoState) -> u32 {
        let key = self.next_key.get_value();
        self.next_key.set_value(key + 1);
        let twice = self
            .photos
            .with_untracked(|photos| photos.iter().any(|photo| photo.source == source && !photo.state.is_refused()));
        let state = match twice {
            true => PhotoState::Refused(td_string!(locale, board.add_twice, name = &label)),
            false => state,
        };
        self.photos.update(|photos| photos.push(Photo::new(key, label, source, state)));
        key
    }

    /// Adds photos ready at these addresses, each named by its address's last part.
    pub fn add_addresses(&self, locale: Locale, addresses: Vec<String>) {
        for address in addresses {
            self.add(locale, photo_name(&address), address.clone(), PhotoState::Ready(address));
        }
    }

    /// Uploads one file as a waiting photo, its progress shown on its own row; a refusal is worded in `locale`.
    pub fn upload(&self, locale: Locale, uploader: Uploader, file: web_sys::File) {
        let name = file.name();
        let source = format!("file {name} {} {}", file.size(), file.last_modified());
        if !upload::is_image(&file.type_()) {
            let message = td_string!(locale, board.add_not_image, name = &name);
            self.add(locale, name, source, PhotoState::Refused(message));
            return;
        }
        let key = self.add(locale, name, source, PhotoState::Uploading(0.0));
        if self.photos.with_untracked(|photos| photos.iter().any(|p| p.key == key && p.state.is_refused())) {
            return;
        }
        let photos = *self;
        spawn_local(async move {
            let progress = move |done: f64| photos.change(key, |photo| photo.state = PhotoState::Uploading(done));
            let state = match uploader.send(&file, progress).await {
                Ok(uploaded) => PhotoState::Ready(uploaded.url),
                Err(message) => PhotoState::Refused(message),
            };
            photos.change(key, |photo| photo.state = state);
        });
    }

    /// Changes one photo (nothing when it was removed meanwhile).
    pub fn change(&self, key: u32, change: impl FnOnce(&mut Photo)) {
        let _ = self.photos.try_update(|photos| {
            if let Some(photo) = photos.iter_mut().find(|photo| photo.key == key) {
                change(photo);
            }
        });
    }

    pub fn remove(&self, key: u32) {
        self.photos.update(|photos| photos.retain(|photo| photo.key != key));
    }

    /// How many photos have an address to render.
    pub fn ready(&self) -> usize {
        self.photos.with(|list| ready_count(list))
    }

    /// How many photos to stage wait for the analysis of their furniture.
    pub fn checking(&self) -> usize {
        let shared = self.shared_draft();
        self.photos.with(|list| checking_count(list, &shared))
    }

    /// How many photos are still uploading.
    pub fn uploading(&self) -> usize {
        self.photos.with(|list| uploading_count(list))
    }

    /// The board's settings.
    pub fn shared_draft(&self) -> ConfigDraft {
        self.shared.with(|list| list.first().map(|(_, draft)| draft.clone()).unwrap_or_default())
    }
}

impl Default for BoardPhotos {
    fn default() -> Self {
        Self::new()
    }
}

/// The studio's waiting photos (provided by the studio, so they outlive the board screen).
pub fn use_board_photos() -> BoardPhotos {
    use_context::<BoardPhotos>().expect("the studio provides the board's photos")
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn photos_are_added_named_changed_and_removed_by_key() {
        let owner = Owner::new();
        owner.with(|| {
            let photos = BoardPhotos::new();
            photos.add_addresses(
                Locale::en,
                vec!["https://p.example/Living%20Room.jpg".into(), "https://p.example/b.jpg".into()],
            );
            let key = photos.add(Locale::en, "Kitchen.jpg".into(), "file k".into(), PhotoState::Uploading(0.0));
            photos.change(key, |photo| photo.state = PhotoState::Uploading(0.5));
            photos.remove(0);
            let waiting: Vec<(String, Option<String>)> = photos.photos.with_untracked(|list| {
                list.iter().map(|photo| (photo.label.clone(), photo.state.address().map(str::to_string))).collect()
            });
            assert_eq!(
                waiting,
                [("b.jpg".to_string(), Some("https://p.example/b.jpg".to_string())), ("Kitchen.jpg".to_string(), None)]
            );
            assert_eq!(photos.photos.with_untracked(|list| list[1].state.clone()), PhotoState::Uploading(0.5));
        });
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_same_photo_twice_is_refused_on_its_own_row() {
        let owner = Owner::new();
        owner.with(|| {
            let photos = BoardPhotos::new();
            photos.add_addresses(Locale::en, vec!["https://p.example/a.jpg".into(), "https://p.example/a.jpg".into()]);
            let states = photos.photos.with_untracked(|list| list.iter().map(|p| p.state.clone()).collect::<Vec<_>>());
            assert_eq!(states[0], PhotoState::Ready("https://p.example/a.jpg".into()));
            assert_eq!(states[1], PhotoState::Refused("a.jpg is on the board already.".into()));
            photos.remove(0);
            photos.add_addresses(Locale::en, vec!["https://p.example/a.jpg".into()]);
            let last = photos.photos.with_untracked(|list| list.last().map(|p| p.state.clone()));
            assert_eq!(last, Some(PhotoState::Ready("https://p.example/a.jpg".into())), "once it is gone, welcome");
        });
    }
}
