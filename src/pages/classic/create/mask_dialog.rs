//! The classic form's mask editor, in a dialog over the photo while it is open: the mask drawn is uploaded and
//! replaces the automatic one.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::state::NewClassicForm;
use crate::components::lazy_mask_editor::LazyMaskEditor;
use crate::locale::use_locale;

#[component]
pub fn MaskDialog(form: NewClassicForm) -> impl IntoView {
    let locale = use_locale();
    move || {
        form.masking.get().then(|| form.photo_for_mask()).flatten().map(|photo| {
            view! {
                <div class="vstage-dialog" role="dialog" aria-modal="true" aria-label=move || td_string!(locale.get(), classic.mask_title)>
                    <h2>{move || td_string!(locale.get(), classic.mask_title)}</h2>
                    <p class="vstage-hint">{move || td_string!(locale.get(), classic.mask_hint)}</p>
                    <LazyMaskEditor
                        image_url=photo
                        on_done=move |url: String| form.use_mask(url)
                        on_cancel=move |()| form.masking.set(false)
                    />
                </div>
            }
        })
    }
}
