//! The renders list's heading and tools: the order (newest or oldest first), "Add variations to selected" with the
//! number chosen, and "New render".

use leptos::prelude::*;
use leptos_i18n::td_string;
use vstage_api::SortOrder;

use super::model::order_named;
use super::state::RendersList;
use crate::components::link::Link;
use crate::components::screen_heading::ScreenHeading;
use crate::locale::use_locale;
use crate::route::Route;

#[component]
pub fn RendersHead(
    list: RendersList,
    /// Opens "Add variations to selected" for the chosen renders.
    #[prop(into)]
    on_add_to_selected: Callback<()>,
) -> impl IntoView {
    let locale = use_locale();
    let order = list.order;
    view! {
        <div class="vstage-page__head">
            <ScreenHeading id="vstage-renders-title">{move || td_string!(locale.get(), studio.renders_title)}</ScreenHeading>
            <div class="vstage-page__tools">
                <label class="vstage-inline">
                    {move || td_string!(locale.get(), studio.renders_order)}
                    " "
                    <select id="vstage-order" on:change=move |ev| order.set(order_named(&event_target_value(&ev)))>
                        <option value="desc" selected=move || order.get() == SortOrder::Desc>{move || td_string!(locale.get(), studio.renders_newest_first)}</option>
                        <option value="asc" selected=move || order.get() == SortOrder::Asc>{move || td_string!(locale.get(), studio.renders_oldest_first)}</option>
                    </select>
                </label>
                <button
                    type="button"
                    class="vstage-button vstage-button--secondary"
                    disabled=move || list.selection.with(Vec::is_empty)
                    on:click=move |_| on_add_to_selected.run(())
                >
                    {move || td_string!(locale.get(), studio.renders_add_to_selected, count = list.selection.with(Vec::len))}
                </button>
                <Link to=Route::NewRender class="vstage-button" part="primary-button">{move || td_string!(locale.get(), studio.new_render)}</Link>
            </div>
        </div>
    }
}
