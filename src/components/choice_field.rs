//! A labelled choice among named values (room types, styles, removal modes, output sizes): a `<select>` whose
//! option values are the contract's spellings and whose labels are words for people.

use leptos::prelude::*;

#[component]
pub fn ChoiceField(
    #[prop(into)] id: String,
    #[prop(into)] label: String,
    /// `(value as the contract spells it, words for the person)`, in the order shown.
    options: Vec<(String, String)>,
    /// The chosen value, as the contract spells it.
    #[prop(into)]
    current: Signal<String>,
    #[prop(into)] on_pick: Callback<String>,
) -> impl IntoView {
    view! {
        <div class="vstage-field">
            <label for=id.clone()>{label}</label>
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
