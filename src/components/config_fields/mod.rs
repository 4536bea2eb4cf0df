//! The fields of one configuration: the kind of processing and its options, and the variation count, which is
//! held within what is left of the render's 20 as the person types. Errors appear next to their field.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::{OutputResolution, RemovalMode, RoomType, SkyStyle, Style, ValidationError};

use crate::components::choice_field::ChoiceField;
use crate::config_draft::{ConfigDraft, Kind, count_limit, error_for};
use crate::describe;
use crate::locale::{errors, use_locale};

/// The drafts of a form, each with a stable id for keyed lists.
pub type Drafts = RwSignal<Vec<(u32, ConfigDraft)>>;

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
pub const STYLES: [Style; 8] = [
    Style::Modern,
    Style::Scandinavian,
    Style::Industrial,
    Style::Midcentury,
    Style::Luxury,
    Style::Farmhouse,
    Style::Coastal,
    Style::Standard,
];
const REMOVAL_MODES: [RemovalMode; 3] = [RemovalMode::Off, RemovalMode::Auto, RemovalMode::On];
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
    let index = move || drafts.with(|list| list.iter().position(|(i, _)| *i == id).unwrap_or(0));
    let draft =
        move || drafts.with(|list| list.iter().find(|(i, _)| *i == id).map(|(_, d)| d.clone())).unwrap_or_default();
    let edit = move |change: &dyn Fn(&mut ConfigDraft)| {
        drafts.update(|list| {
            if let Some((_, draft)) = list.iter_mut().find(|(i, _)| *i == id) {
                change(draft);
            }
        })
    };
    let mask_request = use_context::<MaskRequest>();
    let clamped = RwSignal::new(None::<u64>);
    // A change of kind or removal can change how many variations this draft makes: keep the total in bounds.
    let refit = move || {
        let (list, existing) = (drafts.get_untracked(), existing.get_untracked());
        let plain: Vec<ConfigDraft> = list.iter().map(|(_, d)| d.clone()).collect();
        let position = list.iter().position(|(i, _)| *i == id).unwrap_or(0);
        let limit = count_limit(&plain, position, existing);
        if plain.get(position).is_some_and(|d| d.count > limit) {
            edit(&|d| d.count = limit.max(1));
            clamped.set(Some(limit.max(1)));
        }
    };
    let set_count = move |value: String| {
        let requested: u64 = value.trim().parse().unwrap_or(0);
        let plain: Vec<ConfigDraft> = drafts.get_untracked().into_iter().map(|(_, d)| d).collect();
        let limit = count_limit(&plain, index(), existing.get_untracked());
        let count = requested.min(limit);
        clamped.set((requested > limit).then_some(limit));
        edit(&|d| d.count = count);
    };
    let field_error = move |field: &'static str| {
        move || {
            let single = drafts.with(Vec::len) == 1;
            error.get().and_then(|e| {
                let matched = error_for(&e, index(), single)?;
                (matched == field || (field == "config" && matched != "variation_count"))
                    .then(|| errors::invalid(locale.get(), &e))
            })
        }
    };
    let dom = move |name: &str| format!("vstage-config-{id}-{name}");
    let count_error = field_error("variation_count");
    let config_error = field_error("config");
    let limit = move || {
        let plain: Vec<ConfigDraft> = drafts.get().into_iter().map(|(_, d)| d).collect();
        count_limit(&plain, index(), existing.get())
    };

    view! {
        <fieldset class="vstage-config">
            <legend>{move || td_string!(locale.get(), forms.config_legend, number = index() + 1)}</legend>
            <div class="vstage-kinds" role="radiogroup" aria-label=move || td_string!(locale.get(), forms.config_processing)>
                {Kind::ALL
                    .into_iter()
                    .map(|kind| {
                        view! {
                            <label class="vstage-kind" class:vstage-kind--chosen=move || draft().kind == kind>
                                <input
                                    type="radio"
                                    name=dom("kind")
                                    prop:checked=move || draft().kind == kind
                                    on:change=move |_| {
                                        edit(&|d| d.kind = kind);
                                        refit();
                                    }
                                />
                                <span class="vstage-kind__name">{move || kind.label(locale.get())}</span>
                                <span class="vstage-kind__hint">{move || kind.explained(locale.get())}</span>
                            </label>
                        }
                    })
                    .collect_view()}
            </div>
            <Show when=move || draft().kind == Kind::Staging>
                // made again in another language: the options' words follow the locale
                {move || {
                    let locale = locale.get();
                    view! {
                        <ChoiceField
                            id=dom("room")
                            label=td_string!(locale, forms.config_room_type)
                            options=ROOM_TYPES
                                .iter()
                                .map(|room| (room.as_str().to_string(), describe::room_type(locale, room)))
                                .collect()
                            current=Signal::derive(move || draft().room_type.as_str().to_string())
                            on_pick=move |value: String| edit(&|d| d.room_type = RoomType::from(value.as_str()))
                        />
                        <ChoiceField
                            id=dom("style")
                            label=td_string!(locale, forms.config_style)
                            options=STYLES
                                .iter()
                                .map(|style| (style.as_str().to_string(), describe::style(locale, style)))
                                .collect()
                            current=Signal::derive(move || draft().style.as_str().to_string())
                            on_pick=move |value: String| edit(&|d| d.style = Style::from(value.as_str()))
                        />
                    }
                }}
                <Show
                    when=move || draft().base_variation_id.is_none()
                    fallback=move || view! {
                        <p class="vstage-muted">{move || td_string!(locale.get(), forms.config_staged_on_removal)}</p>
                    }
                >
                    {move || {
                        let locale = locale.get();
                        view! {
                            <ChoiceField
                                id=dom("removal")
                                label=td_string!(locale, forms.config_removal)
                                options=REMOVAL_MODES
                                    .iter()
                                    .map(|mode| (mode.as_str().to_string(), describe::removal_mode(locale, mode)))
                                    .collect()
                                current=Signal::derive(move || draft().removal.as_str().to_string())
                                on_pick=move |value: String| {
                                    edit(&|d| d.removal = RemovalMode::from(value.as_str()));
                                    refit();
                                }
                            />
                        }
                    }}
                    <Show when=move || draft().removal != RemovalMode::Off>
                        <p class="vstage-hint">{move || td_string!(locale.get(), forms.config_removal_hint)}</p>
                    </Show>
                </Show>
            </Show>
            <Show when=move || draft().kind == Kind::DayToDusk>
                <div class="vstage-skies" role="radiogroup" aria-label=move || td_string!(locale.get(), forms.config_sky)>
                    {SKIES
                        .iter()
                        .map(|sky| {
                            let chosen = {
                                let sky = sky.clone();
                                move || draft().sky == sky
                            };
                            let pick = sky.clone();
                            view! {
                                <label class="vstage-kind" class:vstage-kind--chosen=chosen.clone()>
                                    <input
                                        type="radio"
                                        name=dom("sky")
                                        prop:checked=chosen.clone()
                                        on:change=move |_| edit(&|d| d.sky = pick.clone())
                                    />
                                    <span class="vstage-kind__name">{
                                        let sky = sky.clone();
                                        move || describe::sky_style(locale.get(), &sky)
                                    }</span>
                                    <span class="vstage-kind__hint">{
                                        let sky = sky.clone();
                                        move || describe::sky_style_explained(locale.get(), &sky)
                                    }</span>
                                </label>
                            }
                        })
                        .collect_view()}
                </div>
            </Show>
            <Show when=move || matches!(draft().kind, Kind::Staging | Kind::Declutter)>
                <label class="vstage-check">
                    <input
                        type="checkbox"
                        prop:checked=move || draft().watermark
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            edit(&|d| d.watermark = on);
                        }
                    />
                    {move || td_string!(locale.get(), forms.config_watermark)}
                </label>
            </Show>
            <Show when=move || draft().removes_furniture()>
                <div class="vstage-field vstage-mask-choice">
                    <p class="vstage-hint">
                        {move || if draft().mask_url.is_some() {
                            td_string!(locale.get(), forms.config_mask_custom)
                        } else {
                            td_string!(locale.get(), forms.config_mask_automatic)
                        }}
                    </p>
                    {mask_request.map(|request| view! {
                        <button type="button" class="vstage-button vstage-button--secondary" on:click=move |_| request.0.run(id)>
                            {move || if draft().mask_url.is_some() {
                                td_string!(locale.get(), forms.config_mask_draw_new)
                            } else {
                                td_string!(locale.get(), forms.config_mask_draw)
                            }}
                        </button>
                    })}
                    <Show when=move || draft().mask_url.is_some()>
                        <button type="button" class="vstage-link" on:click=move |_| edit(&|d| d.mask_url = None)>
                            {move || td_string!(locale.get(), forms.config_mask_use_automatic)}
                        </button>
                    </Show>
                </div>
            </Show>
            {move || {
                let locale = locale.get();
                view! {
                    <ChoiceField
                        id=dom("resolution")
                        label=td_string!(locale, forms.config_resolution)
                        options=RESOLUTIONS
                            .iter()
                            .map(|size| (size.as_str().to_string(), describe::resolution(locale, size)))
                            .collect()
                        current=Signal::derive(move || draft().resolution.as_str().to_string())
                        on_pick=move |value: String| edit(&|d| d.resolution = OutputResolution::from(value.as_str()))
                    />
                }
            }}
            <div class="vstage-field">
                <label for=dom("count")>{move || td_string!(locale.get(), forms.config_count)}</label>
                <input
                    id=dom("count")
                    class="vstage-count"
                    type="number"
                    min="1"
                    max=move || limit().max(1).to_string()
                    inputmode="numeric"
                    prop:value=move || draft().count.to_string()
                    on:input=move |ev| set_count(event_target_value(&ev))
                    aria-invalid=move || count_error().is_some().to_string()
                    aria-describedby=dom("count-note")
                />
                <p id=dom("count-note") class="vstage-hint" aria-live="polite">
                    {move || match clamped.get() {
                        Some(limit) => td_string!(locale.get(), forms.config_count_clamped, limit = limit),
                        None => td_string!(locale.get(), forms.config_count_limit, limit = limit()),
                    }}
                </p>
                {move || count_error().map(|message| view! { <p class="vstage-error" role="alert">{message}</p> })}
            </div>
            {move || config_error().map(|message| view! { <p class="vstage-error" role="alert">{message}</p> })}
        </fieldset>
    }
}
