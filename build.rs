//! The widget's translations: `locales/{locale}/{namespace}.json` checked and turned into the `i18n` module, so
//! that every key and argument is checked at compile time. English is the reference: a locale that lacks one of
//! its keys, has one more, or names other arguments in a sentence fails the build (leptos_i18n would only warn
//! and show English). French punctuation is checked too: `:`, `;`, `!`, `?`, `%` and `»` take a no-break space.

use std::collections::{BTreeMap, BTreeSet};
use std::error::Error;
use std::path::PathBuf;

// leptos_i18n's own parser and code generator, which its `leptos_i18n_build` wraps: that wrapper also brings ICU's
// data generator (with a network client and TLS) for formatting features the widget does not use, about a third of
// a fresh widget build's compile time.
use leptos_i18n_parser::parse_locales::options::{Config, ParseOptions};
use leptos_i18n_parser::parse_locales::parse_locales;

/// The widget's release build for the browser (`trunk build --release`, the `wasm-release` profile) is split into
/// chunks after cargo (`cargo xtask split-widget`, Trunk's hook): its `chunk!`s become split points
/// (`vstage_split`), and the linker keeps the relocations wasm-split reads. Tests, `cargo check` and the dev build
/// (`trunk serve`) are ordinary modules. Cargo's `PROFILE` is `release` for every profile that inherits from it.
/// `VSTAGE_UNSPLIT` set keeps a release build whole: the mask editor's figures (`tests/mask_figures.rs`) run as
/// wasm-bindgen tests built as the widget ships, and no wasm-split runs on a test's module.
fn split_when_released() {
    println!("cargo::rustc-check-cfg=cfg(vstage_split)");
    println!("cargo::rerun-if-env-changed=VSTAGE_UNSPLIT");
    let target = std::env::var("TARGET").unwrap_or_default();
    let profile = std::env::var("PROFILE").unwrap_or_default();
    let unsplit = std::env::var_os("VSTAGE_UNSPLIT").is_some();
    if target == "wasm32-unknown-unknown" && profile == "release" && !unsplit {
        println!("cargo::rustc-cfg=vstage_split");
        println!("cargo::rustc-link-arg-bin=vstage-widget=--emit-relocs");
    }
}

/// The first is the default: a key missing elsewhere is a build error.
const LOCALES: [&str; 4] = ["en", "de", "es", "fr"];

/// The namespaces of `locales/` the server reads, not the widget: the disclosure's words
/// (`crates/server/src/disclosure/words.rs`).
const SERVER_NAMESPACES: [&str; 1] = ["disclosure"];

fn main() -> Result<(), Box<dyn Error>> {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=locales");
    split_when_released();
    minify_styles()?;
    let out = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("no OUT_DIR")?);
    // One namespace per file of the reference locale: each area of the studio keeps its own words.
    let mut namespaces: Vec<String> = std::fs::read_dir(format!("locales/{}", LOCALES[0]))?
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.strip_suffix(".json").map(str::to_string))
        .collect();
    namespaces.sort();
    for namespace in &namespaces {
        let reference = arguments(LOCALES[0], namespace)?;
        for locale in &LOCALES[1..] {
            let translated = arguments(locale, namespace)?;
            let mut problems = differences(&reference, &translated);
            if *locale == "fr" {
                problems.extend(sentences(locale, namespace)?.iter().filter_map(|(key, sentence)| {
                    french_spacing(sentence).map(|mark| format!("`{key}` has an ordinary space by `{mark}`"))
                }));
            }
            if !problems.is_empty() {
                return Err(format!("locales/{locale}/{namespace}.json: {}", problems.join("; ")).into());
            }
        }
    }
    // The server's own words are checked as the widget's are, but not compiled in.
    let compiled: Vec<String> =
        namespaces.iter().filter(|namespace| !SERVER_NAMESPACES.contains(&namespace.as_str())).cloned().collect();
    let config = Config::new(LOCALES[0])?
        .add_locales(&LOCALES[1..])?
        .add_namespaces(&compiled)?
        // `td_string!` with arguments, for words used outside views (titles, labels, host events).
        .parse_options(ParseOptions::new().interpolate_display(true));
    let parsed = parse_locales(None, config)?;
    for warning in parsed.diag.warnings().iter() {
        println!("cargo::warning={warning}");
    }
    if let Some(error) = parsed.diag.errors().first() {
        return Err(format!("locales: {error}").into());
    }
    for path in parsed.tracked_files.iter().flatten() {
        println!("cargo::rerun-if-changed={path}");
    }
    let module = leptos_i18n_codegen::gen_code(&parsed, None, false, None, true)?;
    std::fs::create_dir_all(out.join("i18n"))?;
    std::fs::write(out.join("i18n").join("mod.rs"), module.to_string())?;
    Ok(())
}

/// Each key of a locale's namespace, with its sentence.
fn sentences(locale: &str, namespace: &str) -> Result<BTreeMap<String, String>, Box<dyn Error>> {
    let path = format!("locales/{locale}/{namespace}.json");
    let text = std::fs::read_to_string(&path).map_err(|error| format!("{path}: {error}"))?;
    Ok(serde_json::from_str(&text).map_err(|error| format!("{path}: {error} (keys and sentences are strings)"))?)
}

/// Each key of a locale's namespace, with the arguments (`{{ name }}`) its sentence uses.
fn arguments(locale: &str, namespace: &str) -> Result<BTreeMap<String, BTreeSet<String>>, Box<dyn Error>> {
    Ok(sentences(locale, namespace)?
        .into_iter()
        .map(|(key, sentence)| {
            let names = sentence
                .split("{{")
                .skip(1)
                .filter_map(|rest| Some(rest.split_once("}}")?.0.trim().to_string()))
                .collect();
            (key, names)
        })
        .collect())
}

/// The mark that an ordinary space sets off, where French wants a no-break one (U+00A0 before `:`, `%` and `»` and
/// after `«`, U+202F before `;`, `!` and `?`), so that a line never starts with the mark.
fn french_spacing(sentence: &str) -> Option<char> {
    let chars: Vec<char> = sentence.chars().collect();
    chars.windows(2).find_map(|pair| match pair {
        [' ', mark @ (':' | ';' | '!' | '?' | '%' | '»')] | ['«', mark @ ' '] => {
            Some(if *mark == ' ' { '«' } else { *mark })
        }
        _ => None,
    })
}

/// What a translation lacks, adds or changes against the reference, as sentences.
fn differences(
    reference: &BTreeMap<String, BTreeSet<String>>,
    translated: &BTreeMap<String, BTreeSet<String>>,
) -> Vec<String> {
    let mut problems = Vec::new();
    for (key, names) in reference {
        match translated.get(key) {
            None => problems.push(format!("`{key}` is missing")),
            Some(theirs) if theirs != names => {
                problems.push(format!("`{key}` uses the arguments {theirs:?}, English uses {names:?}"))
            }
            Some(_) => {}
        }
    }
    problems.extend(
        translated.keys().filter(|key| !reference.contains_key(*key)).map(|key| format!("`{key}` is not in English")),
    );
    problems
}

/// The stylesheets the widget compiles in (`src/styles.rs`), written to `OUT_DIR` without their comments and
/// the spaces the browser does not read: a third of their bytes, on the first load (the shell's) and with every
/// screen (the screens'). `www/` keeps them as people read them.
fn minify_styles() -> Result<(), Box<dyn Error>> {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("no OUT_DIR")?);
    for name in ["style.css", "screens.css", "pages.css"] {
        let path = format!("www/{name}");
        println!("cargo::rerun-if-changed={path}");
        let css = std::fs::read_to_string(&path).map_err(|error| format!("{path}: {error}"))?;
        std::fs::write(out.join(name), minified_css(&css).map_err(|error| format!("{path}: {error}"))?)?;
    }
    Ok(())
}

/// `css` without comments, and with every run of white space made one space, or none beside `{`, `}`, `;`, `,`
/// and `>` and after `:` (where CSS reads none); the last `;` of a block goes too. Quoted strings stay as written.
fn minified_css(css: &str) -> Result<String, String> {
    const TIGHT: [char; 5] = ['{', '}', ';', ',', '>'];
    let mut out = String::with_capacity(css.len());
    let mut chars = css.chars().peekable();
    let mut space = false;
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut previous = ' ';
                loop {
                    match chars.next() {
                        Some('/') if previous == '*' => break,
                        Some(c) => previous = c,
                        None => return Err("a comment is not closed".into()),
                    }
                }
                space = true;
            }
            c if c.is_whitespace() => space = true,
            '"' | '\'' => {
                if space && !out.is_empty() && !out.ends_with(TIGHT) && !out.ends_with(':') {
                    out.push(' ');
                }
                space = false;
                out.push(c);
                loop {
                    let inner = chars.next().ok_or("a string is not closed")?;
                    out.push(inner);
                    if inner == '\\' {
                        out.push(chars.next().ok_or("a string is not closed")?);
                    } else if inner == c {
                        break;
                    }
                }
            }
            c => {
                if c == '}' && out.ends_with(';') {
                    out.pop();
                }
                // none after a declaration's `:` either (before one it may be a descendant's pseudo-class)
                if space && !out.is_empty() && !out.ends_with(TIGHT) && !out.ends_with(':') && !TIGHT.contains(&c) {
                    out.push(' ');
                }
                space = false;
                out.push(c);
            }
        }
    }
    Ok(out)
}
