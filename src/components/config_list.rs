//! The multi-configuration editor: one or more configurations, each with its own count, the render's total shown
//! and kept at 20 or fewer (counting the empty-room variations that removal adds); a new one copies the one before.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::{MAX_VARIATIONS_PER_RENDER, ValidationError};

use crate::components::config_fields::{ConfigFields, Drafts};
use crate::config_draft::{ConfigDraft, count_limit, total};
use crate::locale::{errors, use_locale};

#[component]
pub fn ConfigList(
    drafts: Drafts,
    #[prop(into)] existing: Signal<u64>,
    #[prop(into)] error: Signal<Option<ValidationError>>,
    /// Whether more than one configuration may be given (a new render); adding variations takes one.
    #[prop(optional)]
    multiple: bool,
) -> impl IntoView {
    let locale = use_locale();
    let next_id = StoredValue::new(drafts.with_untracked(|list| list.iter().map(|(id, _)| id + 1).max().unwrap_or(0)));
    let plain = move || drafts.get().into_iter().map(|(_, d)| d).collect::<Vec<_>>();
    let total = move || total(&plain(), existing.get());
    let can_add = move || {
        let mut with_one_more = plain();
        with_one_more.push(ConfigDraft::default());
        let last = with_one_more.len() - 1;
        count_limit(&with_one_more, last, existing.get()) >= 1
    };
    // A new configuration starts as a copy of the one before it, with as many variations as still fit.
    let add = move |_| {
        let id = next_id.get_value();
        next_id.set_value(id + 1);
        drafts.update(|list| {
            let mut copy = list.last().map(|(_, last)| last.clone()).unwrap_or_default();
            let mut plain: Vec<ConfigDraft> = list.iter().map(|(_, draft)| draft.clone()).collect();
            plain.push(copy.clone());
            copy.count = copy.count.min(count_limit(&plain, plain.len() - 1, existing.get_untracked())).max(1);
            list.push((id, copy));
        });
    };
    let list_error = move || {
        error
            .get()
            .filter(|e| e.field == "configs")
            .map(|e| view! { <p class="vstage-error" role="alert">{move || errors::invalid(locale.get(), &e)}</p> })
    };
    let removable = move || multiple && drafts.with(Vec::len) > 1;
    view! {
        <div class="vstage-configs">
            <For each=move || drafts.get() key=|(id, _)| *id let:entry>
                <div class="vstage-configs__entry">
                    <ConfigFields id=entry.0 drafts existing error />
                    <Show when=removable>
                        <button
                            type="button"
                            class="vstage-button vstage-button--secondary vstage-button--small"
                            on:click=move |_| drafts.update(|list| list.retain(|(id, _)| *id != entry.0))
                        >
                            {move || td_string!(locale.get(), forms.list_remove)}
                        </button>
                    </Show>
                </div>
            </For>
            {list_error}
            <p class="vstage-total" aria-live="polite">
                {move || {
                    let (locale, existing, total) = (locale.get(), existing.get(), total());
                    let max = MAX_VARIATIONS_PER_RENDER;
                    if existing > 0 {
                        let new = total - existing;
                        td_string!(locale, forms.list_total_adding, new = new, total = total, max = max)
                    } else {
                        td_string!(locale, forms.list_total, total = total, max = max)
                    }
                }}
            </p>
            <Show when=move || multiple>
                <button
                    type="button"
                    class="vstage-button vstage-button--secondary"
                    disabled=move || !can_add()
                    on:click=add
                >
                    {move || td_string!(locale.get(), forms.list_add)}
                </button>
            </Show>
        </div>
    }
}
