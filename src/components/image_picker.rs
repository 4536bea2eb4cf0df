//! Where the photo comes from: a web address, a file from this device (chosen or dropped, previewed, uploaded with
//! a progress bar), or one of the sandbox's sample photos. Sets the address the service will fetch.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_i18n::td_string;

use crate::account::use_account;
use crate::api::use_api;
use crate::components::drop_zone::DropZone;
use crate::components::photo_address::PhotoAddress;
use crate::locale::{Locale, use_locale};
use crate::upload::use_uploader;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Address,
    Device,
    Sample,
}

#[derive(Debug, Clone, PartialEq)]
enum Upload {
    Idle,
    Sending {
        name: String,
        progress: f64,
    },
    Done {
        name: String,
    },
    /// The file chosen is not an image.
    NotImage {
        name: String,
    },
    /// The uploader's sentence.
    Failed {
        message: String,
    },
}

#[component]
pub fn ImagePicker(
    /// The chosen photo's address.
    image_url: RwSignal<String>,
    /// The form's error about the photo, if any.
    #[prop(into)]
    error: Signal<Option<String>>,
) -> impl IntoView {
    let locale = use_locale();
    let account = use_account();
    let api = use_api();
    let uploader = use_uploader();
    let source = RwSignal::new(Source::Address);
    let upload_state = RwSignal::new(Upload::Idle);
    let preview = RwSignal::new(None::<String>);
    let preview_broken = RwSignal::new(false);
    Effect::new(move |_| {
        image_url.track();
        preview_broken.set(false);
    });
    // Samples are offered by the sandbox only; elsewhere the list is empty.
    // Asked for once the server says it is the sandbox (a deep link may start before it says so).
    let samples = RwSignal::new(None::<Vec<vstage_api::Sample>>);
    Effect::new(move |asked: Option<bool>| {
        if asked == Some(true) || !account.is_sandbox() {
            return asked.unwrap_or(false);
        }
        let api = api.clone();
        spawn_local(async move {
            let _ = samples.try_set(Some(api.samples().await.unwrap_or_default()));
        });
        true
    });
    // The sandbox's samples are offered first, unless the person already chose where the photo comes from (the
    // server may say it is the sandbox after a click).
    let chosen_by_person = StoredValue::new(false);
    Effect::new(move |_| {
        if account.is_sandbox() && image_url.get_untracked().is_empty() && !chosen_by_person.get_value() {
            source.set(Source::Sample);
        }
    });
    // A photo given from outside while a sample is chosen (the host's `photo-url`): show it as the address it is.
    Effect::new(move |_| {
        let url = image_url.get();
        let given = samples.get().is_some_and(|samples| !url.is_empty() && samples.iter().all(|s| s.url != url));
        if given && source.get_untracked() == Source::Sample {
            source.set(Source::Address);
        }
    });

    let send_file = move |file: web_sys::File| {
        if !file.type_().starts_with("image/") {
            upload_state.set(Upload::NotImage { name: file.name() });
            return;
        }
        if let Ok(url) = web_sys::Url::create_object_url_with_blob(&file) {
            preview.set(Some(url));
        }
        let name = file.name();
        upload_state.set(Upload::Sending { name: name.clone(), progress: 0.0 });
        let uploader = uploader.clone();
        spawn_local(async move {
            let progress_name = name.clone();
            let result = uploader
                .send(&file, move |progress| {
                    upload_state.set(Upload::Sending { name: progress_name.clone(), progress })
                })
                .await;
            match result {
                Ok(uploaded) => {
                    image_url.set(uploaded.url);
                    upload_state.set(Upload::Done { name });
                }
                Err(message) => upload_state.set(Upload::Failed { message }),
            }
        });
    };
    let on_files = Callback::new(move |files: web_sys::FileList| {
        if let Some(file) = files.get(0) {
            send_file(file);
        }
    });

    let tab = move |value: Source, label: fn(Locale) -> &'static str| {
        view! {
            <label class="vstage-tab" class:vstage-tab--chosen=move || source.get() == value>
                <input type="radio" name="vstage-photo-source" prop:checked=move || source.get() == value on:change=move |_| {
                    chosen_by_person.set_value(true);
                    source.set(value);
                } />
                {move || label(locale.get())}
            </label>
        }
    };

    view! {
        <fieldset class="vstage-picker">
            <legend>{move || td_string!(locale.get(), forms.picker_legend)}</legend>
            <div class="vstage-tabs" role="radiogroup" aria-label=move || td_string!(locale.get(), forms.picker_source)>
                {tab(Source::Address, |locale| td_string!(locale, forms.picker_address_tab))}
                <Show when=move || account.offers_uploads()>
                    {tab(Source::Device, |locale| td_string!(locale, forms.picker_device_tab))}
                </Show>
                <Show when=move || account.is_sandbox()>
                    {tab(Source::Sample, |locale| td_string!(locale, forms.picker_sample_tab))}
                </Show>
            </div>
            <Show when=move || source.get() == Source::Address>
                <PhotoAddress
                    id="vstage-image-url"
                    label=move || td_string!(locale.get(), forms.picker_address)
                    placeholder="https://…/living-room.jpg"
                    value=image_url
                    on_input=move |typed: String| image_url.set(typed.trim().to_string())
                    invalid=Signal::derive(move || error.get().is_some())
                />
            </Show>
            <Show when=move || source.get() == Source::Device>
                <DropZone id="vstage-image-file" label=move || td_string!(locale.get(), forms.picker_drop) on_files>
                    {move || match upload_state.get() {
                        Upload::Idle => ().into_any(),
                        Upload::Sending { name, progress } => view! {
                            <div class="vstage-upload" role="status" aria-live="polite">
                                <span>{move || {
                                    let percent = format!("{:.0}", progress * 100.0);
                                    td_string!(locale.get(), forms.picker_uploading, name = &name, percent = percent)
                                }}</span>
                                <progress max="1" value=progress.to_string()></progress>
                            </div>
                        }.into_any(),
                        Upload::Done { name } => view! {
                            <p class="vstage-upload" role="status">
                                {move || td_string!(locale.get(), forms.picker_uploaded, name = &name)}
                            </p>
                        }.into_any(),
                        Upload::NotImage { name } => view! {
                            <p class="vstage-error" role="alert">
                                {move || td_string!(locale.get(), forms.picker_not_image, name = &name)}
                            </p>
                        }.into_any(),
                        Upload::Failed { message } => view! { <p class="vstage-error" role="alert">{message}</p> }.into_any(),
                    }}
                </DropZone>
            </Show>
            <Show when=move || source.get() == Source::Sample>
                <div class="vstage-samples">
                    {move || match samples.get() {
                        None => view! {
                            <p class="vstage-skeleton">{move || td_string!(locale.get(), forms.picker_loading_samples)}</p>
                        }.into_any(),
                        Some(samples) => samples.into_iter().map(|sample| {
                            let url = sample.url.clone();
                            let chosen = {
                                let url = url.clone();
                                move || image_url.get() == url
                            };
                            view! {
                                <button
                                    type="button"
                                    class="vstage-sample"
                                    class:vstage-sample--chosen=chosen.clone()
                                    aria-pressed=move || chosen().to_string()
                                    on:click=move |_| {
                                        preview.set(None);
                                        image_url.set(url.clone());
                                    }
                                >
                                    <img src=sample.url.clone() alt="" loading="lazy" />
                                    <span>{sample.description.clone()}</span>
                                </button>
                            }
                        }).collect_view().into_any(),
                    }}
                </div>
            </Show>
            {move || error.get().map(|message| view! { <p class="vstage-error" role="alert">{message}</p> })}
            {move || {
                let shown = preview.get().or_else(|| Some(image_url.get()).filter(|url| !url.is_empty()));
                shown.map(|src| view! {
                    <figure class="vstage-preview">
                        <Show
                            when=move || !preview_broken.get()
                            fallback=move || view! {
                                <p class="vstage-error">{move || td_string!(locale.get(), forms.picker_broken)}</p>
                            }
                        >
                            <img
                                src=src.clone()
                                alt=move || td_string!(locale.get(), forms.picker_preview_alt)
                                on:error=move |_| preview_broken.set(true)
                            />
                        </Show>
                    </figure>
                })
            }}
        </fieldset>
    }
}
