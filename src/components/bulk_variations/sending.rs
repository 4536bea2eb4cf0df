//! The bulk dialog's sending: what each request of the last one did, the button that sends (saying to how many
//! renders) and the one that closes the dialog.

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::model::send_words;
use super::state::BulkDialog;
use crate::locale::use_locale;

#[component]
pub fn Sending(
    dialog: BulkDialog,
    #[prop(into)] on_send: Callback<()>,
    #[prop(into)] on_close: Callback<()>,
) -> impl IntoView {
    let locale = use_locale();
    let renders_to_send = move || dialog.plan.get().map(|plan| plan.send.len());
    view! {
        {move || {
            let locale = locale.get();
            dialog.outcome.get().into_iter().map(|line| view! { <p role="status">{line.sentence(locale)}</p> }).collect_view()
        }}
        <div class="vstage-form__actions">
            <button
                type="button"
                class="vstage-button"
                part="primary-button"
                disabled=move || !dialog.can_send()
                on:click=move |_| on_send.run(())
            >
                {move || send_words(locale.get(), dialog.sending.get(), renders_to_send())}
            </button>
            <button type="button" class="vstage-button vstage-button--secondary" on:click=move |_| on_close.run(())>
                {move || td_string!(locale.get(), studio.close)}
            </button>
        </div>
    }
}
