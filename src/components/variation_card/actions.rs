//! A finished variation card's actions: "Use in listing" (where a listing takes it; then "In the listing ✓"), download (each view of a
//! multi-view result), compare with its before, and, on a removal variation, stage the empty room.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::ResultImage;

use crate::listing::ListingUse;
use crate::locale::use_locale;

#[component]
pub fn VariationActions(
    /// The variation's id, which each action is called with.
    id: String,
    /// The result's images (one per view of a multi-view result), to download.
    images: Vec<ResultImage>,
    /// What they are saved as, without the extension (`living-room-modern-2`; a view's number after it).
    file_name: String,
    on_compare: Callback<String>,
    /// Only on removal variations.
    on_stage: Option<Callback<String>>,
    /// Only where there is a listing to take the result: with the image chosen (the view of a multi-view result).
    on_use: Option<ListingUse>,
) -> impl IntoView {
    let locale = use_locale();
    let (compare_id, stage_id, use_id) = (id.clone(), id.clone(), id);
    view! {
        <div class="vstage-variation__actions">
        {on_use.map(|on_use| (0..images.len()).map(|index| {
            let (use_id, views) = (use_id.clone(), images.len());
            let words = move || match views {
                1 => td_string!(locale.get(), studio.variation_use).to_string(),
                _ => td_string!(locale.get(), studio.variation_use_view, number = index + 1).to_string(),
            };
            let shown_id = use_id.clone();
            let placed = {
                let shown_id = shown_id.clone();
                move || on_use.placed(&shown_id, index as u32)
            };
            view! {
                <Show
                    when=placed
                    fallback=move || {
                        let use_id = use_id.clone();
                        view! {
                            <button class="vstage-button vstage-button--small" part="primary-button" on:click=move |_| on_use.choose.run((use_id.clone(), index as u32))>
                                {words}
                            </button>
                        }
                    }
                >
                    <InListingNote on_use id=shown_id.clone() index=index as u32 view=(views > 1).then_some(index + 1) />
                </Show>
            }
        }).collect_view())}
            {images.iter().enumerate().map(|(index, image)| {
                let views = images.len();
                let words = move || match views {
                    1 => td_string!(locale.get(), studio.download).to_string(),
                    _ => td_string!(locale.get(), studio.download_view, number = index + 1).to_string(),
                };
                let name = if views == 1 { file_name.clone() } else { format!("{file_name}-view-{}", index + 1) };
                let (href, download) = saved_as(&image.url, &name);
                view! {
                    <a class="vstage-button vstage-button--small vstage-button--secondary" href=href download=download target="_blank" rel="noopener">
                        {words}
                    </a>
                }
            }).collect_view()}
            <button class="vstage-button vstage-button--small vstage-button--secondary" on:click=move |_| on_compare.run(compare_id.clone())>
                {move || td_string!(locale.get(), studio.variation_compare)}
            </button>
            {on_stage.map(|on_stage| view! {
                <button class="vstage-button vstage-button--small" on:click=move |_| on_stage.run(stage_id.clone())>
                    {move || td_string!(locale.get(), studio.variation_stage_empty_room)}
                </button>
            })}
        </div>
    }
}

/// The address a result is downloaded from, and the name it is saved as: the `download` attribute names it where the
/// page and the image share an origin; a copy the server keeps (a signed `/api/results/` link) is also asked for
/// under that name (`&download=`), which the browser takes from any origin.
fn saved_as(url: &str, name: &str) -> (String, String) {
    let extension = url
        .split(['?', '#'])
        .next()
        .and_then(|path| path.rsplit_once('.'))
        .map(|(_, extension)| extension)
        .filter(|extension| extension.len() <= 4 && extension.bytes().all(|b| b.is_ascii_alphanumeric()))
        .unwrap_or("jpg");
    let kept = url.contains("/api/results/") && url.contains("?sig=");
    let href = if kept { format!("{url}&download={name}") } else { url.to_string() };
    (href, format!("{name}.{extension}"))
}

/// "In the listing ✓" in place of "Use in listing" once an image was handed over, saying what the listing does with
/// it: shows it in place of the render's photo, or right after it where its rules show the original first.
#[component]
fn InListingNote(
    on_use: ListingUse,
    /// The variation's id and image.
    id: String,
    index: u32,
    /// The view's number, for a multi-view result.
    view: Option<usize>,
) -> impl IntoView {
    let locale = use_locale();
    view! { <p class="vstage-in-listing" role="status">{move || on_use.words(locale.get(), &id, index, view)}</p> }
}
