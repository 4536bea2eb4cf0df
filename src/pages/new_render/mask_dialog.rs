//! The new render form's mask editor, in a dialog over the photo while a configuration's custom mask is drawn: the
//! mask drawn is uploaded and given to that configuration.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::state::NewRenderForm;
use crate::components::lazy_mask_editor::LazyMaskEditor;
use crate::locale::use_locale;

#[component]
pub fn MaskDialog(form: NewRenderForm) -> impl IntoView {
    let locale = use_locale();
    move || {
        form.masking.get().map(|id| {
            view! {
                <div class="vstage-dialog" role="dialog" aria-modal="true" aria-label=move || td_string!(locale.get(), studio.new_custom_mask)>
                    <h2>{move || td_string!(locale.get(), studio.new_custom_mask)}</h2>
                    <p class="vstage-hint">{move || td_string!(locale.get(), studio.new_mask_hint)}</p>
                    <LazyMaskEditor
                        image_url=form.image_url.get_untracked()
                        on_done=move |url: String| form.use_mask(id, url)
                        on_cancel=move |()| form.masking.set(None)
                    />
                </div>
            }
        })
    }
}
