//! Whether a photo has furniture, for `auto` removal (service-api.md base variation rule 3): the analysis's mask
//! covering at least `MIN_PERCENT` of the photo. A photo that cannot be read counts as furnished; its variations
//! then fail with the reason.

use std::collections::HashSet;

use crate::SandboxState;
use crate::source::Kind;
use vstage_imaging as imaging;

/// Below this share of masked pixels a room counts as empty.
pub const MIN_PERCENT: f64 = 2.0;

/// The photos among `urls` that have no furniture.
pub async fn unfurnished(state: &SandboxState, urls: impl IntoIterator<Item = String>) -> HashSet<String> {
    let mut empty = HashSet::new();
    for url in urls.into_iter().collect::<HashSet<_>>() {
        let Ok(bytes) = state.fetcher.fetch(Kind::Image, &url).await else { continue };
        let percent = tokio::task::spawn_blocking(move || {
            imaging::decode(&bytes).ok().map(|photo| imaging::furniture_analysis(&photo).1)
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
