//! The parts of the studio a host shows its agents: `hide="account usage board classic"` takes screens and the
//! usage bars away, and `show="classic"` brings the classic (v1) screens, which an agent does not see unless the host
//! asks for them. The navigation's links and the usage bars are hidden by the screens' styles, which read the
//! element's own `hide` and `show`; a hidden screen asked for by `view` or an address is refused in its chunk
//! with a `vstage-error` for the developer, and shown as not found (`app.rs`).

/// A part of the studio the host may take away (or, for `Classic`, bring).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Account,
    Board,
    /// Hidden unless `show` names it.
    Classic,
}

impl Part {
    /// The word `hide` and `show` take.
    pub fn word(self) -> &'static str {
        match self {
            Part::Account => "account",
            Part::Board => "board",
            Part::Classic => "classic",
        }
    }
}

/// Whether `part` is shown under the element's `hide` and `show` as given.
pub fn is_shown(part: Part, hide: Option<&str>, show: Option<&str>) -> bool {
    let names = |list: Option<&str>| list.is_some_and(|list| list.split_ascii_whitespace().any(|n| n == part.word()));
    !names(hide) && (part != Part::Classic || names(show))
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test(unsupported = test)]
    fn classic_is_shown_only_when_asked_and_the_rest_unless_hidden() {
        assert!(!is_shown(Part::Classic, None, None));
        assert!(is_shown(Part::Account, None, None) && is_shown(Part::Board, None, None));
        assert!(is_shown(Part::Classic, None, Some("classic")));
        assert!(!is_shown(Part::Account, Some(" account\tusage "), Some("classic")));
        assert!(is_shown(Part::Board, Some("account usage"), None));
        assert!(!is_shown(Part::Classic, Some("classic"), Some("classic")), "hide wins");
        assert!(is_shown(Part::Account, Some("accounts"), None), "whole words only");
    }
}
