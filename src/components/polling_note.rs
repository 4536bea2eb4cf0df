//! The note that the studio follows changes by polling: shown while the server offers no live events (or their
//! stream is down), so that an agent knows a finished result may take a few seconds to appear.

use leptos::prelude::*;
use leptos_i18n::td_string;

use crate::live::Channel;
use crate::locale::use_locale;

#[component]
pub fn PollingNote(#[prop(into)] channel: Signal<Channel>) -> impl IntoView {
    let locale = use_locale();
    move || {
        (channel.get() == Channel::Polling).then(|| {
            view! {
                <span class="vstage-polling" title=move || td_string!(locale.get(), common.polling_title)>
                    {move || td_string!(locale.get(), common.polling)}
                </span>
            }
        })
    }
}
