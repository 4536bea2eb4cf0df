//! The classic form's declutter mask: a button that opens the editor over the photo (or says the photo comes
//! first), and whether the service finds the furniture itself or uses the mask drawn.

use leptos::prelude::*;

use super::state::NewClassicForm;
use crate::locale::use_locale;
use crate::pages::classic::model;

#[component]
pub fn MaskChoice(form: NewClassicForm) -> impl IntoView {
    let locale = use_locale();
    let drawn = move || form.mask_url.with(Option::is_some);
    view! {
        <div class="vstage-field">
            <button type="button" class="vstage-button vstage-button--secondary" on:click=move |_| form.open_mask()>
                {move || model::mask_action(locale.get(), drawn())}
            </button>
            <p class="vstage-hint">{move || model::mask_hint(locale.get(), drawn())}</p>
        </div>
    }
}
