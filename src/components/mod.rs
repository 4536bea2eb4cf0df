//! Reusable pieces of the studio's screens, one component per file.
//! They take plain values or signals and hold no global state of their own.

pub mod before_after;
pub mod bulk_variations;
pub mod choice_field;
pub mod config_fields;
pub mod config_list;
pub mod cost_note;
pub mod drop_zone;
pub mod eta_bar;
pub mod example_picture;
pub mod exterior_rule_note;
pub mod header;
pub mod image_picker;
pub mod image_viewer;
pub mod lazy_mask_editor;
pub mod link;
pub mod locale_chooser;
pub mod mask_dialog;
pub mod mode_badge;
pub mod pager;
pub mod photo_address;
pub mod polling_note;
pub mod render_card;
pub mod screen_heading;
pub mod status_badge;
pub mod style_picker;
pub mod submit_button;
pub mod usage_meter;
pub mod usage_meters;
pub mod variation_card;
