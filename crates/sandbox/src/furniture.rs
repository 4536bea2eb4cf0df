//! Whether a photo has furniture, for `auto` removal (API.md base variation rule 3): the analysis's mask
//! covering at least `MIN_PERCENT` of the photo. A photo that cannot be read counts as furnished; its variations
//! then fail with the reason.

use std::collections::HashSet;

use crate::SandboxState;
use crate::imaging;

/// Below this share of masked pixels a room counts as empty.
pub const MIN_PERCENT: f64 = 2.0;

/// The photos among `urls` that have no furniture.
pub async fn unfurnished(state: &SandboxState, urls: impl IntoIterator<Item = String>) -> HashSet<String> {
    let mut empty = HashSet::new();
    for url in urls.into_iter().collect::<HashSet<_>>() {
        let Ok(bytes) = state.fetcher.fetch(&url).await else { continue };
        let percent = tokio::task::spawn_blocking(move || {
            let photo = imaging::decode(&bytes).ok()?;
            let mask = imaging::furniture_mask(&photo);
            let white = mask.pixels().filter(|p| p.0[0] > 127).count();
            Some(white as f64 * 100.0 / (f64::from(mask.width()) * f64::from(mask.height())))
        })
        .await
        .ok()
        .flatten();
        if percent.is_some_and(|percent| percent < MIN_PERCENT) {
            empty.insert(url);
        }
    }
    empty
}
