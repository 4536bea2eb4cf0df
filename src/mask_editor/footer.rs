//! The editor's footer: how much of the photo is marked, what is under way or went wrong, and the way out: cancel,
//! "Detect furniture" (the service's analysis replaces the mask, as one undoable edit) and "Use this mask" (the
//! mask exported as PNG and uploaded through the studio).

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::core::Editor;
use super::element::Studio;
use super::export::png_blob;
use super::load;

/// Pixels of the analysis mask at or above this grey level are furniture.
pub const THRESHOLD: u8 = 128;

#[component]
pub fn MaskFooter(
    editor: Editor,
    /// The photo whose mask is edited.
    image_url: String,
    studio: Studio,
) -> impl IntoView {
    let busy = RwSignal::new(None::<String>);
    let notice = editor.notice;
    let coverage = move || editor.track_mask(|mask| mask.percentage());
    let idle = move || editor.ready() && busy.get().is_none();

    let detect = {
        let studio = studio.clone();
        move |_| {
            let (studio, image_url) = (studio.clone(), image_url.clone());
            busy.set(Some("Detecting furniture…".into()));
            notice.set(None);
            spawn_local(async move {
                let outcome = async {
                    let analysis_url = studio.analyze(&image_url).await?;
                    let (width, height) = editor
                        .read(|core| (core.state.mask.width(), core.state.mask.height()))
                        .ok_or("The editor was closed.")?;
                    load::mask_pixels(&analysis_url, width, height).await
                }
                .await;
                let failed = match outcome {
                    Ok(rgba) => editor
                        .with(|core| {
                            core.state.mask.replace_from_rgba(&rgba, THRESHOLD).map(|rect| core.state.changed(rect))
                        })
                        .and_then(|replaced| replaced.err().map(|e| e.to_string())),
                    Err(message) => Some(message),
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
            Some(Err(message)) => return notice.set(Some(message)),
            None => return,
        };
        busy.set(Some("Uploading the mask…".into()));
        notice.set(None);
        let studio = uploading.clone();
        spawn_local(async move {
            let progress = move |share: f64| {
                let _ = busy.try_set(Some(format!("Uploading the mask… {:.0} %", share * 100.0)));
            };
            match studio.upload(&blob, progress).await {
                Ok(mask_url) => studio.done(mask_url),
                Err(message) => {
                    let _ = notice.try_set(Some(message));
                }
            }
            let _ = busy.try_set(None);
        });
    };

    view! {
        <div class="vstage-mask-footer">
            <p class="vstage-hint vstage-mask-coverage" aria-live="polite">
                {move || coverage().map(|share| format!("{share:.1} % of the photo marked for removal"))}
            </p>
            {move || notice.get().map(|message| view! { <p class="vstage-error" role="alert">{message}</p> })}
            {move || busy.get().map(|message| view! { <p class="vstage-hint" aria-busy="true">{message}</p> })}
            <div class="vstage-form__actions">
                <button type="button" class="vstage-button vstage-button--secondary" on:click=move |_| studio.cancel()>"Cancel"</button>
                <button type="button" class="vstage-button vstage-button--secondary" title="Start from the service's furniture analysis"
                    disabled=move || !idle() on:click=detect>"Detect furniture"</button>
                <button type="button" class="vstage-button vstage-mask-use"
                    disabled=move || !idle() on:click=export>"Use this mask"</button>
            </div>
        </div>
    }
}
