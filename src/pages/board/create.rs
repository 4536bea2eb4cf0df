//! "Create renders" under the waiting photos: how many are ready, or that they are being sent, and how many are
//! still uploading; not offered while the agent's allowance cannot cover them all, nor before the furniture of each
//! photo to stage is known (said instead of the count).

use leptos::prelude::*;
use leptos_i18n::td_string;

use super::photos::BoardPhotos;
use crate::locale::{Locale, use_locale};
use crate::plural;

#[component]
pub fn CreateRenders(
    photos: BoardPhotos,
    /// Whether the photos are being sent.
    #[prop(into)]
    sending: Signal<bool>,
    /// Whether the agent's allowance cannot cover them all (the photos that fit are offered on their own).
    #[prop(into)]
    held: Signal<bool>,
    /// Called to send every photo that is ready.
    #[prop(into)]
    on_create: Callback<()>,
) -> impl IntoView {
    let locale = use_locale();
    view! {
        <div class="vstage-form__actions">
            <button
                type="button"
                class="vstage-button"
                part="primary-button"
                disabled=move || sending.get() || held.get() || photos.ready() == 0 || (photos.checking() > 0)
                aria-busy=move || sending.get().to_string()
                on:click=move |_| on_create.run(())
            >
                {move || match (sending.get(), photos.checking(), photos.ready()) {
                    (true, _, _) => td_string!(locale.get(), board.waiting_creating).to_string(),
                    (false, 0, n) => {
                        plural!(locale.get(), n, board.waiting_create_singular, board.waiting_create_plural, count = n)
                    }
                    (false, n, _) => checking_words(locale.get(), n),
                }}
            </button>
            {move || (photos.uploading() > 0).then(|| view! {
                <span class="vstage-hint">{move || {
                    let count = photos.uploading();
                    plural!(
                        locale.get(),
                        count,
                        board.waiting_still_uploading_singular,
                        board.waiting_still_uploading_plural,
                        count = count
                    )
                }}</span>
            })}
        </div>
    }
}

/// "Looking for furniture in 2 photos…": what the board waits for before it creates anything.
pub fn checking_words(locale: Locale, count: usize) -> String {
    plural!(locale, count, board.waiting_checking_singular, board.waiting_checking_plural, count = count)
}
