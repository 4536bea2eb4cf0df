//! The classic (v1) studio's wording and requests, as plain functions tested natively: the options' strings as
//! words, the three modes of use as a create request, a render's outputs, and the service's refusals as sentences.

use vstage_api::{ApiError, RemovalMode, RoomType, Style, v1};

use crate::describe;

/// A string of `GET /v1/options` in words (`home_office` → "Home office"); sent back exactly as it came.
pub fn label(value: &str) -> String {
    let room = RoomType::from(value);
    if room.is_known() {
        return describe::room_type(&room);
    }
    let style = Style::from(value);
    if style.is_known() {
        return describe::style(&style);
    }
    let words = value.replace(['_', '-'], " ");
    let mut letters = words.trim().chars();
    letters.next().map(|first| first.to_uppercase().chain(letters).collect()).unwrap_or_default()
}

/// The three ways v1 is used (API.md's modes of use).
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

    pub fn label(self) -> &'static str {
        match self {
            Mode::StagingOnly => "Staging only",
            Mode::DeclutterOnly => "Decluttering only",
            Mode::DeclutterAndStage { always: true } => "Declutter, then stage",
            Mode::DeclutterAndStage { always: false } => "Declutter if needed, then stage",
        }
    }

    pub fn explained(self) -> &'static str {
        match self {
            Mode::StagingOnly => "Furniture is added to the room as it is. One image.",
            Mode::DeclutterOnly => "The furniture is removed and the room left empty. One image.",
            Mode::DeclutterAndStage { always: true } => {
                "The furniture is removed, then the empty room is staged. Two images: staged and empty; later \
                 variations are staged on the empty room."
            }
            Mode::DeclutterAndStage { always: false } => {
                "The furniture is removed only when some is found, then the room is staged."
            }
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
}

pub fn outputs(render: &v1::Render) -> Vec<Output> {
    render
        .outputs
        .iter()
        .enumerate()
        .map(|(index, url)| {
            let room = render.outputs_room_types.get(index).map(String::as_str).unwrap_or_default();
            let style = render.outputs_styles.get(index).map(String::as_str).unwrap_or_default();
            let caption = match (room, style) {
                ("", "") => "Empty room".to_string(),
                (room, "") => label(room),
                ("", style) => label(style),
                (room, style) => format!("{}, {}", label(room), label(style)),
            };
            Output { url: url.clone(), caption }
        })
        .collect()
}

/// A v1 render's status in words.
pub fn status_words(status: &v1::Status) -> String {
    match status {
        v1::Status::Queued => "Queued".into(),
        v1::Status::Rendering => "Rendering".into(),
        v1::Status::Done => "Done".into(),
        v1::Status::Error => "Failed".into(),
        v1::Status::Other(other) => other.clone(),
    }
}

/// The service's refusal of a v1 create or variation as a sentence that says what to do.
pub fn refusal(error: &ApiError) -> String {
    match error.status() {
        Some(409) => "This render is not done yet: a variation can be added once it is. Wait for it to finish.".into(),
        Some(429) => "The account has 50 renders in progress, the most the classic API takes at once. Try again in \
                      a moment, when some have finished."
            .into(),
        _ => error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn options_are_worded_and_sent_back_as_given() {
        assert_eq!(label("home_office"), "Home office");
        assert_eq!(label("scandinavian"), "Scandinavian");
        assert_eq!(label("mid-century modern"), "Mid-century");
        assert_eq!(label("american_classic"), "American classic");
        assert_eq!(label("southwestern"), "Southwestern");
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

    #[test]
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

    #[test]
    fn the_services_refusals_say_what_to_do() {
        let not_done = ApiError::Http { status: 409, message: Some("render is not done".into()) };
        assert!(refusal(&not_done).contains("once it is"));
        let busy = ApiError::Http { status: 429, message: None };
        assert!(refusal(&busy).contains("50 renders in progress") && refusal(&busy).contains("Try again"));
    }

    #[test]
    fn outputs_are_captioned_newest_last() {
        let render: v1::Render = serde_json::from_value(json!({
            "render_id": "r", "status": "done", "outputs": ["a", "b", "c"],
            "outputs_room_types": ["bed", "", "kitchen"], "outputs_styles": ["modern", "", "american"],
        }))
        .unwrap();
        let captions: Vec<String> = outputs(&render).into_iter().map(|o| o.caption).collect();
        assert_eq!(captions, ["Bedroom, Modern", "Empty room", "Kitchen, American"]);
    }
}
