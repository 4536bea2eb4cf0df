//! Which furniture a removal takes out: the service's automatic mask, or one the agent drew (the button opens the
//! mask editor where the form offers it, through `MaskRequest`).

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::MaskRequest;
use super::draft::DraftFields;
use crate::locale::use_locale;

#[component]
pub fn MaskChoice(fields: DraftFields) -> impl IntoView {
    let locale = use_locale();
    let drawn = move || fields.draft().mask_url.is_some();
    let draw = use_context::<MaskRequest>().map(|request| {
        view! {
            <button type="button" class="vstage-button vstage-button--secondary" on:click=move |_| request.0.run(fields.id())>
                {move || if drawn() {
                    td_string!(locale.get(), forms.config_mask_draw_new)
                } else {
                    td_string!(locale.get(), forms.config_mask_draw)
                }}
            </button>
        }
    });
    view! {
        <div class="vstage-field vstage-mask-choice">
            <p class="vstage-hint">
                {move || if drawn() {
                    td_string!(locale.get(), forms.config_mask_custom)
                } else {
                    td_string!(locale.get(), forms.config_mask_automatic)
                }}
            </p>
            {draw}
            <Show when=drawn>
                <button type="button" class="vstage-link" on:click=move |_| fields.edit(|d| d.mask_url = None)>
                    {move || td_string!(locale.get(), forms.config_mask_use_automatic)}
                </button>
            </Show>
        </div>
    }
}
