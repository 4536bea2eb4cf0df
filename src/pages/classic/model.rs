//! The classic (v1) studio's wording and requests, as plain functions tested in the browser: the options' strings as
//! words, the three modes of use as a create request, the create form's words and answer, a render's outputs, and
//! the service's refusals as sentences.

use leptos_i18n::td_string;
use vstage_api::{ApiError, Message, RemovalMode, RoomType, Style, v1};

use crate::describe;
use crate::locale::Locale;
use crate::locale::errors::form_error;
use crate::upload;

/// A string of `GET /v1/options` in words (`home_office` → "Home office", "Arbeitszimmer"); sent back exactly as it
/// came. A value the contract does not know is shown as it came, only spaced and capitalised.
pub fn label(locale: Locale, value: &str) -> String {
    let room = RoomType::from(value);
    if room.is_known() {
        return describe::room_type(locale, &room);
    }
    let style = Style::from(value);
    if style.is_known() {
        return describe::style(locale, &style);
    }
    let words = value.replace(['_', '-'], " ");
    let mut letters = words.trim().chars();
    letters.next().map(|first| first.to_uppercase().chain(letters).collect()).unwrap_or_default()
}

/// The three ways v1 is used (service-api.md's modes of use).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    StagingOnly,
    DeclutterOnly,
    /// Decluttering, then staging: always (`on`) or only when furniture is found (`auto`).
    DeclutterAndStage {
        always: bool,
    },
}

impl Mode {
    pub const ALL: [Mode; 4] = [
        Mode::StagingOnly,
        Mode::DeclutterOnly,
        Mode::DeclutterAndStage { always: true },
        Mode::DeclutterAndStage { always: false },
    ];

    pub fn label(self, locale: Locale) -> &'static str {
        match self {
            Mode::StagingOnly => td_string!(locale, classic.mode_staging_only),
            Mode::DeclutterOnly => td_string!(locale, classic.mode_declutter_only),
            Mode::DeclutterAndStage { always: true } => td_string!(locale, classic.mode_declutter_then_stage),
            Mode::DeclutterAndStage { always: false } => td_string!(locale, classic.mode_declutter_if_needed),
        }
    }

    pub fn explained(self, locale: Locale) -> &'static str {
        match self {
            Mode::StagingOnly => td_string!(locale, classic.mode_staging_only_explained),
            Mode::DeclutterOnly => td_string!(locale, classic.mode_declutter_only_explained),
            Mode::DeclutterAndStage { always: true } => td_string!(locale, classic.mode_declutter_then_stage_explained),
            Mode::DeclutterAndStage { always: false } => td_string!(locale, classic.mode_declutter_if_needed_explained),
        }
    }

    /// Whether a room type and a style are asked for.
    pub fn stages(self) -> bool {
        self != Mode::DeclutterOnly
    }

    /// Whether a hand-made mask can replace the automatic one.
    pub fn declutters(self) -> bool {
        self != Mode::StagingOnly
    }
}

/// What the create form holds, besides the photo.
#[derive(Debug, Clone, PartialEq)]
pub struct Choices {
    pub mode: Mode,
    pub room_type: String,
    pub style: String,
    /// `4k`, `full-hd`, or empty for the service's default.
    pub resolution: String,
    pub watermark: bool,
    pub wait: bool,
    pub mask_url: Option<String>,
}

/// `POST /v1/render/create` for these choices; `image_url` is `None` when the photo goes as a file.
pub fn create_request(image_url: Option<String>, choices: &Choices) -> v1::CreateRender {
    let stages = choices.mode.stages();
    let (declutter_mode, add_furniture) = match choices.mode {
        Mode::StagingOnly => (RemovalMode::Off, None),
        Mode::DeclutterOnly => (RemovalMode::On, Some(false)),
        Mode::DeclutterAndStage { always: true } => (RemovalMode::On, Some(true)),
        Mode::DeclutterAndStage { always: false } => (RemovalMode::Auto, Some(true)),
    };
    v1::CreateRender {
        image_url: image_url.map(|url| url.trim().to_string()),
        room_type: stages.then(|| RoomType::from(choices.room_type.as_str())),
        style: stages.then(|| Style::from(choices.style.as_str())),
        resolution: Some(choices.resolution.as_str()).filter(|r| !r.is_empty()).map(v1::Resolution::from),
        wait_for_completion: Some(choices.wait),
        add_virtually_staged_watermark: choices.watermark.then_some(true),
        declutter_mode: Some(declutter_mode),
        declutter_mask_url: choices.mask_url.clone().filter(|_| choices.mode.declutters()),
        add_furniture,
    }
}

/// One image of a v1 render, newest last.
#[derive(Debug, Clone, PartialEq)]
pub struct Output {
    pub url: String,
    /// "Bedroom, Scandinavian", or "Empty room" for a decluttering result.
    pub caption: String,
    /// Whether it is a decluttering result (an empty room: named so, or listed with no room type or style).
    pub empty: bool,
}

/// A render's outputs, captioned in `locale`.
pub fn outputs(locale: Locale, render: &v1::Render) -> Vec<Output> {
    render
        .outputs
        .iter()
        .enumerate()
        .map(|(index, url)| {
            // The service names a decluttered output `..._furniture_removed...` and lists the render's room type
            // and style beside it too (docs/api-notes.md); older answers list empty strings.
            let decluttered = url.contains("furniture_removed");
            let listed = |list: &[String]| list.get(index).map(String::as_str).unwrap_or_default().to_string();
            let (room, style) = match decluttered {
                true => (String::new(), String::new()),
                false => (listed(&render.outputs_room_types), listed(&render.outputs_styles)),
            };
            let (room, style) = (room.as_str(), style.as_str());
            let caption = match (room, style) {
                ("", "") => td_string!(locale, classic.output_empty_room).to_string(),
                (room, "") => label(locale, room),
                ("", style) => label(locale, style),
                (room, style) => {
                    td_string!(locale, classic.output_caption, room = label(locale, room), style = label(locale, style))
                }
            };
            Output { url: url.clone(), caption, empty: room.is_empty() && style.is_empty() }
        })
        .collect()
}

/// A v1 render's status in words.
pub fn status_words(locale: Locale, status: &v1::Status) -> String {
    match status {
        v1::Status::Queued => td_string!(locale, classic.status_queued).into(),
        v1::Status::Rendering => td_string!(locale, classic.status_rendering).into(),
        v1::Status::Done => td_string!(locale, classic.status_done).into(),
        v1::Status::Error => td_string!(locale, classic.status_failed).into(),
        v1::Status::Other(other) => other.clone(),
    }
}

/// Why a variation cannot be added to a render of this status (`None`: not read yet) yet; `None` once it is done.
pub fn not_done_yet(locale: Locale, status: Option<&v1::Status>) -> Option<String> {
    let Some(status) = status else {
        return Some(td_string!(locale, classic.vary_loading).to_string());
    };
    let reason = match status {
        v1::Status::Done => return None,
        v1::Status::Error => td_string!(locale, classic.vary_failed).to_string(),
        v1::Status::Queued => td_string!(locale, classic.vary_wait_queued).to_string(),
        v1::Status::Rendering => td_string!(locale, classic.vary_wait_rendering).to_string(),
        v1::Status::Other(other) => td_string!(locale, classic.vary_wait_other, status = other.to_lowercase()),
    };
    Some(reason)
}

/// The service's refusal of a v1 create or variation as a sentence that says what to do.
pub fn refusal(locale: Locale, error: &ApiError) -> String {
    match error.status() {
        Some(409) => td_string!(locale, classic.refusal_not_done).into(),
        Some(429) => td_string!(locale, classic.refusal_too_many).into(),
        _ => form_error(locale, error),
    }
}

/// Why a classic render was not created, in the studio's language when it is shown.
#[derive(Debug, Clone, PartialEq)]
pub enum CreateFailure {
    /// The upload's sentence (already in the studio's language), shown as it comes.
    Said(String),
    /// The request's own check refused it (`ApiError::Invalid`), or the service did.
    Refused(ApiError),
    /// The service's answer could not be read.
    Unreadable,
    /// A mask was asked for before a photo.
    PhotoFirst,
}

impl CreateFailure {
    pub fn words(&self, locale: Locale) -> String {
        match self {
            CreateFailure::Said(sentence) => sentence.clone(),
            CreateFailure::Refused(error) => refusal(locale, error),
            CreateFailure::Unreadable => td_string!(locale, classic.new_unreadable).into(),
            CreateFailure::PhotoFirst => td_string!(locale, classic.new_photo_first).into(),
        }
    }
}

/// The photo a mask is drawn over: the chosen file as this browser shows it (`file_shown_at`) when a file is
/// chosen, else the typed address once there is one.
pub fn photo_for_mask(file_chosen: bool, file_shown_at: Option<String>, address: &str) -> Option<String> {
    if file_chosen { file_shown_at } else { Some(address.trim().to_string()).filter(|address| !address.is_empty()) }
}

/// The mask button's words: draw a mask, or change the one drawn.
pub fn mask_action(locale: Locale, drawn: bool) -> &'static str {
    if drawn { td_string!(locale, classic.new_mask_change) } else { td_string!(locale, classic.new_mask_draw) }
}

/// What becomes of the furniture without a mask drawn, or with one.
pub fn mask_hint(locale: Locale, drawn: bool) -> &'static str {
    if drawn { td_string!(locale, classic.new_mask_custom) } else { td_string!(locale, classic.new_mask_auto) }
}

/// The photo's upload with the form (0.0 to 1.0) in words.
pub fn uploading(locale: Locale, done: f64) -> String {
    td_string!(locale, classic.new_uploading, percent = upload::percent(done))
}

/// The create button's words: what it does, else what is under way (rendering when the form waits for it).
pub fn submit_words(locale: Locale, sending: bool, wait: bool) -> &'static str {
    match (sending, wait) {
        (true, true) => td_string!(locale, classic.new_rendering),
        (true, false) => td_string!(locale, classic.sending),
        (false, _) => td_string!(locale, classic.new_submit),
    }
}

/// The answer to a multipart create: the render, or why not (the service's refusal, put in words when shown).
pub fn created_from(status: u16, body: &[u8]) -> Result<v1::Created, CreateFailure> {
    if (200..300).contains(&status) {
        return serde_json::from_slice(body).map_err(|_| CreateFailure::Unreadable);
    }
    let message = serde_json::from_slice::<Message>(body).ok().map(|body| body.message);
    Err(CreateFailure::Refused(ApiError::Http { status, message }))
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test(unsupported = test)]
    fn options_are_worded_and_sent_back_as_given() {
        assert_eq!(label(Locale::en, "home_office"), "Home office");
        assert_eq!(label(Locale::en, "scandinavian"), "Scandinavian");
        assert_eq!(label(Locale::en, "mid-century modern"), "Mid-century");
        assert_eq!(label(Locale::en, "american_classic"), "American classic");
        assert_eq!(label(Locale::en, "southwestern"), "Southwestern");
        // the contract's values in the studio's language, others as they come
        assert_eq!(label(Locale::de, "home_office"), "Arbeitszimmer");
        assert_eq!(label(Locale::de, "scandinavian"), "Skandinavisch");
        assert_eq!(label(Locale::fr, "american_classic"), "American classic");
        let choices = Choices {
            mode: Mode::StagingOnly,
            room_type: "kids_room".into(),
            style: "mid-century modern".into(),
            resolution: String::new(),
            watermark: false,
            wait: true,
            mask_url: Some("https://m.example/mask.png".into()),
        };
        let request = serde_json::to_value(create_request(Some(" https://p.example/a.jpg ".into()), &choices)).unwrap();
        assert_eq!(
            request,
            json!({"image_url": "https://p.example/a.jpg", "room_type": "kids_room", "style": "mid-century modern",
                   "wait_for_completion": true, "declutter_mode": "off"}),
            "no mask without decluttering"
        );
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_three_modes_of_use() {
        let base = Choices {
            mode: Mode::DeclutterOnly,
            room_type: "bed".into(),
            style: "modern".into(),
            resolution: "4k".into(),
            watermark: true,
            wait: false,
            mask_url: Some("https://m.example/mask.png".into()),
        };
        let only = serde_json::to_value(create_request(None, &base)).unwrap();
        assert_eq!(
            only,
            json!({"resolution": "4k", "wait_for_completion": false, "add_virtually_staged_watermark": true,
                   "declutter_mode": "on", "declutter_mask_url": "https://m.example/mask.png", "add_furniture": false})
        );
        let both = create_request(None, &Choices { mode: Mode::DeclutterAndStage { always: false }, ..base });
        assert_eq!((both.declutter_mode, both.add_furniture), (Some(RemovalMode::Auto), Some(true)));
        assert_eq!(both.room_type, Some(RoomType::Bed));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_services_refusals_say_what_to_do() {
        let not_done = ApiError::Http { status: 409, message: Some("render is not done".into()) };
        assert!(refusal(Locale::en, &not_done).contains("once it is"));
        let busy = ApiError::Http { status: 429, message: None };
        let said = refusal(Locale::en, &busy);
        assert!(said.contains("50 renders in progress") && said.contains("Try again"));
        assert!(refusal(Locale::es, &busy).contains("50 renders en curso"));
        let other = ApiError::Http { status: 401, message: None };
        assert_eq!(refusal(Locale::en, &other), other.to_string());
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_variation_waits_for_the_render() {
        assert_eq!(not_done_yet(Locale::en, Some(&v1::Status::Done)), None);
        assert_eq!(
            not_done_yet(Locale::en, Some(&v1::Status::Rendering)).as_deref(),
            Some("A variation can be added once the render is done (it is rendering).")
        );
        assert_eq!(
            not_done_yet(Locale::en, Some(&v1::Status::Other("Paused".into()))).as_deref(),
            Some("A variation can be added once the render is done (it is paused).")
        );
        assert_eq!(not_done_yet(Locale::en, None).as_deref(), Some("Loading the render…"));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn outputs_are_captioned_newest_last() {
        let render: v1::Render = serde_json::from_value(json!({
            "render_id": "r", "status": "done", "outputs": ["a", "b", "c"],
            "outputs_room_types": ["bed", "", "kitchen"], "outputs_styles": ["modern", "", "american"],
        }))
        .unwrap();
        let captions: Vec<String> = outputs(Locale::en, &render).into_iter().map(|o| o.caption).collect();
        assert_eq!(captions, ["Bedroom, Modern", "Empty room", "Kitchen, American"]);
        let named: v1::Render = serde_json::from_value(json!({
            "render_id": "r", "status": "done", "outputs": ["https://x/r_furniture_removed_[0].png", "https://x/r-u1_0.png"],
            "outputs_room_types": ["bed", "bed"], "outputs_styles": ["modern", "modern"],
        }))
        .unwrap();
        let captions: Vec<String> = outputs(Locale::en, &named).into_iter().map(|o| o.caption).collect();
        assert_eq!(captions, ["Empty room", "Bedroom, Modern"], "the decluttered output is told by its name");
        let empty: Vec<bool> = outputs(Locale::fr, &render).into_iter().map(|o| o.empty).collect();
        assert_eq!(empty, [false, true, false]);
        assert_eq!(outputs(Locale::fr, &render)[1].caption, "Pièce vide");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_mask_is_drawn_over_the_file_chosen_else_the_address() {
        assert_eq!(photo_for_mask(true, Some("blob:a".into()), "https://p.example/a.jpg").as_deref(), Some("blob:a"));
        assert_eq!(photo_for_mask(true, None, "https://p.example/a.jpg"), None, "the file, though not shown");
        assert_eq!(
            photo_for_mask(false, None, " https://p.example/a.jpg ").as_deref(),
            Some("https://p.example/a.jpg")
        );
        assert_eq!(photo_for_mask(false, None, "  "), None);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_form_says_what_it_does_and_what_is_under_way() {
        assert_eq!(mask_action(Locale::en, false), "Mark the furniture to remove…");
        assert_eq!(mask_action(Locale::en, true), "Change the furniture to remove…");
        assert_eq!(mask_hint(Locale::en, false), "Without one, the service finds the furniture itself.");
        assert_eq!(mask_hint(Locale::en, true), "Your mask replaces the automatic one.");
        assert_eq!(uploading(Locale::en, 0.426), "Uploading… 43 %");
        assert_eq!(submit_words(Locale::en, false, true), "Create classic render");
        assert_eq!(submit_words(Locale::en, true, true), "Rendering…");
        assert_eq!(submit_words(Locale::en, true, false), "Sending…");
        assert_ne!(submit_words(Locale::de, false, false), submit_words(Locale::en, false, false));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_multipart_create_is_the_render_or_why_not() {
        let created = created_from(200, br#"{"render_id": "r1"}"#).unwrap();
        assert_eq!(created.render_id, "r1");
        assert_eq!(created_from(200, b"<html>").unwrap_err(), CreateFailure::Unreadable);
        assert_eq!(
            created_from(429, br#"{"message": "Too many."}"#).unwrap_err(),
            CreateFailure::Refused(ApiError::Http { status: 429, message: Some("Too many.".into()) })
        );
        assert_eq!(
            created_from(502, b"").unwrap_err(),
            CreateFailure::Refused(ApiError::Http { status: 502, message: None })
        );
    }
}
