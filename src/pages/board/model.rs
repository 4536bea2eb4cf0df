//! What the listing board works out, as plain functions tested in the browser: photos' names and pasted addresses,
//! the photos waiting (how many are ready, what they are sent with, the bulk request), changes to the board's list,
//! each row's name, picture, variations and the results to choose for the listing, and the board's progress.

use leptos_i18n::td_string;
use vstage_api::board::BoardRender;
use vstage_api::{ApiError, BulkRender, Config, RemovalMode, RoomType, Style, Variation, VariationStatus};

use super::room_guess;
use crate::config_draft::{ConfigDraft, Kind};
use crate::describe;
use crate::furnishing::Furnishing;
use crate::locale::Locale;
use crate::plural;

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
    /// Whether it cannot be rendered as it is.
    pub fn is_refused(&self) -> bool {
        matches!(self, PhotoState::Refused(_))
    }

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
    /// Where it came from (the address, or the file's name, size and time), to refuse the same photo twice.
    pub source: String,
    pub state: PhotoState,
    /// Its own settings, when they differ from the board's.
    pub own: Option<ConfigDraft>,
    /// The room it is staged as with the board's settings, when not the board's: guessed from its name, or chosen.
    pub room: Option<RoomType>,
    /// Whether `room` is still the guess.
    pub room_guessed: bool,
    /// The style it is staged in with the board's settings, when chosen for it.
    pub style: Option<Style>,
    /// What the service's analysis says of its furniture, once asked.
    pub furnishing: Option<Furnishing>,
    /// What staging does with its furniture, when chosen for it.
    pub removal: Option<RemovalMode>,
}

impl Photo {
    /// A photo waiting with the board's settings, its room guessed from its name.
    pub fn new(key: u32, label: String, source: String, state: PhotoState) -> Photo {
        let room = room_guess::room_from_name(&label);
        Photo {
            key,
            room_guessed: room.is_some(),
            room,
            label,
            source,
            state,
            own: None,
            style: None,
            furnishing: None,
            removal: None,
        }
    }

    /// The settings it is rendered with: its own, else the board's (`shared`) with its room, style and furniture.
    pub fn draft(&self, shared: &ConfigDraft) -> ConfigDraft {
        if let Some(own) = &self.own {
            return own.clone();
        }
        let mut draft = shared.clone();
        draft.room_type = self.room.clone().unwrap_or(draft.room_type);
        draft.style = self.style.clone().unwrap_or(draft.style);
        draft.removal = self.removal(shared, &draft.room_type);
        draft
    }

    /// What staging does with its furniture when staged as `room`: as chosen for it, else as the board's settings
    /// say when they remove it, else as its analysis says (an interior found furnished has it removed first, never a
    /// sofa put on a sofa unasked; outside, what the analysis finds is the house, not furniture).
    pub fn removal(&self, shared: &ConfigDraft, room: &RoomType) -> RemovalMode {
        match (&self.removal, &shared.removal, self.furnishing) {
            (Some(chosen), _, _) => chosen.clone(),
            (None, RemovalMode::Off, Some(found)) if *room != RoomType::Outdoor => found.removal(),
            (None, board, _) => board.clone(),
        }
    }

    /// Whether its room and style are chosen on the photo itself: it has no settings of its own and the board's
    /// stage the room.
    pub fn stages_with_board_settings(&self, shared: &ConfigDraft) -> bool {
        self.own.is_none() && shared.kind == Kind::Staging
    }
}

/// What the person did to the board's list.
pub enum BoardChange {
    Add(Vec<BoardRender>),
    Remove(String),
    Clear,
}

impl BoardChange {
    /// The same change on a list no server keeps.
    pub fn apply_locally(self, list: &mut Vec<BoardRender>) {
        match self {
            BoardChange::Add(renders) => {
                for render in renders {
                    if list.iter().all(|entry| entry.render_id != render.render_id) {
                        list.push(render);
                    }
                }
            }
            BoardChange::Remove(id) => list.retain(|entry| entry.render_id != id),
            BoardChange::Clear => list.clear(),
        }
    }
}

/// How far the board's variations are: finished, failed and all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Progress {
    pub done: usize,
    /// Ended without a result: failed, deleted, or in a state vstage does not know.
    pub failed: usize,
    pub total: usize,
}

impl Progress {
    pub fn of<'a>(variations: impl IntoIterator<Item = &'a Variation>) -> Progress {
        variations.into_iter().fold(Progress::default(), |mut progress, variation| {
            progress.total += 1;
            match &variation.status {
                VariationStatus::Done => progress.done += 1,
                status if status.is_final() => progress.failed += 1,
                _ => {}
            }
            progress
        })
    }

    /// "12 of 30 variations done", with the failed ones when there are.
    pub fn words(&self, locale: Locale) -> String {
        let Progress { done, failed, total } = *self;
        match failed {
            0 => plural!(locale, total, board.progress_singular, board.progress_plural, done = done, total = total),
            _ => plural!(
                locale,
                total,
                board.progress_failed_singular,
                board.progress_failed_plural,
                done = done,
                total = total,
                failed = failed
            ),
        }
    }
}

impl std::ops::Add for Progress {
    type Output = Progress;

    fn add(self, other: Progress) -> Progress {
        Progress { done: self.done + other.done, failed: self.failed + other.failed, total: self.total + other.total }
    }
}

/// A row's finished variations counted by what they are ("Modern living room", 2), in the order first seen: a
/// render of twenty results is two lines, not twenty. Unfinished and failed ones are shown one by one instead.
pub fn done_by_kind(locale: Locale, variations: &[Variation]) -> Vec<(String, usize)> {
    let mut groups: Vec<(String, usize)> = Vec::new();
    for variation in variations.iter().filter(|variation| variation.status == VariationStatus::Done) {
        let what = what_it_is(locale, variation);
        match groups.iter_mut().find(|(name, _)| *name == what) {
            Some((_, count)) => *count += 1,
            None => groups.push((what, 1)),
        }
    }
    groups
}

/// The unfinished and failed variations, each shown on a line of its own.
pub fn not_done(variations: &[Variation]) -> Vec<Variation> {
    variations.iter().filter(|variation| variation.status != VariationStatus::Done).cloned().collect()
}

pub fn has_failed(variations: &[Variation]) -> bool {
    variations.iter().any(|variation| variation.status == VariationStatus::Error)
}

/// The failed variations' configurations, one for each failure, to add them again.
pub fn failed_configs(variations: &[Variation]) -> Vec<Config> {
    variations
        .iter()
        .filter(|variation| variation.status == VariationStatus::Error)
        .filter_map(|variation| variation.config.clone())
        .collect()
}

/// A row's name: the photo's, else the render's id.
pub fn row_label(entry: &BoardRender) -> String {
    if entry.label.is_empty() { entry.render_id.clone() } else { entry.label.clone() }
}

/// A row's picture: the newest finished variation, else the photo (`source`).
pub fn row_thumbnail(variations: &[Variation], source: Option<String>) -> Option<String> {
    describe::newest_thumbnail(variations).or(source)
}

/// A finished result of a row, to choose for the listing: its variation, its name ("Living room · Modern 2", numbered
/// among the row's results of that kind) and its small picture.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    pub variation_id: String,
    pub title: String,
    pub thumbnail: String,
}

/// The row's finished results in the order they were made, each named and pictured, to pick the best for the
/// listing on the board itself.
pub fn choices(locale: Locale, variations: &[Variation]) -> Vec<Choice> {
    let mut seen: Vec<String> = Vec::new();
    variations
        .iter()
        .filter(|variation| variation.status == VariationStatus::Done)
        .filter_map(|variation| {
            let thumbnail = variation.result.as_ref()?.primary()?.thumbnail().to_string();
            let what = what_it_is(locale, variation);
            seen.push(what.clone());
            let number = seen.iter().filter(|other| **other == what).count();
            let title = td_string!(locale, board.choice_title, what = what, number = number).to_string();
            Some(Choice { variation_id: variation.id.clone(), title, thumbnail })
        })
        .collect()
}

/// What a variation is, in words: its configuration, else its type.
pub fn what_it_is(locale: Locale, variation: &Variation) -> String {
    match &variation.config {
        Some(config) => describe::config(locale, config),
        None => describe::variation_type(locale, variation.kind.as_ref()),
    }
}

/// The addresses pasted in `text` (one a line, or separated by spaces or commas), and a sentence for each piece
/// that is not a web address.
pub fn pasted_addresses(locale: Locale, text: &str) -> (Vec<String>, Vec<String>) {
    let mut addresses = Vec::new();
    let mut refused = Vec::new();
    for piece in text.split(|c: char| c.is_whitespace() || c == ',').filter(|piece| !piece.is_empty()) {
        if (piece.starts_with("https://") || piece.starts_with("http://")) && piece.len() > "https://".len() {
            addresses.push(piece.to_string());
        } else {
            refused.push(td_string!(locale, board.paste_not_address, piece = piece))
        }
    }
    (addresses, refused)
}

/// How many waiting photos have an address to render.
pub fn ready_count(photos: &[Photo]) -> usize {
    photos.iter().filter(|photo| photo.state.address().is_some()).count()
}

/// How many waiting photos to stage have an address but no answer yet from the analysis of their furniture: the
/// board creates nothing before it knows what to do with each one's furniture.
pub fn checking_count(photos: &[Photo], shared: &ConfigDraft) -> usize {
    let unsettled = |photo: &&Photo| matches!(photo.furnishing, None | Some(Furnishing::Checking));
    photos
        .iter()
        .filter(|photo| photo.state.address().is_some() && photo.draft(shared).kind == Kind::Staging)
        .filter(unsettled)
        .count()
}

/// How many waiting photos are still uploading.
pub fn uploading_count(photos: &[Photo]) -> usize {
    photos.iter().filter(|photo| matches!(photo.state, PhotoState::Uploading(_))).count()
}

/// The settings a waiting photo is rendered with, in words: its own, else the board's.
pub fn settings_words(locale: Locale, own: Option<&ConfigDraft>) -> String {
    match own {
        Some(own) => describe::config(locale, &own.to_config()),
        None => td_string!(locale, board.waiting_board_settings).to_string(),
    }
}

/// A waiting photo sent to become a render.
#[derive(Debug, Clone, PartialEq)]
pub struct PhotoToSend {
    pub key: u32,
    pub label: String,
    pub address: String,
    /// The settings it is rendered with.
    pub draft: ConfigDraft,
}

/// The photos to send: every one with an address, or only those of `keys`; each with its own settings, else the
/// board's (`shared`).
pub fn photos_to_send(photos: &[Photo], keys: Option<&[u32]>, shared: &ConfigDraft) -> Vec<PhotoToSend> {
    photos
        .iter()
        .filter(|photo| keys.is_none_or(|keys| keys.contains(&photo.key)))
        .filter_map(|photo| {
            Some(PhotoToSend {
                key: photo.key,
                label: photo.label.clone(),
                address: photo.state.address()?.to_string(),
                draft: photo.draft(shared),
            })
        })
        .collect()
}

/// The bulk entries for photos (their addresses) each with the configuration it is rendered with.
pub fn bulk_entries<'a>(photos: impl IntoIterator<Item = (&'a str, &'a ConfigDraft)>) -> Vec<BulkRender> {
    photos
        .into_iter()
        .map(|(image_url, draft)| BulkRender {
            config: draft.to_config(),
            image_url: image_url.trim().to_string(),
            variation_count: draft.count,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn variation(id: &str, kind: &str, status: &str) -> Variation {
        serde_json::from_value(json!({"id": id, "render_id": "r", "type": kind, "created_at": 1, "status": status}))
            .unwrap()
    }

    fn entry(id: &str) -> BoardRender {
        BoardRender { render_id: id.to_string(), label: format!("{id}.jpg") }
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn changes_apply_locally_as_the_server_would() {
        let mut list = vec![entry("a")];
        BoardChange::Add(vec![entry("b"), entry("a"), entry("c")]).apply_locally(&mut list);
        assert_eq!(list, [entry("a"), entry("b"), entry("c")], "a render already there keeps its place");
        BoardChange::Remove("b".to_string()).apply_locally(&mut list);
        assert_eq!(list, [entry("a"), entry("c")]);
        BoardChange::Clear.apply_locally(&mut list);
        assert!(list.is_empty());
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn progress_counts_every_variation_of_the_board() {
        let one = [variation("a", "staging", "done"), variation("b", "staging", "processing")];
        let two = [variation("c", "staging", "error")];
        let progress = Progress::of(&one) + Progress::of(&two);
        assert_eq!(progress, Progress { done: 1, failed: 1, total: 3 });
        assert_eq!(progress.words(Locale::en), "1 of 3 variations done, 1 failed");
        assert_eq!(progress.words(Locale::de), "1 von 3 Varianten fertig, 1 fehlgeschlagen");
        assert_eq!(Progress::of(&one[..1]).words(Locale::en), "1 of 1 variation done");
        // French counts 0 as singular
        let nothing = Progress { done: 0, failed: 0, total: 0 };
        assert_eq!(nothing.words(Locale::fr), "0 sur 0 variante terminée");
        assert_eq!(nothing.words(Locale::en), "0 of 0 variations done");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn finished_variations_are_counted_by_what_they_are() {
        let list = [
            variation("a", "staging", "done"),
            variation("b", "removal", "done"),
            variation("c", "staging", "done"),
            variation("d", "staging", "error"),
        ];
        assert_eq!(
            done_by_kind(Locale::en, &list),
            [("Virtual staging".to_string(), 2), ("Empty room".to_string(), 1)]
        );
        assert_eq!(done_by_kind(Locale::es, &list)[1], ("Estancia vacía".to_string(), 1));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_row_shows_its_unfinished_variations_one_by_one_and_tries_its_failed_ones_again() {
        let mut failed = variation("c", "enhancement", "error");
        failed.config = Some(serde_json::from_value(json!({"type": "enhancement"})).unwrap());
        let list = [variation("a", "staging", "done"), variation("b", "staging", "queued"), failed.clone()];
        let shown: Vec<String> = not_done(&list).into_iter().map(|variation| variation.id).collect();
        assert_eq!(shown, ["b", "c"]);
        assert!(has_failed(&list));
        assert!(!has_failed(&list[..2]));
        assert_eq!(failed_configs(&list), [failed.config.unwrap()]);
        let unknown = variation("d", "staging", "error");
        assert!(failed_configs(&[unknown]).is_empty(), "a failure with no known settings cannot be sent again");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_row_is_named_and_pictured_by_what_it_has() {
        assert_eq!(row_label(&entry("a")), "a.jpg");
        assert_eq!(row_label(&BoardRender { render_id: "rnd_1".to_string(), label: String::new() }), "rnd_1");
        let photo = Some("https://img.example/photo.jpg".to_string());
        let mut done = variation("a", "staging", "done");
        assert_eq!(row_thumbnail(&[done.clone()], photo.clone()), photo, "nothing finished shows yet");
        done.result = Some(serde_json::from_value(json!({"url": "https://img.example/a.jpg"})).unwrap());
        assert_eq!(row_thumbnail(&[done], photo).as_deref(), Some("https://img.example/a.jpg"));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_rows_finished_results_are_offered_for_the_listing_numbered_by_kind() {
        let with_result = |id: &str, kind: &str, status: &str| {
            let mut made = variation(id, kind, status);
            made.result = Some(
                serde_json::from_value(json!({"url": format!("https://img.example/{id}.jpg"),
                "thumbnail_url": format!("https://img.example/{id}-small.jpg")}))
                .unwrap(),
            );
            made
        };
        let list = [
            with_result("a", "staging", "done"),
            with_result("b", "removal", "done"),
            variation("c", "staging", "processing"),
            with_result("d", "staging", "done"),
            variation("e", "staging", "done"),
        ];
        let offered = choices(Locale::en, &list);
        let named: Vec<(&str, &str, &str)> =
            offered.iter().map(|c| (c.variation_id.as_str(), c.title.as_str(), c.thumbnail.as_str())).collect();
        assert_eq!(
            named,
            [
                ("a", "Virtual staging 1", "https://img.example/a-small.jpg"),
                ("b", "Empty room 1", "https://img.example/b-small.jpg"),
                ("d", "Virtual staging 2", "https://img.example/d-small.jpg"),
            ],
            "finished results with a picture, in order; the unfinished and the pictureless are not offered"
        );
        assert_eq!(choices(Locale::de, &list)[1].title, "Leerer Raum 1");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn addresses_are_read_from_a_paste() {
        let (addresses, refused) =
            pasted_addresses(Locale::en, "https://a.example/1.jpg\n  http://b.example/2.jpg, kitchen.jpg\n\n");
        assert_eq!(addresses, ["https://a.example/1.jpg", "http://b.example/2.jpg"]);
        assert_eq!(refused.len(), 1);
        assert!(refused[0].contains("\"kitchen.jpg\" is not a web address"));
    }

    fn photo(key: u32, state: PhotoState, own: Option<ConfigDraft>) -> Photo {
        Photo { own, ..Photo::new(key, format!("{key}.jpg"), format!("{key}"), state) }
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn waiting_photos_are_counted_and_sent_with_their_settings() {
        let kitchen = ConfigDraft { room_type: vstage_api::RoomType::Kitchen, ..ConfigDraft::default() };
        let refused = ApiError::Http { status: 400, message: None };
        let photos = [
            photo(0, PhotoState::Uploading(0.5), None),
            photo(1, PhotoState::Ready("https://a.example/1.jpg".to_string()), None),
            photo(2, PhotoState::Refused("Not an image.".to_string()), None),
            photo(3, PhotoState::NotCreated { address: "https://a.example/3.jpg".to_string(), error: refused }, None),
            photo(4, PhotoState::Ready("https://a.example/4.jpg".to_string()), Some(kitchen.clone())),
        ];
        assert_eq!(ready_count(&photos), 3);
        assert_eq!(uploading_count(&photos), 1);

        let shared = ConfigDraft::default();
        let every = photos_to_send(&photos, None, &shared);
        let keys: Vec<u32> = every.iter().map(|photo| photo.key).collect();
        assert_eq!(keys, [1, 3, 4], "only photos with an address are sent");
        assert_eq!((every[1].address.as_str(), every[1].label.as_str()), ("https://a.example/3.jpg", "3.jpg"));
        assert_eq!(every[0].draft, shared);
        assert_eq!(every[2].draft, kitchen, "a photo's own settings win");
        let again = photos_to_send(&photos, Some(&[3, 0]), &shared);
        assert_eq!(again.len(), 1, "only the keys asked for, and only with an address");
        assert_eq!(again[0].key, 3);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_photo_is_staged_as_its_guessed_or_chosen_room_unless_it_has_settings_of_its_own() {
        let shared = ConfigDraft { count: 2, ..ConfigDraft::default() };
        let mut bedroom = Photo::new(0, "Master bedroom.jpg".into(), "a".into(), PhotoState::Uploading(0.0));
        assert_eq!((bedroom.room.clone(), bedroom.room_guessed), (Some(RoomType::Bed), true));
        assert_eq!(bedroom.draft(&shared), ConfigDraft { room_type: RoomType::Bed, ..shared.clone() });
        bedroom.style = Some(Style::Coastal);
        assert_eq!(bedroom.draft(&shared).style, Style::Coastal);
        assert!(bedroom.stages_with_board_settings(&shared));
        let unnamed = Photo::new(1, "IMG_1.jpg".into(), "b".into(), PhotoState::Uploading(0.0));
        assert_eq!(unnamed.draft(&shared), shared, "no guess: the board's room");
        let kitchen = ConfigDraft { room_type: RoomType::Kitchen, ..ConfigDraft::default() };
        bedroom.own = Some(kitchen.clone());
        assert_eq!(bedroom.draft(&shared), kitchen, "its own settings win");
        assert!(!bedroom.stages_with_board_settings(&shared));
        let dusk = ConfigDraft { kind: Kind::DayToDusk, ..ConfigDraft::default() };
        assert!(!unnamed.stages_with_board_settings(&dusk), "no room to choose when the board does not stage");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_furnished_photo_on_the_board_has_its_furniture_removed_first_unless_the_agent_keeps_it() {
        let shared = ConfigDraft::default();
        let mut living = Photo::new(0, "living-furnished.jpg".into(), "a".into(), PhotoState::Uploading(0.0));
        assert_eq!(living.draft(&shared).removal, RemovalMode::Off, "not analysed yet");
        living.furnishing = Some(Furnishing::Furnished(14.0));
        assert_eq!(living.draft(&shared).removal, RemovalMode::On);
        living.furnishing = Some(Furnishing::Unknown);
        assert_eq!(living.draft(&shared).removal, RemovalMode::Auto, "not known: the service checks");
        living.furnishing = Some(Furnishing::Empty);
        assert_eq!(living.draft(&shared).removal, RemovalMode::Off);
        let removing = ConfigDraft { removal: RemovalMode::Auto, ..shared.clone() };
        assert_eq!(living.draft(&removing).removal, RemovalMode::Auto, "the board's own choice to remove stands");
        living.furnishing = Some(Furnishing::Furnished(14.0));
        let outside = Photo { room: Some(RoomType::Outdoor), ..living.clone() };
        assert_eq!(outside.draft(&shared).removal, RemovalMode::Off, "the outside is staged as it is");
        living.removal = Some(RemovalMode::Off);
        assert_eq!(living.draft(&shared).removal, RemovalMode::Off, "kept on the photo itself");
        let sent = bulk_entries([("https://a.example/1.jpg", &Photo { removal: None, ..living }.draft(&shared))]);
        let asked = serde_json::to_value(&sent[0].config).unwrap()["remove_furniture"]["mode"].clone();
        assert_eq!(asked, "on");

        let ready = |furnishing| Photo {
            furnishing,
            ..Photo::new(1, "a.jpg".into(), "a".into(), PhotoState::Ready("https://a.example/a.jpg".into()))
        };
        let waiting = [ready(None), ready(Some(Furnishing::Checking)), ready(Some(Furnishing::Empty))];
        assert_eq!(checking_count(&waiting, &shared), 2, "not created before the furniture is known");
        let dusk = ConfigDraft { kind: Kind::DayToDusk, ..shared.clone() };
        assert_eq!(checking_count(&waiting, &dusk), 0, "nothing to know for a dusk");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_waiting_photo_says_which_settings_it_has() {
        assert_eq!(settings_words(Locale::en, None), "The board's settings");
        let kitchen = ConfigDraft { room_type: vstage_api::RoomType::Kitchen, ..ConfigDraft::default() };
        let own = settings_words(Locale::en, Some(&kitchen));
        assert!(own.starts_with("Kitchen · "), "its own settings, described: {own}");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn bulk_entries_carry_each_photos_own_configuration() {
        let shared = ConfigDraft { count: 2, ..ConfigDraft::default() };
        let kitchen = ConfigDraft { room_type: vstage_api::RoomType::Kitchen, ..shared.clone() };
        let entries = bulk_entries([("https://a.example/1.jpg ", &shared), ("https://a.example/2.jpg", &kitchen)]);
        assert_eq!(entries[0].image_url, "https://a.example/1.jpg");
        assert_eq!(entries[1].variation_count, 2);
        let room = serde_json::to_value(&entries[1].config).unwrap()["add_furniture"]["room_type"].clone();
        assert_eq!(room, "kitchen");
    }
}
