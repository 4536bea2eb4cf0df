//! The fields of one configuration: the kind of processing and its options, and the variation count, which is
//! held within what is left of the render's 20 as the person types. Errors appear next to their field. The draft's
//! reads and edits are `DraftFields` (`draft.rs`); each group of fields is a component of its own.

mod count_field;
mod draft;
mod kind_choice;
mod mask_choice;
mod sky_choice;
mod staging_options;
mod style_choice;

use crate::components::style_picker::STYLES;
use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::{OutputResolution, RemovalMode, RoomType, SkyStyle, ValidationError};

use crate::components::choice_field::ChoiceField;
use crate::config_draft::Kind;
use crate::describe;
use crate::locale::{Locale, use_locale};
use count_field::CountField;
use draft::DraftFields;
pub use draft::Drafts;
use kind_choice::KindChoice;
use mask_choice::MaskChoice;
use sky_choice::SkyChoice;
use staging_options::StagingOptions;

/// Provided by a form that can open the mask editor: called with the id of the draft that wants a custom mask.
#[derive(Clone, Copy)]
pub struct MaskRequest(pub Callback<u32>);

/// The room types and styles offered, in the order shown.
pub const ROOM_TYPES: [RoomType; 8] = [
    RoomType::Living,
    RoomType::Bed,
    RoomType::Kitchen,
    RoomType::Dining,
    RoomType::HomeOffice,
    RoomType::KidsRoom,
    RoomType::Bathroom,
    RoomType::Outdoor,
];
/// The room types as a `ChoiceField` offers them: the contract's spelling and the words in `locale`.
pub fn room_options(locale: Locale) -> Vec<(String, String)> {
    ROOM_TYPES.iter().map(|room| (room.as_str().to_string(), describe::room_type(locale, room))).collect()
}

/// The styles as a `ChoiceField` offers them (where there is no room for the pictures of `StylePicker`).
pub fn style_options(locale: Locale) -> Vec<(String, String)> {
    STYLES.iter().map(|style| (style.as_str().to_string(), describe::style(locale, style))).collect()
}

const REMOVAL_MODES: [RemovalMode; 3] = [RemovalMode::Off, RemovalMode::Auto, RemovalMode::On];

/// What staging does with the furniture there is, as a `ChoiceField` offers it (a board photo's own choice).
pub fn removal_options(locale: Locale) -> Vec<(String, String)> {
    REMOVAL_MODES.iter().map(|mode| (mode.as_str().to_string(), describe::removal_mode(locale, mode))).collect()
}
const SKIES: [SkyStyle; 3] = [SkyStyle::Dusk, SkyStyle::Golden, SkyStyle::Blue];
const RESOLUTIONS: [OutputResolution; 3] =
    [OutputResolution::Default, OutputResolution::FourK, OutputResolution::FullHd];

#[component]
pub fn ConfigFields(
    /// This draft's id in `drafts`.
    id: u32,
    drafts: Drafts,
    /// Variations the render already has (0 for a new render).
    #[prop(into)]
    existing: Signal<u64>,
    /// The form's last validation error, shown here when it is about this draft.
    #[prop(into)]
    error: Signal<Option<ValidationError>>,
) -> impl IntoView {
    let locale = use_locale();
    let fields = DraftFields::new(id, drafts, existing);
    let kind = move || fields.draft().kind;
    let resolution = move || {
        let locale = locale.get();
        view! {
            <ChoiceField
                id=fields.dom("resolution")
                label=td_string!(locale, forms.config_resolution)
                options=RESOLUTIONS.iter().map(|size| (size.to_string(), describe::resolution(locale, size))).collect()
                current=Signal::derive(move || fields.draft().resolution.to_string())
                on_pick=move |value: String| fields.edit(|d| d.resolution = OutputResolution::from(value.as_str()))
            />
        }
    };
    let config_error = move || fields.error_about(error.get(), "config", locale.get());
    view! {
        <fieldset class="vstage-config">
            <legend>{move || td_string!(locale.get(), forms.config_legend, number = fields.index() + 1)}</legend>
            <KindChoice fields />
            <Show when=move || kind() == Kind::Staging>
                <StagingOptions fields />
            </Show>
            <Show when=move || kind() == Kind::DayToDusk>
                <SkyChoice fields />
            </Show>
            <Show when=move || matches!(kind(), Kind::Staging | Kind::Declutter)>
                <label class="vstage-check">
                    <input
                        type="checkbox"
                        prop:checked=move || fields.draft().watermark
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            fields.edit(|d| d.watermark = on);
                        }
                    />
                    {move || td_string!(locale.get(), forms.config_watermark)}
                </label>
            </Show>
            <Show when=move || fields.draft().removes_furniture()>
                <MaskChoice fields />
            </Show>
            {resolution}
            <CountField fields error />
            {move || config_error().map(|message| view! { <p class="vstage-error" role="alert">{message}</p> })}
        </fieldset>
    }
}
