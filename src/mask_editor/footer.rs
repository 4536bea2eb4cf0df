//! The editor's footer: how much of the photo is marked, what is under way or went wrong, and the way out: cancel,
//! "Detect furniture" (the service's analysis replaces the mask, as one undoable edit) and "Use this mask" (the
//! mask exported as PNG and uploaded through the studio).

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;

use super::element::Studio;
use super::export::png_blob;
use super::handle::Editor;
use super::load;
use super::problem::Problem;
use crate::locale::{Locale, use_locale};

/// Pixels of the analysis mask at or above this grey level are furniture.
pub const THRESHOLD: u8 = 128;

/// What the footer is doing.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Busy {
    Detecting,
    /// The share sent, once the upload reports one.
    Uploading(Option<f64>),
}

impl Busy {
    fn sentence(self, locale: Locale) -> String {
        match self {
            Busy::Detecting => td_string!(locale, mask.footer_detecting).to_string(),
            Busy::Uploading(None) => td_string!(locale, mask.footer_uploading).to_string(),
            Busy::Uploading(Some(share)) => {
                td_string!(locale, mask.footer_uploading_share, percent = format!("{:.0}", share * 100.0))
            }
        }
    }
}

/// `value` with `digits` decimals and the locale's decimal mark (a comma in German, Spanish and French).
fn decimal(locale: Locale, value: f64, digits: usize) -> String {
    let figure = format!("{value:.digits$}");
    match locale {
        Locale::en => figure,
        _ => figure.replace('.', ","),
    }
}

#[component]
pub fn MaskFooter(
    editor: Editor,
    /// The photo whose mask is edited.
    image_url: String,
    studio: Studio,
) -> impl IntoView {
    let locale = use_locale();
    let busy = RwSignal::new(None::<Busy>);
    let notice = editor.notice;
    let coverage = move || editor.track_mask(|mask| mask.percentage());
    let idle = move || editor.ready() && busy.get().is_none();

    let detect = {
        let studio = studio.clone();
        move |_| {
            let (studio, image_url) = (studio.clone(), image_url.clone());
            busy.set(Some(Busy::Detecting));
            notice.set(None);
            spawn_local(async move {
                let outcome = async {
                    let analysis_url = studio.analyze(&image_url).await?;
                    let (width, height) = editor
                        .read(|core| (core.state.mask.width(), core.state.mask.height()))
                        .ok_or(Problem::Closed)?;
                    load::mask_pixels(&analysis_url, width, height).await
                }
                .await;
                let failed = match outcome {
                    Ok(rgba) => editor
                        .with(|core| {
                            core.state.mask.replace_from_rgba(&rgba, THRESHOLD).map(|rect| core.state.changed(rect))
                        })
                        .and_then(|replaced| replaced.err().map(Problem::from)),
                    Err(problem) => Some(problem),
                };
                let _ = notice.try_set(failed);
                editor.edited();
                let _ = busy.try_set(None);
            });
        }
    };

    let uploading = studio.clone();
    let export = move |_| {
        if busy.get_untracked().is_some() {
            return;
        }
        let blob = match editor.read(|core| png_blob(&core.state.mask)) {
            Some(Ok(blob)) => blob,
            Some(Err(problem)) => return notice.set(Some(problem)),
            None => return,
        };
        busy.set(Some(Busy::Uploading(None)));
        notice.set(None);
        let studio = uploading.clone();
        spawn_local(async move {
            let progress = move |share: f64| {
                let _ = busy.try_set(Some(Busy::Uploading(Some(share))));
            };
            match studio.upload(&blob, progress).await {
                Ok(mask_url) => studio.done(mask_url),
                Err(problem) => {
                    let _ = notice.try_set(Some(problem));
                }
            }
            let _ = busy.try_set(None);
        });
    };

    view! {
        <div class="vstage-mask-footer">
            <p class="vstage-hint vstage-mask-coverage" aria-live="polite">
                {move || {
                    coverage().map(|share| {
                        let locale = locale.get();
                        td_string!(locale, mask.footer_coverage, share = decimal(locale, share, 1))
                    })
                }}
            </p>
            {move || notice.get().map(|problem| view! { <p class="vstage-error" role="alert">{move || problem.sentence(locale.get())}</p> })}
            {move || busy.get().map(|busy| view! { <p class="vstage-hint" aria-busy="true">{move || busy.sentence(locale.get())}</p> })}
            <div class="vstage-form__actions">
                <button type="button" class="vstage-button vstage-button--secondary" on:click=move |_| studio.cancel()>
                    {move || td_string!(locale.get(), mask.footer_cancel)}
                </button>
                <button type="button" class="vstage-button vstage-button--secondary"
                    title=move || td_string!(locale.get(), mask.footer_detect_title)
                    disabled=move || !idle() on:click=detect>
                    {move || td_string!(locale.get(), mask.footer_detect)}
                </button>
                <button type="button" class="vstage-button vstage-mask-use"
                    disabled=move || !idle() on:click=export>
                    {move || td_string!(locale.get(), mask.footer_use)}
                </button>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_take_the_locale_s_decimal_mark() {
        assert_eq!(decimal(Locale::en, 12.345, 1), "12.3");
        assert_eq!(decimal(Locale::de, 12.345, 1), "12,3");
        assert_eq!(Busy::Uploading(Some(0.426)).sentence(Locale::en), "Uploading the mask… 43 %");
        assert_eq!(Busy::Detecting.sentence(Locale::en), "Detecting furniture…");
    }
}
