//! The render page's "Before and after": the slider over the comparison the page computed, and the choice of
//! comparing with the empty room a result was staged on; a card's "Compare" brings it into view.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::model::Comparison;
use crate::components::before_after::BeforeAfter;
use crate::hooks::use_focus_after::use_focus_after;
use crate::locale::use_locale;

#[component]
pub fn CompareSection(
    /// What to compare, once there is a finished result.
    comparison: Memo<Option<Comparison>>,
    /// Whether a result staged on a removal variation is compared with that empty room instead of the photo.
    with_base: RwSignal<bool>,
    /// The variation a card asked to compare: each new choice brings the comparison into view.
    chosen: RwSignal<Option<String>>,
) -> impl IntoView {
    let locale = use_locale();
    use_focus_after(move || chosen.get().is_some(), "vstage-compare-title");
    let part = move |read: fn(&Comparison) -> String| {
        Signal::derive(move || comparison.with(|c| c.as_ref().map(read).unwrap_or_default()))
    };
    view! {
        <Show when=move || comparison.with(Option::is_some)>
            <section class="vstage-section" aria-labelledby="vstage-compare-title">
                <h2 id="vstage-compare-title" tabindex="-1">{move || td_string!(locale.get(), studio.compare_title)}</h2>
                <Show when=move || comparison.with(|c| c.as_ref().is_some_and(|c| c.has_base))>
                    <label class="vstage-check">
                        <input
                            type="checkbox"
                            prop:checked=move || with_base.get()
                            on:change=move |ev| with_base.set(event_target_checked(&ev))
                        />
                        {move || td_string!(locale.get(), studio.compare_with_empty_room)}
                    </label>
                </Show>
                <BeforeAfter
                    before=part(|c| c.before.clone())
                    after=part(|c| c.after.clone())
                    before_label=part(|c| c.before_label.clone())
                    after_label=part(|c| c.after_label.clone())
                />
            </section>
        </Show>
    }
}
