//! Sending a local photo (or mask) with upload progress, which `fetch` cannot report: an `XMLHttpRequest` wrapped
//! in a future, with the host's token (renewed as for API calls). To `POST /api/uploads`, whose answer is where the
//! service fetches it, or as the multipart `file` of a v1 create.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Promise;
use leptos::prelude::*;
use leptos_i18n::td_string;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, ProgressEvent, XmlHttpRequest};

use vstage_api::transport::HttpResponse;
use vstage_api::{Message, Uploaded};

use crate::api::{Token, use_api, use_token};
use crate::locale::{Locale, use_locale};

/// The largest photo the server takes.
pub const MAX_BYTES: f64 = vstage_api::validate::MAX_PHOTO_BYTES as f64;

/// Whether a file of this media type is a photo the studio sends (any `image/`).
pub fn is_image(media_type: &str) -> bool {
    media_type.starts_with("image/")
}

/// An upload's progress (0.0 to 1.0) as the whole percentage its sentence shows: 0.426 → "43".
pub fn percent(done: f64) -> String {
    format!("{:.0}", done * 100.0)
}

/// Where uploads go, and with which token: the studio's. Its failures are sentences in the studio's language at
/// the moment they happen.
#[derive(Clone)]
pub struct Uploader {
    base: String,
    token: Option<Token>,
    locale: Signal<Locale>,
}

/// The studio's uploader (its server, token and language).
pub fn use_uploader() -> Uploader {
    Uploader { base: use_api().base_url().to_string(), token: use_token(), locale: use_locale() }
}

impl Uploader {
    /// Uploads `body` to `{base}/uploads`, reporting progress from 0.0 to 1.0. When the server refuses the
    /// token, the upload waits for the host's new one and starts again.
    pub async fn send(&self, body: &Blob, on_progress: impl Fn(f64) + 'static) -> Result<Uploaded, String> {
        let locale = self.locale.get_untracked();
        if body.size() > MAX_BYTES {
            return Err(td_string!(locale, forms.upload_over_limit).to_string());
        }
        let answer = self.post("/uploads", &Payload::Photo(body), Rc::new(on_progress)).await?;
        read_answer(self.locale.get_untracked(), &answer)
    }

    /// `photo` as the multipart `file` of `POST {base}{path}` (its other arguments in `path`'s query), reporting
    /// progress; the server's answer, whatever its status.
    pub async fn send_form(
        &self,
        path: &str,
        photo: &Blob,
        file_name: &str,
        on_progress: impl Fn(f64) + 'static,
    ) -> Result<HttpResponse, String> {
        let locale = self.locale.get_untracked();
        if photo.size() > MAX_BYTES {
            return Err(td_string!(locale, forms.upload_over_limit).to_string());
        }
        let failed = |_| td_string!(locale, forms.upload_not_started).to_string();
        let form = web_sys::FormData::new().map_err(failed)?;
        form.append_with_blob_and_filename("file", photo, file_name).map_err(failed)?;
        self.post(path, &Payload::Form(&form), Rc::new(on_progress)).await
    }

    /// Sends `payload` to `{base}{path}` until the server takes the token (or the studio is removed).
    async fn post(
        &self,
        path: &str,
        payload: &Payload<'_>,
        on_progress: Rc<dyn Fn(f64)>,
    ) -> Result<HttpResponse, String> {
        loop {
            let token = self.token.as_ref().and_then(Token::get_untracked);
            let url = format!("{}{path}", self.base);
            let answer = upload(self.locale, &url, token.as_deref(), payload, on_progress.clone()).await?;
            match &self.token {
                Some(holder) if holder.renewed_after(token.as_deref(), &answer).await => on_progress(0.0),
                _ => return Ok(answer),
            }
        }
    }
}

/// What an upload carries: a photo as the body, or a form (the browser sets its type and boundary).
enum Payload<'a> {
    Photo(&'a Blob),
    Form(&'a web_sys::FormData),
}

/// One attempt: the server's answer, or why there was none.
async fn upload(
    locale: Signal<Locale>,
    url: &str,
    token: Option<&str>,
    payload: &Payload<'_>,
    on_progress: Rc<dyn Fn(f64)>,
) -> Result<HttpResponse, String> {
    let failed = |_| td_string!(locale.get_untracked(), forms.upload_not_started_connection).to_string();
    let request = XmlHttpRequest::new().map_err(failed)?;
    request.open("POST", url).map_err(failed)?;
    if let Some(token) = token {
        let _ = request.set_request_header("Authorization", &format!("Bearer {token}"));
    }
    let _ = request.set_request_header("Accept", "application/json");
    if let Payload::Photo(body) = payload
        && !body.type_().is_empty()
    {
        let _ = request.set_request_header("Content-Type", &body.type_());
    }
    let progress = Closure::<dyn FnMut(ProgressEvent)>::new(move |event: ProgressEvent| {
        if event.length_computable() && event.total() > 0.0 {
            on_progress(event.loaded() / event.total());
        }
    });
    if let Ok(upload) = request.upload() {
        upload.set_onprogress(Some(progress.as_ref().unchecked_ref()));
    }
    // Kept alive until the request ends.
    let keep = Rc::new(RefCell::new(Vec::<Closure<dyn FnMut()>>::new()));
    let finished = Promise::new(&mut |resolve, reject| {
        let done = Closure::<dyn FnMut()>::new(move || {
            let _ = resolve.call0(&JsValue::NULL);
        });
        let broken = Closure::<dyn FnMut()>::new(move || {
            let _ = reject.call0(&JsValue::NULL);
        });
        request.set_onload(Some(done.as_ref().unchecked_ref()));
        request.set_onerror(Some(broken.as_ref().unchecked_ref()));
        request.set_onabort(Some(broken.as_ref().unchecked_ref()));
        keep.borrow_mut().extend([done, broken]);
    });
    match payload {
        Payload::Photo(body) => request.send_with_opt_blob(Some(body)),
        Payload::Form(form) => request.send_with_opt_form_data(Some(form)),
    }
    .map_err(failed)?;
    let outcome = JsFuture::from(finished).await;
    drop(progress);
    drop(keep);
    if outcome.is_err() {
        return Err(td_string!(locale.get_untracked(), forms.upload_interrupted).to_string());
    }
    Ok(HttpResponse {
        status: request.status().unwrap_or(0),
        retry_after: None,
        www_authenticate: request.get_response_header("WWW-Authenticate").ok().flatten(),
        event_id: None,
        body: request.response_text().ok().flatten().unwrap_or_default().into_bytes(),
    })
}

/// Where the upload is, or the server's sentence for why not (as the server wrote it).
fn read_answer(locale: Locale, answer: &HttpResponse) -> Result<Uploaded, String> {
    let status = answer.status;
    if (200..300).contains(&status) {
        return serde_json::from_slice(&answer.body)
            .map_err(|_| td_string!(locale, forms.upload_unreadable).to_string());
    }
    Err(serde_json::from_slice::<Message>(&answer.body).map(|m| m.message).unwrap_or_else(|_| match status {
        404 => td_string!(locale, forms.upload_not_offered).to_string(),
        413 => td_string!(locale, forms.upload_too_large).to_string(),
        _ => td_string!(locale, forms.upload_failed_status, status = status),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn answer(status: u16, body: &str) -> HttpResponse {
        HttpResponse {
            status,
            retry_after: None,
            www_authenticate: None,
            event_id: None,
            body: body.as_bytes().to_vec(),
        }
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn progress_is_a_whole_percentage_and_only_images_are_sent() {
        assert_eq!([percent(0.0), percent(0.426), percent(1.0)], ["0", "43", "100"]);
        assert!(is_image("image/jpeg") && is_image("image/webp"));
        assert!(!is_image("application/pdf") && !is_image(""));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_refused_upload_says_why() {
        let refused = |locale, status, body| read_answer(locale, &answer(status, body)).unwrap_err();
        assert_eq!(refused(Locale::en, 502, ""), "The upload failed (HTTP 502); try again.");
        assert_eq!(
            refused(Locale::en, 404, "not json"),
            "This server does not take uploads; give the photo's web address instead."
        );
        assert_eq!(refused(Locale::fr, 400, r#"{"message":"Bad type."}"#), "Bad type.", "the server's own words");
        assert_ne!(refused(Locale::de, 413, ""), refused(Locale::en, 413, ""));
    }
}
