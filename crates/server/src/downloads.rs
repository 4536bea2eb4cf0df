//! `GET /api/renders/{render_id}/results.zip` and `GET /api/board/results.zip`: every finished image of a render, or
//! of the subject's board, as one ZIP named by photo and style, streamed while the images are fetched one after
//! another: the server holds one image at a time, whatever the number of results. With widget tokens, only the
//! render's creator gets it.

use std::collections::HashSet;
use std::io::Write;
use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::HeaderValue;
use axum::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Router, routing::get};
use tokio::sync::mpsc;
use vstage_api::{Config, Variation, VariationStatus};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

use crate::access::Subject;
use crate::disclosure::{Disclosures, MAX_LIST_LIMIT, report};
use crate::error::ServerError;
use crate::file_names::file_safe;
use crate::proxy::Proxy;
use crate::results::fetch::{ResultFetcher, extension};
use crate::storage::boards::Boards;
use crate::storage::ownership::Kind;
use crate::storage::store::DisclosureCursor;

/// Parts of the ZIP waiting to be sent (an image each): one, so that a slow client holds back the fetching of the
/// next image and the server holds about two at a time (`cargo xtask bench results`).
const QUEUED_PARTS: usize = 1;

struct Zips {
    proxy: Arc<Proxy>,
    fetcher: ResultFetcher,
    boards: Boards,
    disclosures: Arc<Disclosures>,
}

/// The routes, for the subject the access middleware found.
pub fn routes(proxy: Arc<Proxy>, fetcher: ResultFetcher, boards: Boards, disclosures: Arc<Disclosures>) -> Router {
    Router::new()
        .route("/renders/{render_id}/results.zip", get(download_render))
        .route("/board/results.zip", get(download_board))
        .with_state(Arc::new(Zips { proxy, fetcher, boards, disclosures }))
}

/// One image in the ZIP.
#[derive(Debug, Clone, PartialEq)]
struct Entry {
    name: String,
    url: String,
}

async fn download_render(
    State(zips): State<Arc<Zips>>,
    Extension(subject): Extension<Subject>,
    Path(render_id): Path<String>,
) -> Result<Response, ServerError> {
    vstage_api::validate::id("render_id", &render_id).map_err(|e| ServerError::BadRequest(e.to_string()))?;
    if subject.by_token() {
        zips.proxy.require_owner(Kind::Render, vec![render_id.clone()], &subject).await?;
    }
    let (render, variations) = zips
        .proxy
        .read_whole_render(&subject, &render_id)
        .await?
        .ok_or_else(|| ServerError::NotFound(format!("No render {render_id}; check the address.")))?;
    let photo = photo_name(None, render.image_url.as_deref(), &render_id);
    let entries = entries(&photo, &variations);
    if entries.is_empty() {
        return Err(ServerError::Conflict(
            "This render has no finished result yet; download it once a variation is done.".into(),
        ));
    }
    Ok(stream_zip(zips, entries, None, &format!("{photo}-results.zip")))
}

/// Every render on the subject's board, each photo under the name the agent gave it (made unique); renders the
/// service no longer has are left out.
async fn download_board(
    State(zips): State<Arc<Zips>>,
    Extension(subject): Extension<Subject>,
) -> Result<Response, ServerError> {
    let board = zips.boards.board(subject.as_str()).await?;
    let mut taken = HashSet::new();
    let taken_renders: HashSet<String> = board.renders.iter().map(|on_board| on_board.render_id.clone()).collect();
    let mut entries_of_board = Vec::new();
    for (read, on_board) in board.renders.into_iter().enumerate() {
        // The request's arrival counted the first read; each other render is counted before it is read.
        if read > 0 {
            subject.spend_calls(1).await?;
        }
        let Some((render, variations)) = zips.proxy.read_whole_render(&subject, &on_board.render_id).await? else {
            continue;
        };
        let photo = photo_name(Some(&on_board.label), render.image_url.as_deref(), &on_board.render_id);
        let photo = (1..)
            .map(|n| if n == 1 { photo.clone() } else { format!("{photo}-{n}") })
            .find(|name| taken.insert(name.clone()))
            .unwrap_or(photo);
        entries_of_board.extend(entries(&photo, &variations));
    }
    if entries_of_board.is_empty() {
        return Err(ServerError::Conflict(
            "Nothing on the board is finished yet; download it once a variation is done.".into(),
        ));
    }
    let report = board_disclosures(&zips, &subject, &taken_renders).await?;
    Ok(stream_zip(zips, entries_of_board, Some(report), "board-results.zip"))
}

/// `disclosures.csv`: the subject's chosen results among the board's renders.
async fn board_disclosures(zips: &Zips, subject: &Subject, renders: &HashSet<String>) -> Result<Document, ServerError> {
    let disclosures = &zips.disclosures;
    let mut shown = Vec::new();
    let mut after = None;
    loop {
        let records = disclosures.store.disclosures(Some(subject.as_str()), MAX_LIST_LIMIT, after.as_ref()).await?;
        let on_board = records.iter().filter(|record| renders.contains(&record.render_id));
        shown.extend(on_board.map(|record| disclosures.shown(record)));
        match records.last() {
            Some(last) if records.len() == MAX_LIST_LIMIT as usize => after = Some(DisclosureCursor::after(last)),
            _ => break,
        }
    }
    Ok(Document { name: "disclosures.csv".into(), bytes: report::csv(&shown)? })
}

/// A file the server writes itself into a ZIP, after the images.
struct Document {
    name: String,
    bytes: Vec<u8>,
}

/// The ZIP of `entries` (and `document` after them) as the response's body, written while it is sent, saved as
/// `file_name`.
fn stream_zip(zips: Arc<Zips>, entries: Vec<Entry>, document: Option<Document>, file_name: &str) -> Response {
    let (parts, queue) = mpsc::channel::<Result<Bytes, std::io::Error>>(QUEUED_PARTS);
    tokio::spawn(write_zip(zips, entries, document, parts));
    let stream =
        futures_util::stream::unfold(queue, |mut queue| async move { queue.recv().await.map(|part| (part, queue)) });
    let mut response = Body::from_stream(stream).into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/zip"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{file_name}\"")) {
        headers.insert(CONTENT_DISPOSITION, value);
    }
    response
}

/// Each finished image, named `<photo>_<what was done>_<n>.<ext>` (`Config::file_label`), numbered in the order the
/// service made them.
fn entries(photo: &str, variations: &[Variation]) -> Vec<Entry> {
    let mut entries = Vec::new();
    for variation in variations.iter().filter(|variation| variation.status == VariationStatus::Done) {
        let Some(result) = &variation.result else { continue };
        let label = variation.config.as_ref().map_or_else(|| "result".to_string(), Config::file_label);
        for image in result.images() {
            let number = entries.len() + 1;
            let extension = extension(&image.url);
            entries.push(Entry { name: format!("{photo}_{label}_{number:02}.{extension}"), url: image.url.clone() });
        }
    }
    entries
}

/// The photo's name without its extension: the label the agent gave it on the board, else the address's last part
/// (`living-room` for `.../living-room.jpg?x=1`), else the render's id.
fn photo_name(label: Option<&str>, image_url: Option<&str>, render_id: &str) -> String {
    let stem = |name: &str| file_safe(name.rsplit_once('.').map_or(name, |(stem, _)| stem));
    let from_label = label.map(stem);
    let from_url = || {
        let name = image_url
            .filter(|url| !url.starts_with("data:"))
            .and_then(|url| url.split(['?', '#']).next())
            .and_then(|path| path.rsplit('/').next())?;
        Some(stem(&percent_encoding::percent_decode_str(name).decode_utf8_lossy()))
    };
    from_label
        .filter(|name| !name.is_empty())
        .or_else(|| from_url().filter(|name| !name.is_empty()))
        .unwrap_or_else(|| file_safe(render_id))
}

/// The ZIP's bytes so far, handed to the response part by part.
#[derive(Clone, Default)]
struct Parts(Arc<Mutex<Vec<u8>>>);

impl Parts {
    fn take(&self) -> Bytes {
        Bytes::from(std::mem::take(&mut *self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())))
    }
}

impl Write for Parts {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Reads each image (its kept copy, else from the service, reduced to what draws it as uploads are) and writes it as
/// a stored entry (photos are compressed already), sending the ZIP as it grows. A failure ends the body with an error, so the download fails visibly instead of ending short.
async fn write_zip(
    zips: Arc<Zips>,
    entries: Vec<Entry>,
    document: Option<Document>,
    parts: mpsc::Sender<Result<Bytes, std::io::Error>>,
) {
    let buffer = Parts::default();
    let mut zip = ZipWriter::new_stream(buffer.clone());
    let options = SimpleFileOptions::default().compression_method(CompressionMethod::Stored);
    for entry in entries {
        let image = match zips.proxy.state.kept.read(&entry.url).await {
            Some(kept) => Ok(kept),
            None => zips.fetcher.fetch(&entry.url).await.and_then(without_metadata),
        };
        let written = match image {
            Ok(image) => zip
                .start_file(entry.name.as_str(), options)
                .map_err(std::io::Error::other)
                .and_then(|()| zip.write_all(&image)),
            Err(error) => Err(std::io::Error::other(error.to_string())),
        };
        if let Err(error) = written {
            tracing::warn!(%error, "a results ZIP broke off");
            let _ = parts.send(Err(error)).await;
            return;
        }
        if parts.send(Ok(buffer.take())).await.is_err() {
            return; // the client went away
        }
    }
    if let Some(document) = document {
        let written = zip
            .start_file(document.name.as_str(), options)
            .map_err(std::io::Error::other)
            .and_then(|()| zip.write_all(&document.bytes));
        if let Err(error) = written {
            let _ = parts.send(Err(error)).await;
            return;
        }
    }
    let finished = zip.finish().map(|_| buffer.take()).map_err(std::io::Error::other);
    let _ = parts.send(finished).await;
}

/// An image fetched from the service (not kept here) with only what draws it: the service may have copied the
/// photo's own metadata into its result. Another kind of file is not put in a ZIP: what it holds could not be
/// cleared.
fn without_metadata(image: Bytes) -> Result<Bytes, ServerError> {
    let refused = |why: String| ServerError::BadGateway(format!("A result is left out: {why}; try again later."));
    let format = crate::results::provenance::clearable(&image).map_err(refused)?;
    crate::storage::metadata::strip(image, format).map_err(ServerError::BadGateway)
}

/// Through the whole app, in-process, and its parts alone.
#[cfg(test)]
mod tests;
