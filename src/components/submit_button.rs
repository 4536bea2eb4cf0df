//! A form's submit button, in the form's actions row: its words, and busy (disabled) while the form is sent; and
//! what a refused submit does for the eye.

use leptos::prelude::*;

#[component]
pub fn SubmitButton(#[prop(into)] busy: Signal<bool>, #[prop(into)] words: Signal<String>) -> impl IntoView {
    view! {
        <div class="vstage-form__actions">
            <button type="submit" class="vstage-button" part="primary-button" disabled=busy aria-busy=move || busy.get().to_string()>
                {words}
            </button>
        </div>
    }
}

/// Once a refusal is on screen, the field it is about takes the focus (and so comes into view), or, for a refusal
/// of the whole form, its message: where the eye goes, not above the fold. `ev` is the form's submit, or the click
/// of a button on a screen with no form (the screen is searched then).
pub fn focus_the_first_refusal(ev: &web_sys::Event) {
    use wasm_bindgen::JsCast;
    let target = ev.target().and_then(|target| target.dyn_into::<web_sys::Element>().ok());
    let Some(form) = target.and_then(|target| target.closest("form, .vstage-page").ok().flatten()) else { return };
    request_animation_frame(move || {
        let first = |selector: &str| form.query_selector(selector).ok().flatten();
        let refused = first("[aria-invalid=true]").or_else(|| {
            let message = first(".vstage-error[role=alert]")?;
            let _ = message.set_attribute("tabindex", "-1");
            Some(message)
        });
        if let Some(refused) = refused.and_then(|refused| refused.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = refused.focus();
        }
    });
}
