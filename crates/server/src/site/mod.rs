//! The widget's side of the site: its built files and the standalone page (`static_files`), `/embed.js` for host
//! pages (`loader`) with the element's TypeScript declarations (`declarations`), and the sandbox's demo listing
//! page (`demo`).

pub mod declarations;
pub mod demo;
pub mod loader;
pub mod static_files;
