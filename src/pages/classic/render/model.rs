//! What the classic render page works out as plain functions of the render: whether it is still being made, the
//! progress that restarts the polling, the percentage shown, the output compared, the styles a variation offers
//! and its request. Tested natively; the words are the classic studio's `model`.

use vstage_api::{RoomType, Style, v1};

/// Whether the render is still being made (or not read yet): it is polled, and its progress shown.
pub fn working(render: Option<&v1::Render>) -> bool {
    render.is_none_or(|render| matches!(render.status, v1::Status::Queued | v1::Status::Rendering))
}

/// What changes when the render moves on (status, outputs, progress): a change starts the polling at 1 s again.
pub fn progress_key(render: Option<&v1::Render>) -> String {
    render.map(|r| format!("{}/{}/{:?}", r.status.as_str(), r.outputs.len(), r.progress)).unwrap_or_default()
}

/// The progress in whole percent, shown only while the render is being made.
pub fn shown_percent(render: &v1::Render) -> Option<f64> {
    render.progress.filter(|_| working(Some(render))).map(|progress| (progress * 100.0).round())
}

/// The output shown against the photo: the one chosen, else the newest.
pub fn compared_output(chosen: Option<usize>, outputs: usize) -> Option<usize> {
    chosen.or_else(|| outputs.checked_sub(1))
}

/// The styles a variation offers: the service's variation styles, else all its styles.
pub fn variation_styles(options: &v1::Options) -> Vec<String> {
    if options.variation_styles.is_empty() { options.styles.clone() } else { options.variation_styles.clone() }
}

/// The variation form's choices.
#[derive(Debug, Clone, PartialEq)]
pub struct VaryChoices {
    pub room_type: String,
    pub style: String,
    pub watermark: bool,
    pub queued_at_once: bool,
    pub wait: bool,
}

/// `POST /v1/render/create-variation` for these choices, every one of them said.
pub fn variation_request(choices: &VaryChoices) -> v1::CreateVariation {
    v1::CreateVariation {
        // the client names the render in the query
        render_id: None,
        wait_for_completion: Some(choices.wait),
        room_type: Some(RoomType::from(choices.room_type.as_str())),
        style: Some(Style::from(choices.style.as_str())),
        add_virtually_staged_watermark: Some(choices.watermark),
        switch_to_queued_immediately: Some(choices.queued_at_once),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn render(status: &str, outputs: usize, progress: Option<f64>) -> v1::Render {
        let outputs: Vec<String> = (0..outputs).map(|n| format!("https://img.example/{n}.jpg")).collect();
        serde_json::from_value(json!({"render_id": "r1", "status": status, "outputs": outputs, "progress": progress}))
            .unwrap()
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_render_is_followed_while_it_is_made() {
        assert!(working(None), "not read yet");
        assert!(working(Some(&render("queued", 0, None))));
        assert!(working(Some(&render("rendering", 1, Some(0.4)))));
        assert!(!working(Some(&render("done", 2, Some(1.0)))));
        assert!(!working(Some(&render("error", 0, None))));
        assert_eq!(progress_key(None), "");
        assert_eq!(progress_key(Some(&render("rendering", 1, Some(0.5)))), "rendering/1/Some(0.5)");
        assert_ne!(
            progress_key(Some(&render("rendering", 1, Some(0.5)))),
            progress_key(Some(&render("rendering", 1, Some(0.6)))),
            "progress restarts the polling"
        );
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_percentage_is_whole_and_only_while_working() {
        assert_eq!(shown_percent(&render("rendering", 0, Some(0.426))), Some(43.0));
        assert_eq!(shown_percent(&render("queued", 0, None)), None);
        assert_eq!(shown_percent(&render("done", 1, Some(1.0))), None);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_newest_output_is_compared_unless_another_is_chosen() {
        assert_eq!(compared_output(None, 3), Some(2));
        assert_eq!(compared_output(Some(0), 3), Some(0));
        assert_eq!(compared_output(None, 0), None);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_variation_offers_its_styles_and_sends_every_choice() {
        let mut options = v1::Options {
            room_types: vec!["bed".into()],
            styles: vec!["modern".into(), "coastal".into()],
            variation_styles: Vec::new(),
        };
        assert_eq!(variation_styles(&options), ["modern", "coastal"]);
        options.variation_styles = vec!["coastal".into()];
        assert_eq!(variation_styles(&options), ["coastal"]);

        let choices = VaryChoices {
            room_type: "bed".into(),
            style: "coastal".into(),
            watermark: false,
            queued_at_once: true,
            wait: false,
        };
        assert_eq!(
            serde_json::to_value(variation_request(&choices)).unwrap(),
            json!({"wait_for_completion": false, "roomType": "bed", "style": "coastal",
                   "add_virtually_staged_watermark": false, "switch_to_queued_immediately": true})
        );
    }
}
