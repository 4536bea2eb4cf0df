//! Where a person types or pastes a photo's web address, or several a line each: the labelled field, what is wrong
//! with what was typed, and the form's actions for it. The new render's picker, the classic form and the board's
//! "add photos" all use it.

use leptos::prelude::*;

#[component]
pub fn PhotoAddress(
    /// The field's id, for its label.
    id: &'static str,
    /// Words for the person: a closure reading the studio's locale.
    #[prop(into)]
    label: TextProp,
    /// An example of an address.
    placeholder: &'static str,
    /// What the field shows.
    #[prop(into)]
    value: Signal<String>,
    /// Called with what the person typed, as typed.
    #[prop(into)]
    on_input: Callback<String>,
    /// Whether several addresses are taken, one a line (a text area), rather than one.
    #[prop(optional)]
    several: bool,
    /// Whether the address is refused, said to assistive technologies (`aria-invalid`); not said when not given.
    #[prop(optional, into)]
    invalid: MaybeProp<bool>,
    /// What is wrong with what was typed, a sentence each, under the field.
    #[prop(optional, into)]
    errors: Signal<Vec<String>>,
    /// Under the field and its errors: the form's actions for it.
    #[prop(optional)]
    children: Option<Children>,
) -> impl IntoView {
    let typed = move |ev: leptos::ev::Event| on_input.run(event_target_value(&ev));
    let invalid = move || invalid.get().map(|invalid| invalid.to_string());
    let field = if several {
        view! {
            <textarea id=id rows="3" placeholder=placeholder prop:value=value on:input=typed aria-invalid=invalid></textarea>
        }
        .into_any()
    } else {
        view! { <input id=id type="url" placeholder=placeholder prop:value=value on:input=typed aria-invalid=invalid /> }
            .into_any()
    };
    view! {
        <div class="vstage-field">
            <label for=id>{move || label.get().to_string()}</label>
            {field}
            {move || errors.get().into_iter().map(|message| view! { <p class="vstage-error" role="alert">{message}</p> }).collect_view()}
            {children.map(|children| children())}
        </div>
    }
}
