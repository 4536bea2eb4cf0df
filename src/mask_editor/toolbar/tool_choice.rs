//! The toolbar's choice of tool: brush or eraser, each a button pressed while chosen, its shortcut in its title.

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_mask::Tool;

use crate::locale::{Locale, use_locale};

#[component]
pub fn ToolChoice(tool: RwSignal<Tool>) -> impl IntoView {
    let locale = use_locale();
    let button = move |which: Tool, label: fn(Locale) -> &'static str, key: &'static str| {
        view! {
            <button
                type="button"
                class="vstage-tool"
                class:vstage-tool--chosen=move || tool.get() == which
                aria-pressed=move || (tool.get() == which).to_string()
                title=move || format!("{} ({key})", label(locale.get()))
                on:click=move |_| tool.set(which)
            >
                {move || label(locale.get())}
            </button>
        }
    };
    view! {
        <div class="vstage-mask-toolbar__group" role="group" aria-label=move || td_string!(locale.get(), mask.toolbar_tool)>
            {button(Tool::Brush, |locale| td_string!(locale, mask.toolbar_brush), "B")}
            {button(Tool::Eraser, |locale| td_string!(locale, mask.toolbar_eraser), "E")}
        </div>
    }
}
