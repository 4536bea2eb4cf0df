//! The module's start, for the standalone page and `/embed.js` alike: defines `<vstage-widget>`, which the page
//! (or the host) puts where the studio goes. The standalone page's element follows the page's address.

fn main() {
    vstage_widget::crash::install(vstage_widget::crash::STUDIO);
    vstage_widget::embed::define();
}
