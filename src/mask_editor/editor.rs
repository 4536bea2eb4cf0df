//! The mask editor: the photo with the mask over it on a canvas, the toolbar, keyboard shortcuts, "detect
//! furniture" (the service's analysis as a starting point) and "use this mask" (export and upload).

use leptos::html::Canvas;
use leptos::prelude::*;
use leptos::task::spawn_local;
use vstage_mask::Mask;
use wasm_bindgen::JsCast;
use web_sys::{KeyboardEvent, PointerEvent, WheelEvent};

use super::canvas::MaskLayer;
use super::core::{EditorCore, PointerInput, PointerKind};
use super::element::Studio;
use super::export::png_blob;
use super::load;
use super::settings::BrushSettings;
use super::shortcuts::{STEP, Shortcut, shortcut};
use super::toolbar::{Action, MaskToolbar};
use crate::hooks::use_animation_frame::use_animation_frame;
use crate::hooks::use_resize_observer::use_resize_observer;

/// Pixels of the analysis mask at or above this grey level are furniture.
const THRESHOLD: u8 = 128;

/// Where loading the photo and its starting mask stands.
#[derive(Debug, Clone, PartialEq)]
enum Photo {
    Loading,
    Ready,
    Failed(String),
}

/// The canvas's top-left corner in the viewport: read once per event (it forces layout), not once per sample.
fn origin(canvas: &web_sys::Element) -> (f64, f64) {
    let rect = canvas.get_bounding_client_rect();
    (rect.left(), rect.top())
}

fn pointer_input(event: &PointerEvent, (left, top): (f64, f64)) -> PointerInput {
    PointerInput {
        id: event.pointer_id(),
        kind: match event.pointer_type().as_str() {
            "pen" => PointerKind::Pen,
            "touch" => PointerKind::Touch,
            _ => PointerKind::Mouse,
        },
        button: event.button(),
        x: f64::from(event.client_x()) - left,
        y: f64::from(event.client_y()) - top,
        pressure: f64::from(event.pressure()),
    }
}

#[component]
pub fn MaskEditor(
    /// The photo whose mask is edited.
    #[prop(into)]
    image_url: String,
    /// Start from this analysis mask (white = furniture) instead of an empty one.
    start_from: Option<String>,
    /// The studio around the editor: analysis, upload, and where the mask goes.
    studio: Studio,
) -> impl IntoView {
    let core = StoredValue::new_local(None::<EditorCore>);
    let loading = RwSignal::new(Photo::Loading);
    let settings = BrushSettings::new();
    let BrushSettings { opacity, panning, size, .. } = settings;
    // bumped after each change of the history, so undo/redo and the coverage follow
    let revision = RwSignal::new(0u64);
    let zoom = RwSignal::new(1.0);
    let busy = RwSignal::new(None::<String>);
    let notice = RwSignal::new(None::<String>);
    let canvas_ref = NodeRef::<Canvas>::new();

    let brush = move || settings.brush();
    // one draw per animation frame, however many events came in
    let redraw = use_animation_frame(move || {
        let Some(canvas) = canvas_ref.get_untracked() else { return };
        let opacity = opacity.get_untracked();
        let scale = core.try_update_value(|core| {
            core.as_mut().map(|core| {
                let _ = core.draw(&canvas, opacity, brush());
                core.scale()
            })
        });
        // not on every frame of a stroke: only a new scale re-renders the readout
        if let Some(Some(scale)) = scale
            && zoom.get_untracked() != scale
        {
            zoom.set(scale);
        }
    });
    let edited = move || {
        revision.update(|n| *n += 1);
        redraw();
    };
    let with_core = move |f: &mut dyn FnMut(&mut EditorCore)| {
        core.update_value(|core| {
            if let Some(core) = core.as_mut() {
                f(core);
            }
        })
    };

    // load the photo, then the starting mask
    {
        let image_url = image_url.clone();
        spawn_local(async move {
            let outcome = async {
                let photo = load::image(&image_url, false).await?;
                let (width, height) = load::size(&photo);
                let analysis = match start_from {
                    Some(url) => load::mask_pixels(&url, width, height)
                        .await
                        .and_then(|rgba| Mask::from_rgba(width, height, &rgba, THRESHOLD).map_err(|e| e.to_string()))
                        .inspect_err(|message| notice.set(Some(message.clone())))
                        .ok(),
                    None => None,
                };
                let mask = match analysis {
                    Some(mask) => mask,
                    None => Mask::new(width, height).map_err(|e| e.to_string())?,
                };
                let mut layer = MaskLayer::new(width, height, settings.colour_bytes())?;
                layer.repaint(&mask);
                Ok::<_, String>((EditorCore::new(mask, layer, photo), width, height))
            }
            .await;
            match outcome {
                Ok((editor, width, height)) => {
                    if core.try_set_value(Some(editor)).is_some() {
                        return; // the editor was closed meanwhile
                    }
                    settings.fit_photo(width, height);
                    loading.set(Photo::Ready);
                    edited();
                }
                Err(message) => {
                    let _ = loading.try_set(Photo::Failed(message));
                }
            }
        });
    }

    // the canvas follows its box (window resized, phone turned): its backing store is sized on the next draw
    use_resize_observer(canvas_ref, redraw);
    Effect::new(move |_| {
        let colour = settings.colour_bytes();
        with_core(&mut |core| core.layer.set_colour(&core.mask, colour));
        redraw();
    });
    Effect::new(move |_| {
        opacity.track();
        panning.track();
        size.track();
        redraw();
    });

    let run = move |action: Action| {
        let fitted = canvas_ref.get_untracked().map(|c| (f64::from(c.client_width()), f64::from(c.client_height())));
        let history = matches!(action, Action::Undo | Action::Redo | Action::Clear | Action::Invert | Action::Fill);
        with_core(&mut |core| {
            let rect = match action {
                Action::Undo => core.mask.undo(),
                Action::Redo => core.mask.redo(),
                Action::Clear => core.mask.clear(),
                Action::Invert => core.mask.invert(),
                Action::Fill => core.mask.fill(),
                Action::ZoomIn => return core.zoom(STEP, None),
                Action::ZoomOut => return core.zoom(1.0 / STEP, None),
                Action::Fit => return core.fit(fitted.unwrap_or((800.0, 600.0))),
            };
            core.changed(rect);
        });
        if history { edited() } else { redraw() }
    };

    let on_key = move |ev: KeyboardEvent| {
        // typing in a text field is not a shortcut
        let typing = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            .is_some_and(|input| !matches!(input.type_().as_str(), "range" | "color" | "checkbox" | "radio"));
        if typing {
            return;
        }
        let Some(shortcut) = shortcut(&ev.key(), ev.ctrl_key() || ev.meta_key(), ev.shift_key()) else { return };
        ev.prevent_default();
        let action = match shortcut {
            Shortcut::Undo => Action::Undo,
            Shortcut::Redo => Action::Redo,
            Shortcut::ZoomIn => Action::ZoomIn,
            Shortcut::ZoomOut => Action::ZoomOut,
            Shortcut::Fit => Action::Fit,
            brush_only => return settings.apply(brush_only),
        };
        run(action);
    };

    let on_pointer_down = move |ev: PointerEvent| {
        let Some(canvas) = canvas_ref.get_untracked() else { return };
        ev.prevent_default();
        let _ = canvas.focus();
        let _ = canvas.set_pointer_capture(ev.pointer_id());
        let input = pointer_input(&ev, origin(&canvas));
        with_core(&mut |core| {
            core.pointer_down(input, brush());
        });
        redraw();
    };
    let on_pointer_move = move |ev: PointerEvent| {
        let Some(canvas) = canvas_ref.get_untracked() else { return };
        let at = origin(&canvas);
        let coalesced = ev.get_coalesced_events();
        let mut samples: Vec<PointerInput> =
            coalesced.iter().filter_map(|e| e.dyn_into::<PointerEvent>().ok()).map(|e| pointer_input(&e, at)).collect();
        if samples.is_empty() {
            samples.push(pointer_input(&ev, at));
        }
        with_core(&mut |core| core.pointer_move(&samples, brush()));
        redraw();
    };
    let on_pointer_up = move |ev: PointerEvent| {
        let Some(canvas) = canvas_ref.get_untracked() else { return };
        let input = pointer_input(&ev, origin(&canvas));
        let ended = core.try_update_value(|core| core.as_mut().is_some_and(|core| core.pointer_up(input)));
        if ended == Some(true) { edited() } else { redraw() }
    };
    let on_wheel = move |ev: WheelEvent| {
        let Some(canvas) = canvas_ref.get_untracked() else { return };
        ev.prevent_default();
        let unit = match ev.delta_mode() {
            WheelEvent::DOM_DELTA_LINE => 16.0,
            WheelEvent::DOM_DELTA_PAGE => 400.0,
            _ => 1.0,
        };
        let factor = (-ev.delta_y() * unit * 0.0015).exp();
        let rect = canvas.get_bounding_client_rect();
        let at = (f64::from(ev.client_x()) - rect.left(), f64::from(ev.client_y()) - rect.top());
        with_core(&mut |core| core.zoom(factor, Some(at)));
        redraw();
    };

    let can_undo = Signal::derive(move || {
        revision.track();
        core.try_with_value(|core| core.as_ref().is_some_and(|core| core.mask.can_undo())).unwrap_or(false)
    });
    let can_redo = Signal::derive(move || {
        revision.track();
        core.try_with_value(|core| core.as_ref().is_some_and(|core| core.mask.can_redo())).unwrap_or(false)
    });
    let coverage = move || {
        revision.track();
        core.try_with_value(|core| core.as_ref().map(|core| core.mask.percentage())).flatten()
    };

    let detect = {
        let studio = studio.clone();
        let image_url = image_url.clone();
        move |_| {
            let (studio, image_url) = (studio.clone(), image_url.clone());
            busy.set(Some("Detecting furniture…".into()));
            notice.set(None);
            spawn_local(async move {
                let outcome = async {
                    let analysis_url = studio.analyze(&image_url).await?;
                    let (width, height) = core
                        .try_with_value(|core| core.as_ref().map(|c| (c.mask.width(), c.mask.height())))
                        .flatten()
                        .ok_or("The editor was closed.")?;
                    load::mask_pixels(&analysis_url, width, height).await
                }
                .await;
                match outcome {
                    Ok(rgba) => {
                        let mut failed = None;
                        with_core(&mut |core| match core.mask.replace_from_rgba(&rgba, THRESHOLD) {
                            Ok(rect) => core.changed(rect),
                            Err(e) => failed = Some(e.to_string()),
                        });
                        let _ = notice.try_set(failed);
                        edited();
                    }
                    Err(message) => {
                        let _ = notice.try_set(Some(message));
                    }
                }
                let _ = busy.try_set(None);
            });
        }
    };

    let uploading = studio.clone();
    let export = move |_| {
        if busy.get_untracked().is_some() {
            return;
        }
        let blob = core.with_value(|core| core.as_ref().map(|core| png_blob(&core.mask)));
        let blob = match blob {
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
        <div class="vstage-mask-editor" on:keydown=on_key on:keyup=move |ev: KeyboardEvent| {
            if ev.key() == " " {
                panning.set(false);
            }
        }>
            <MaskToolbar
                settings
                can_undo
                can_redo
                zoom
                on_action=Callback::new(run)
            />
            <div class="vstage-mask-stage" class:vstage-mask-stage--panning=move || panning.get()>
                <canvas
                    node_ref=canvas_ref
                    class="vstage-mask-canvas"
                    tabindex="0"
                    aria-label="Mask: paint over what should be removed"
                    on:pointerdown=on_pointer_down
                    on:pointermove=on_pointer_move
                    on:pointerup=on_pointer_up
                    on:pointercancel=on_pointer_up
                    on:pointerleave=move |_| {
                        with_core(&mut |core| core.pointer_left());
                        redraw();
                    }
                    on:wheel=on_wheel
                    on:contextmenu=move |ev| ev.prevent_default()
                ></canvas>
                {move || match loading.get() {
                    Photo::Loading => Some(view! { <p class="vstage-mask-stage__status" aria-busy="true">"Loading the photo…"</p> }.into_any()),
                    Photo::Failed(message) => Some(view! { <p class="vstage-error vstage-mask-stage__status" role="alert">{message}</p> }.into_any()),
                    Photo::Ready => None,
                }}
            </div>
            <div class="vstage-mask-footer">
                <p class="vstage-hint vstage-mask-coverage" aria-live="polite">
                    {move || coverage().map(|share| format!("{share:.1} % of the photo marked for removal"))}
                </p>
                {move || notice.get().map(|message| view! { <p class="vstage-error" role="alert">{message}</p> })}
                {move || busy.get().map(|message| view! { <p class="vstage-hint" aria-busy="true">{message}</p> })}
                <div class="vstage-form__actions">
                    <button type="button" class="vstage-button vstage-button--secondary" on:click=move |_| studio.cancel()>"Cancel"</button>
                    <button type="button" class="vstage-button vstage-button--secondary" title="Start from the service's furniture analysis"
                        disabled=move || loading.get() != Photo::Ready || busy.get().is_some() on:click=detect>"Detect furniture"</button>
                    <button type="button" class="vstage-button vstage-mask-use"
                        disabled=move || loading.get() != Photo::Ready || busy.get().is_some() on:click=export>"Use this mask"</button>
                </div>
            </div>
        </div>
    }
}
