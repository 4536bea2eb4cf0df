//! A choice of staging style as a card each: a small picture of a room staged in the style (made by the server
//! from its own sample room, `GET /api/examples/style/{style}.jpg`, loaded only when scrolled near) and the style's
//! name. The forms' configurations and the furniture removal's staging choose with it.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::Style;

use crate::components::example_picture::ExamplePicture;
use crate::describe;
use crate::locale::{Locale, use_locale};

/// The staging styles the studio offers, in the order it shows them.
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

#[component]
pub fn StylePicker(
    /// The radio group's name and the prefix of its ids: unique in the studio.
    #[prop(into)]
    name: String,
    /// The id of the element whose words name the group.
    #[prop(into)]
    labelled_by: String,
    #[prop(into)] current: Signal<Style>,
    #[prop(into)] on_pick: Callback<Style>,
) -> impl IntoView {
    let locale = use_locale();
    view! {
        <div class="vstage-styles" role="radiogroup" aria-labelledby=labelled_by>
            {STYLES
                .iter()
                .map(|style| {
                    let chosen = {
                        let style = style.clone();
                        move || current.get() == style
                    };
                    let (pick, words, alt) = (style.clone(), style.clone(), style.clone());
                    let name_id = format!("{name}-{}", style.as_str());
                    view! {
                        <label class="vstage-style" class:vstage-kind--chosen=chosen.clone()>
                            <ExamplePicture
                                kind="style"
                                name=style.as_str()
                                alt=Signal::derive(move || example_alt(locale.get(), &alt))
                            />
                            <input
                                type="radio"
                                name=name.clone()
                                value=style.as_str().to_string()
                                aria-labelledby=name_id.clone()
                                prop:checked=chosen.clone()
                                on:change=move |_| on_pick.run(pick.clone())
                            />
                            <span class="vstage-kind__name" id=name_id>{move || describe::style(locale.get(), &words)}</span>
                        </label>
                    }
                })
                .collect_view()}
        </div>
    }
}

/// "A room staged in the Modern style": what the example picture of `style` shows.
fn example_alt(locale: Locale, style: &Style) -> String {
    td_string!(locale, forms.style_example_alt, style = describe::style(locale, style)).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn an_example_is_named_in_words() {
        assert_eq!(example_alt(Locale::en, &Style::Luxury), "A room staged in the Luxury style");
    }
}
