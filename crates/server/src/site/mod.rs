//! The widget's side of the site: its built files and the standalone page (`static_files`), `/embed.js` for host
//! pages (`loader`), and the sandbox's demo listing page (`demo`).

pub mod demo;
pub mod loader;
pub mod static_files;
