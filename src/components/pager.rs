//! "Load more" for cursor-paged lists: a button while there is more, a busy state while loading, and a quiet
//! line when everything is shown. The list owns the cursor; this only asks for the next page.

use leptos::prelude::*;
use leptos_i18n::td_string;

use crate::locale::use_locale;

#[component]
pub fn Pager(
    #[prop(into)] has_more: Signal<bool>,
    #[prop(into)] loading: Signal<bool>,
    /// How many items are shown, for the closing line.
    #[prop(into)]
    shown: Signal<usize>,
    #[prop(into)] on_more: Callback<()>,
) -> impl IntoView {
    let locale = use_locale();
    view! {
        <div class="vstage-pager">
            {move || {
                if has_more.get() {
                    view! {
                        <button
                            class="vstage-button vstage-button--secondary"
                            aria-busy=move || loading.get().to_string()
                            disabled=move || loading.get()
                            on:click=move |_| on_more.run(())
                        >
                            {move || {
                                if loading.get() {
                                    td_string!(locale.get(), common.loading)
                                } else {
                                    td_string!(locale.get(), common.load_more)
                                }
                            }}
                        </button>
                    }
                        .into_any()
                } else {
                    view! {
                        <p class="vstage-muted">
                            {move || match shown.get() {
                                0 => String::new(),
                                1 => td_string!(locale.get(), common.pager_only_one).to_string(),
                                n => td_string!(locale.get(), common.pager_all_shown, count = n),
                            }}
                        </p>
                    }
                        .into_any()
                }
            }}
        </div>
    }
}
