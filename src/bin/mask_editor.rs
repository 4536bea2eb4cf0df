//! The mask editor's module, loaded by the studio only when an agent opens the editor: defines
//! `<vstage-mask-editor>`. A panic here stops this module only, and says so in the editor's box.

use vstage::mask_editor::element;

fn main() {
    vstage::crash::install(element::CRASHED);
    element::define();
}
