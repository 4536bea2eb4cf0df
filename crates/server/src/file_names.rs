//! Names for the files a person downloads (a ZIP's entries, a kept result's name): the same on every system,
//! never a path.

/// Letters, digits, `-` and `_` only (at most 60), so a name is the same on every system and never a path.
pub fn file_safe(text: &str) -> String {
    let safe: String = text
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c.to_ascii_lowercase() } else { '-' })
        .take(60)
        .collect();
    safe.trim_matches('-').to_string()
}
