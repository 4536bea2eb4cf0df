//! The photos waiting on the board to become renders: uploading, ready, or refused with the reason, each with the
//! board's settings or its own. Kept by the studio, so leaving the board loses no upload or choice.

use leptos::prelude::*;
use vstage_api::ApiError;

use crate::config_draft::ConfigDraft;

/// Where a waiting photo is.
#[derive(Debug, Clone, PartialEq)]
pub enum PhotoState {
    /// Going to the server (0.0 to 1.0).
    Uploading(f64),
    /// At this address, ready to render.
    Ready(String),
    /// Not usable as it is; the sentence (in the studio's language when it was refused) says why and what to do.
    Refused(String),
    /// The service refused to render it (shown in the studio's language); it can be sent again from `address`.
    NotCreated { address: String, error: ApiError },
}

impl PhotoState {
    /// The address to render, once there is one.
    pub fn address(&self) -> Option<&str> {
        match self {
            PhotoState::Ready(address) | PhotoState::NotCreated { address, .. } => Some(address),
            PhotoState::Uploading(_) | PhotoState::Refused(_) => None,
        }
    }
}

/// One photo waiting.
#[derive(Debug, Clone, PartialEq)]
pub struct Photo {
    pub key: u32,
    /// The file's name, or the address's last part.
    pub label: String,
    pub state: PhotoState,
    /// Its own settings, when they differ from the board's.
    pub own: Option<ConfigDraft>,
}

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

    /// Adds a photo and returns its key.
    pub fn add(&self, label: String, state: PhotoState) -> u32 {
        let key = self.next_key.get_value();
        self.next_key.set_value(key + 1);
        self.photos.update(|photos| photos.push(Photo { key, label, state, own: None }));
        key
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
