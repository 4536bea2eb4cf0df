//! A labelled choice among named values (room types, styles, removal modes, output sizes): a `<select>` whose
//! option values are the contract's spellings and whose labels are words for people.

use leptos::prelude::*;

#[component]
pub fn ChoiceField(
    #[prop(into)] id: String,
    /// Words for the person: a sentence, or a closure reading the studio's locale.
    #[prop(into)]
    label: TextProp,
    /// `(value as the contract spells it, words for the person)`, in the order shown. Words that follow the
    /// studio's locale: make the field in a closure that reads it.
    options: Vec<(String, String)>,
    /// The chosen value, as the contract spells it.
    #[prop(into)]
    current: Signal<String>,
    #[prop(into)] on_pick: Callback<String>,
) -> impl IntoView {
    view! {
        <div class="vstage-field">
            <label for=id.clone()>{move || label.get().to_string()}</label>
            <select id=id on:change=move |ev| on_pick.run(event_target_value(&ev))>
                {options
                    .into_iter()
                    .map(|(value, words)| {
                        let chosen = value.clone();
                        view! {
                            <option value=value selected=move || current.get() == chosen>
                                {words}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
        </div>
    }
}
