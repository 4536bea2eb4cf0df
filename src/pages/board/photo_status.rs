//! Where a waiting photo is, when there is something to say: its upload's progress, why it cannot be used, why
//! no render was made of it, with "Try again", or that it waits for the agent's allowance to renew (no "Try again"
//! then: it could only be refused).

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::photos::PhotoState;
use crate::locale::errors::form_error;
use crate::locale::{format, use_locale};
use crate::upload;

#[component]
pub fn PhotoStatus(
    /// Where the photo is (`None` once it is gone).
    #[prop(into)]
    state: Signal<Option<PhotoState>>,
    /// When the allowance the photo waits for renews, while it cannot cover it.
    #[prop(into)]
    waits_until: Signal<Option<i64>>,
    /// Called to send the photo again.
    #[prop(into)]
    on_retry: Callback<()>,
) -> impl IntoView {
    let locale = use_locale();
    let waiting = move || {
        let date = format::day(locale.get(), waits_until.get()?);
        Some(
            view! { <p class="vstage-hint vstage-board__waits">{td_string!(locale.get(), board.photo_waits, date = date)}</p> },
        )
    };
    let status = move || match state.get() {
        Some(PhotoState::Uploading(done)) => view! {
            <div class="vstage-upload" role="status">
                <span>{move || {
                    td_string!(locale.get(), board.waiting_uploading, percent = upload::percent(done))
                }}</span>
                <progress max="1" value=done.to_string()></progress>
            </div>
        }
        .into_any(),
        Some(PhotoState::Refused(message)) => view! { <p class="vstage-error" role="alert">{message}</p> }.into_any(),
        Some(PhotoState::NotCreated { error, .. }) => view! {
            <div class="vstage-board__failure" role="alert">
                <p class="vstage-error">{move || form_error(locale.get(), &error)}</p>
                <Show when=move || waits_until.with(Option::is_none)>
                    <button type="button" class="vstage-button vstage-button--small" on:click=move |_| on_retry.run(())>
                        {move || td_string!(locale.get(), common.try_again)}
                    </button>
                </Show>
            </div>
        }
        .into_any(),
        Some(PhotoState::Ready(_)) | None => ().into_any(),
    };
    view! { {status} {waiting} }
}
