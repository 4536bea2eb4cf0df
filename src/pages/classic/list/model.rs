//! What the classic renders list works out as plain functions: the query for a page and the picture a card shows.
//! Tested in the browser.

use vstage_api::{ListRenders, SortOrder, v1};

pub const PAGE_SIZE: u32 = 20;

/// The query for the page, newest first, that starts at `cursor` (`None`: the first page).
pub fn page_query(cursor: Option<String>) -> ListRenders {
    ListRenders { limit: Some(PAGE_SIZE), cursor, order: Some(SortOrder::Desc) }
}

/// The picture of a render's card: its newest image, else the photo it was made from.
pub fn newest_image(render: &v1::Render) -> Option<String> {
    render.outputs.last().cloned().or_else(|| render.image_url.clone())
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test(unsupported = test)]
    fn pages_are_twenty_newest_first() {
        assert_eq!(page_query(None), ListRenders { limit: Some(20), cursor: None, order: Some(SortOrder::Desc) });
        assert_eq!(page_query(Some("c1".into())).cursor.as_deref(), Some("c1"));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_card_shows_the_newest_image_else_the_photo() {
        let render = |value| serde_json::from_value::<v1::Render>(value).unwrap();
        let done = render(json!({"render_id": "r", "status": "done", "outputs": ["a", "b"], "image_url": "p"}));
        assert_eq!(newest_image(&done).as_deref(), Some("b"));
        let queued = render(json!({"render_id": "r", "status": "queued", "image_url": "p"}));
        assert_eq!(newest_image(&queued).as_deref(), Some("p"));
        assert_eq!(newest_image(&render(json!({"render_id": "r", "status": "queued"}))), None);
    }
}
