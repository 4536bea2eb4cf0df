//! The standalone page: mounts the studio on `<body>`.
//! Embedding in other pages goes through the library (`lib.rs`).

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(vstage::App);
}
