//! The public originals page of a chosen result: the altered photo with its statement, the original clearly
//! identified beside it, what was changed and when, in the listing's language. Plain HTML from the server, no
//! script, no cookie and nothing from another site: the style is inline (allowed by its hash) and the photos
//! are this server's kept copies.

use std::sync::LazyLock;

use base64::Engine;
use maud::{DOCTYPE, Markup, html};
use sha2::{Digest, Sha256};

use super::statement::Facts;
use super::words::{Words, languages};
use crate::results::credentials::{OriginalCheck, Trust, Verdict};

/// Small and legible on a phone first; side by side from tablet width.
const STYLE: &str = "\
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#fff}\
main{max-width:72rem;margin:0 auto;padding:1rem}\
h1{font-size:1.4rem;margin:.5rem 0}\
h2{font-size:1.1rem;margin:1.5rem 0 .5rem}\
.statement{display:inline-block;background:#1a1a1a;color:#fff;padding:.2rem .6rem;border-radius:.3rem}\
.photos{display:grid;gap:1rem;grid-template-columns:1fr}\
@media (min-width:48rem){.photos{grid-template-columns:1fr 1fr}}\
figure{margin:0}\
img{display:block;width:100%;height:auto;border-radius:.3rem;background:#eee}\
figcaption{margin-top:.4rem}\
a{color:#0645ad}\
nav ul{list-style:none;padding:0;display:flex;gap:1rem;flex-wrap:wrap}";

/// The page's Content-Security-Policy: nothing but this server's images and the inline style above.
pub static POLICY: LazyLock<String> = LazyLock::new(|| {
    let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(STYLE.as_bytes()));
    format!("default-src 'none'; img-src 'self'; style-src 'sha256-{hash}'; base-uri 'none'; form-action 'none'")
});

/// What the page shows; every address is a path on this server.
pub struct Page<'a> {
    pub words: &'a Words,
    pub facts: &'a Facts,
    /// The altered photo and the original, each as shown (a copy sized for screens where there is one) and at full
    /// size, and this page (without its `lang`).
    pub photo: Shown<'a>,
    pub original: Shown<'a>,
    pub page: &'a str,
    /// When the result was chosen, `YYYY-MM-DD` (UTC).
    pub date: &'a str,
    /// What a reader finds of the altered photo's content credentials, when this server signs them.
    pub credentials: Option<&'a Verdict>,
}

/// A photo on the page: the copy shown, and the full size it links to.
pub struct Shown<'a> {
    pub on_screen: &'a str,
    pub full: &'a str,
}

impl Page<'_> {
    pub fn render(&self) -> Markup {
        let words = self.words;
        let heading = match self.facts.kind {
            Some(vstage_api::vocabulary::VariationType::Enhancement) if !self.facts.furniture_removed => {
                words.heading_enhanced
            }
            _ => words.heading_altered,
        };
        html! {
            (DOCTYPE)
            html lang=(words.lang) {
                head {
                    meta charset="utf-8";
                    meta name="viewport" content="width=device-width, initial-scale=1";
                    title { (words.page_title) }
                    style { (maud::PreEscaped(STYLE)) }
                }
                body {
                    main {
                        h1 { (heading) }
                        p.statement { (self.facts.short_statement(words)) }
                        div.photos {
                            figure {
                                img src=(self.photo.on_screen) alt=(words.altered_photo);
                                figcaption {
                                    (words.altered_photo) " · " a href=(self.photo.full) { (words.open_full_size) }
                                }
                            }
                            figure {
                                img src=(self.original.on_screen) alt=(words.original_photo);
                                figcaption {
                                    strong { (words.original_photo) } ". " (words.original_explained) " "
                                    a href=(self.original.full) { (words.open_full_size) }
                                }
                            }
                        }
                        h2 { (words.what_changed) }
                        ul { @for change in self.facts.changes(words) { li { (change) } } }
                        p { (words.chosen_on) " " time datetime=(self.date) { (self.date) } }
                        @if let Some(verdict) = self.credentials {
                            section #credentials {
                                h2 { (words.credentials) }
                                @for sentence in credentials_sentences(words, verdict) { p { (sentence) } }
                            }
                        }
                        (self.languages())
                    }
                }
            }
        }
    }

    fn languages(&self) -> Markup {
        let separator = if self.page.contains('?') { '&' } else { '?' };
        html! {
            nav aria-label=(self.words.other_languages) {
                ul {
                    @for other in languages().iter().filter(|other| other.lang != self.words.lang) {
                        li {
                            a href={ (self.page) (separator) "lang=" (other.lang) } hreflang=(other.lang)
                                lang=(other.lang) { (other.name) }
                        }
                    }
                }
            }
        }
    }
}

/// The page's sentences about `verdict`: whether the credentials verify and whose they are, then whether they
/// name the original shown.
fn credentials_sentences(words: &Words, verdict: &Verdict) -> Vec<String> {
    let (trust, signer, organization, agent, original) = match verdict {
        Verdict::Read { trust, signer, organization, agent, original, .. } => {
            (trust, signer, organization, agent, original)
        }
        Verdict::Absent => return vec![words.credentials_absent.to_string()],
        Verdict::NotInThisBuild => return vec![words.credentials_not_in_this_build.to_string()],
    };
    let signer = match (signer, organization) {
        (Some(name), Some(organization)) if name != organization => format!("{name} ({organization})"),
        (Some(name), _) | (None, Some(name)) => name.clone(),
        (None, None) => "?".into(),
    };
    let fill = |sentence: &str| {
        sentence.replace("{{ signer }}", &signer).replace("{{ agent }}", agent.as_deref().unwrap_or("?"))
    };
    let mut sentences = vec![match trust {
        Trust::Trusted => fill(words.credentials_trusted),
        Trust::Valid => fill(words.credentials_unknown_signer),
        Trust::Invalid => return vec![words.credentials_broken.to_string()],
    }];
    match original {
        OriginalCheck::Matches => sentences.push(words.credentials_name_this_original.to_string()),
        OriginalCheck::Differs => sentences.push(words.credentials_name_another_original.to_string()),
        OriginalCheck::NotNamed | OriginalCheck::NotCompared => {}
    }
    sentences
}

#[cfg(test)]
mod tests {
    use super::super::words::words;
    use super::*;
    use vstage_api::vocabulary::VariationType;

    fn facts() -> Facts {
        Facts { kind: Some(VariationType::Staging), style: Some("modern".into()), furniture_removed: true }
    }

    fn page<'a>(words: &'a Words, facts: &'a Facts) -> String {
        Page {
            words,
            facts,
            photo: Shown {
                on_screen: "/api/results/r/v/0-optimized_url.jpg?sig=a",
                full: "/api/results/r/v/0-url.jpg?sig=d",
            },
            original: Shown {
                on_screen: "/api/results/r/v/original-1280.jpg?sig=e",
                full: "/api/results/r/v/original.jpg?sig=b",
            },
            page: "/disclosures/dsc_1?sig=c",
            date: "2026-11-26",
            credentials: None,
        }
        .render()
        .into_string()
    }

    #[test]
    fn the_page_says_what_was_changed_in_the_listing_s_language_without_script() {
        let facts = facts();
        let english = page(words("en"), &facts);
        assert!(english.starts_with("<!DOCTYPE html><html lang=\"en\">"));
        for text in
            ["Virtually staged", "Furniture removed digitally", "The original, unaltered photo, as taken", "2026-11-26"]
        {
            assert!(english.contains(text), "{text} in {english}");
        }
        assert!(english.contains("href=\"/disclosures/dsc_1?sig=c&amp;lang=de\""));
        assert!(!english.contains("<script"));
        let german = page(words("de"), &facts);
        assert!(german.contains("Dieses Inseratsfoto wurde digital verändert"));
        assert!(german.contains("im Stil modern"));
    }

    #[test]
    fn the_policy_allows_exactly_the_inline_style() {
        assert!(POLICY.contains("style-src 'sha256-"));
        assert!(!POLICY.contains("unsafe"));
        assert!(!POLICY.contains("script-src"));
    }

    #[test]
    fn the_credentials_are_said_as_the_reader_found_them() {
        let read = |trust, original| Verdict::Read {
            trust,
            signer: Some("Listings Example".into()),
            organization: Some("Listings Example Inc.".into()),
            agent: Some("Virtual Staging AI".into()),
            source_type: None,
            original,
            problems: Vec::new(),
        };
        let trusted = credentials_sentences(words("en"), &read(Trust::Trusted, OriginalCheck::Matches));
        assert!(trusted[0].contains("signed by Listings Example (Listings Example Inc.)"), "{trusted:?}");
        assert!(trusted[0].contains("by Virtual Staging AI") && trusted[1].contains("original shown here"));
        let unknown = credentials_sentences(words("de"), &read(Trust::Valid, OriginalCheck::Differs));
        assert!(unknown[0].contains("nicht kennt") && unknown[1].contains("anderes Foto"), "{unknown:?}");
        let broken = credentials_sentences(words("en"), &read(Trust::Invalid, OriginalCheck::Matches));
        assert_eq!(broken, [words("en").credentials_broken]);
        assert_eq!(credentials_sentences(words("en"), &Verdict::Absent), [words("en").credentials_absent]);
        let not_built = credentials_sentences(words("de"), &Verdict::NotInThisBuild);
        assert_eq!(not_built, [words("de").credentials_not_in_this_build]);
    }
}
