//! A caller's call read into the contract's types before anything is sent: the path's parameters, the query and
//! the body (JSON, or v1's form with its photo), each endpoint's own, under a cap that fits it. What the types do
//! not hold is dropped, what cannot be read into them is refused with 400, and the service is sent this server's
//! own serialisation of what was read: never the caller's bytes.

use std::collections::BTreeMap;

use axum::body::Bytes;
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, HeaderValue, Method};
use serde::Serialize;
use serde::de::DeserializeOwned;
use vstage_api::multi_view::CheckViews;
use vstage_api::usage::{self, Cost, UsageKind};
use vstage_api::{
    AddVariations, Analyze, BulkAddVariations, BulkCreateRenders, Config, CreateRender, GetRender, ListRenders,
    ListVariations, PhotoFile, RenderConfigs, SetWebhookSecret, ValidationError, v1,
};

use crate::error::ServerError;
use crate::storage::store::AddedTo;

/// A JSON body of a few fields.
const SMALL_JSON: usize = 16 * 1024;
/// One render's request: its configs and addresses (a photo goes by address, uploaded first, or inline when small).
const RENDER_JSON: usize = 64 * 1024;
/// A bulk request: up to 25 renders' worth.
const BULK_JSON: usize = 512 * 1024;
/// v1's form with the photo as its `file`.
pub const PHOTO_FORM: usize = 26 * 1024 * 1024;

/// Every endpoint of service-api.md, by what it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    Status,
    User,
    SetWebhookSecret,
    DeleteWebhookSecret,
    ListRenders,
    CreateRender,
    CreateRenders,
    AddVariationsInBulk,
    GetRender,
    AddVariations,
    ListVariations,
    GetVariation,
    Analyze,
    CheckViews,
    V1Ping,
    V1Options,
    V1Create,
    V1Render,
    V1CreateVariation,
}

impl Operation {
    /// The largest body the endpoint takes with these headers: JSON fits its request; only v1's create takes a
    /// form with a photo.
    pub fn body_limit(self, headers: &HeaderMap) -> usize {
        match self {
            _ if self.is_upload(headers) => PHOTO_FORM,
            Operation::CreateRender | Operation::AddVariations | Operation::V1Create => RENDER_JSON,
            Operation::CreateRenders | Operation::AddVariationsInBulk => BULK_JSON,
            Operation::SetWebhookSecret | Operation::Analyze | Operation::CheckViews | Operation::V1CreateVariation => {
                SMALL_JSON
            }
            _ => 0,
        }
    }

    /// Whether the call carries a photo, as an upload does (v1's form): its body has an upload's time.
    pub fn is_upload(self, headers: &HeaderMap) -> bool {
        self == Operation::V1Create && is_form(headers)
    }

    /// Whether a call runs to its end, record included, even when its browser goes away: a creation the service
    /// has charged for, or a secret the service now signs with.
    pub fn must_finish(self) -> bool {
        matches!(
            self,
            Operation::CreateRender
                | Operation::CreateRenders
                | Operation::Analyze
                | Operation::V1Create
                | Operation::SetWebhookSecret
                | Operation::DeleteWebhookSecret
        )
    }
}

/// One call of the contract as the proxy read it.
#[derive(Debug)]
pub enum Call {
    Status,
    User,
    SetWebhookSecret(SetWebhookSecret),
    DeleteWebhookSecret,
    ListRenders(ListRenders),
    CreateRender(CreateRender),
    CreateRenders(BulkCreateRenders),
    AddVariationsInBulk(BulkAddVariations),
    GetRender {
        render_id: String,
        query: GetRender,
    },
    AddVariations {
        render_id: String,
        body: AddVariations,
    },
    /// A render's variations as a page (beyond the contract; a v1 render's id is taken too).
    ListVariations {
        render_id: String,
        query: ListVariations,
    },
    GetVariation {
        render_id: String,
        variation_id: String,
    },
    Analyze(Analyze),
    CheckViews(CheckViews),
    V1Ping,
    V1Options,
    /// The arguments, and the photo when it came as the form's `file` (its metadata already taken out).
    V1Create {
        arguments: v1::CreateRender,
        file: Option<PhotoFile>,
    },
    V1Render {
        render_id: String,
    },
    V1CreateVariation {
        render_id: String,
        body: v1::CreateVariation,
    },
}

/// What the browser sent, as it came: the path's parameters (decoded), the raw query, the headers and the body.
pub struct Incoming<'a> {
    pub params: &'a [(&'static str, String)],
    pub query: &'a str,
    pub headers: &'a HeaderMap,
    pub body: Bytes,
}

/// `render_id` in the query of v1's render and create-variation.
#[derive(Debug, serde::Deserialize)]
struct V1RenderQuery {
    render_id: String,
}

/// One call as it goes to the service: the path's encoded parameters are the endpoint's; this is the rest.
#[derive(Debug)]
pub struct Outbound {
    pub query: String,
    pub body: Bytes,
    pub content_type: Option<HeaderValue>,
}

impl Call {
    /// What it costs the account's photo allowance (`vstage_api::usage`): a creation's cost, and the variations it
    /// adds to renders, whose cost depends on what each render stands charged for (worked out as it is charged).
    pub fn cost(&self) -> (Cost, Vec<AddedTo>) {
        let added = |entries: Vec<(&String, &Config)>| {
            let mut by_render: BTreeMap<&String, Vec<&Config>> = BTreeMap::new();
            for (render_id, config) in entries {
                by_render.entry(render_id).or_default().push(config);
            }
            let each = by_render.into_iter().map(|(render_id, configs)| AddedTo {
                render_id: render_id.clone(),
                kinds: UsageKind::of_all(configs),
            });
            (Cost::NONE, each.collect())
        };
        match self {
            Call::CreateRender(body) => (usage::of_render(body), Vec::new()),
            Call::CreateRenders(body) => (usage::of_bulk_renders(body), Vec::new()),
            Call::V1Create { .. } => (usage::V1_RENDER, Vec::new()),
            Call::AddVariations { render_id, body } => added(vec![(render_id, &body.config)]),
            Call::AddVariationsInBulk(body) => {
                added(body.renders.iter().map(|entry| (&entry.render_id, &entry.config)).collect())
            }
            Call::V1CreateVariation { render_id, .. } => {
                (Cost::NONE, vec![AddedTo { render_id: render_id.clone(), kinds: vec![UsageKind::Staging] }])
            }
            _ => (Cost::NONE, Vec::new()),
        }
    }

    /// What each render a creation makes costs, in the order the service names them (none for other calls).
    pub fn cost_of_each(&self) -> Vec<Cost> {
        match self {
            Call::CreateRender(body) => vec![usage::of_render(body)],
            Call::CreateRenders(body) => usage::of_each_bulk_render(body),
            Call::V1Create { .. } => vec![usage::V1_RENDER],
            _ => Vec::new(),
        }
    }

    /// What it is, as the ledger and the log name it.
    pub fn what(&self) -> &'static str {
        match self {
            Call::CreateRender(_) => "render",
            Call::CreateRenders(_) => "bulk renders",
            Call::Analyze(_) => "analysis",
            Call::V1Create { .. } => "v1 render",
            Call::AddVariations { .. } | Call::AddVariationsInBulk(_) | Call::V1CreateVariation { .. } => "variations",
            _ => "call",
        }
    }

    /// Reads `incoming` as a call of `operation`, checked against the contract's rules (`vstage-api`'s `validate`).
    pub async fn read(operation: Operation, incoming: Incoming<'_>) -> Result<Call, ServerError> {
        let Incoming { params, query, headers, body } = incoming;
        let param = |name: &str| {
            params.iter().find(|(given, _)| *given == name).map(|(_, value)| value.clone()).unwrap_or_default()
        };
        let mut call = match operation {
            Operation::Status => Call::Status,
            Operation::User => Call::User,
            Operation::DeleteWebhookSecret => Call::DeleteWebhookSecret,
            Operation::V1Ping => Call::V1Ping,
            Operation::V1Options => Call::V1Options,
            Operation::SetWebhookSecret => {
                Call::SetWebhookSecret(valid(read_json(&body, "the new webhook secret")?, SetWebhookSecret::validate)?)
            }
            Operation::ListRenders => Call::ListRenders(valid(read_query(query)?, ListRenders::validate)?),
            Operation::CreateRender => {
                Call::CreateRender(valid(read_json(&body, "a render to create")?, CreateRender::validate)?)
            }
            Operation::CreateRenders => {
                Call::CreateRenders(valid(read_json(&body, "renders to create")?, BulkCreateRenders::validate)?)
            }
            Operation::AddVariationsInBulk => {
                Call::AddVariationsInBulk(valid(read_json(&body, "variations to add")?, BulkAddVariations::validate)?)
            }
            Operation::GetRender => Call::GetRender {
                render_id: param("render_id"),
                query: valid(read_query(query)?, GetRender::validate)?,
            },
            Operation::AddVariations => {
                let body = valid(read_json(&body, "variations to add")?, |body: &AddVariations| body.validate(None))?;
                Call::AddVariations { render_id: param("render_id"), body }
            }
            Operation::ListVariations => Call::ListVariations {
                render_id: param("render_id"),
                query: valid(read_query(query)?, ListVariations::validate)?,
            },
            Operation::GetVariation => {
                Call::GetVariation { render_id: param("render_id"), variation_id: param("variation_id") }
            }
            Operation::Analyze => Call::Analyze(valid(read_json(&body, "a photo to analyse")?, Analyze::validate)?),
            Operation::CheckViews => {
                Call::CheckViews(valid(read_json(&body, "photos to stage together")?, CheckViews::validate)?)
            }
            Operation::V1Create => {
                let (arguments, file) = match form_boundary(headers)? {
                    Some(boundary) => {
                        (read_query::<v1::CreateRender>(query)?, Some(photo_of_form(body, boundary).await?))
                    }
                    None => (read_json(&body, "a v1 render to create")?, None),
                };
                let has_file = file.is_some();
                Call::V1Create { arguments: valid(arguments, |arguments| arguments.validate(has_file))?, file }
            }
            Operation::V1Render => Call::V1Render { render_id: v1_render_id(query)? },
            Operation::V1CreateVariation => {
                let body = valid(read_json(&body, "a v1 variation")?, v1::CreateVariation::validate)?;
                Call::V1CreateVariation { render_id: v1_render_id(query)?, body }
            }
        };
        super::inline_photos::clear(&mut call).await?;
        Ok(call)
    }

    /// What goes to the service besides the endpoint's path: this server's query and body.
    pub fn outbound(&self) -> Result<Outbound, ServerError> {
        fn json(value: &impl Serialize) -> Result<(Bytes, Option<HeaderValue>), ServerError> {
            to_json(value).map(|body| (body, Some(HeaderValue::from_static("application/json"))))
        }
        let (query, (body, content_type)) = match self {
            Call::Status | Call::User | Call::DeleteWebhookSecret | Call::V1Ping | Call::V1Options => {
                (String::new(), (Bytes::new(), None))
            }
            Call::GetVariation { .. } => (String::new(), (Bytes::new(), None)),
            Call::SetWebhookSecret(body) => (String::new(), json(body)?),
            Call::ListRenders(query) => (without_mark(query.to_query()), (Bytes::new(), None)),
            Call::CreateRender(body) => (String::new(), json(body)?),
            Call::CreateRenders(body) => (String::new(), json(body)?),
            Call::AddVariationsInBulk(body) => (String::new(), json(body)?),
            Call::GetRender { query, .. } => (without_mark(query.to_query()), (Bytes::new(), None)),
            Call::ListVariations { query, .. } => (without_mark(query.page().to_query()), (Bytes::new(), None)),
            Call::AddVariations { body, .. } => (String::new(), json(body)?),
            Call::Analyze(body) => (String::new(), json(body)?),
            Call::CheckViews(body) => (String::new(), json(body)?),
            Call::V1Create { arguments, file: None } => (String::new(), json(arguments)?),
            Call::V1Create { arguments, file: Some(file) } => {
                let (form, content_type) = vstage_api::multipart::form("file", file, random_fraction);
                let content_type = HeaderValue::from_str(&content_type)
                    .map_err(|e| ServerError::Internal(format!("a form's content type: {e}")))?;
                (without_mark(arguments.query()), (Bytes::from(form), Some(content_type)))
            }
            Call::V1Render { render_id } => (v1_query(render_id), (Bytes::new(), None)),
            Call::V1CreateVariation { render_id, body } => (v1_query(render_id), json(body)?),
        };
        Ok(Outbound { query, body, content_type })
    }

    /// Every address the call would have the service fetch or call, with its field's name.
    pub fn addresses(&self) -> Vec<(String, &str)> {
        let mut found: Vec<(String, &str)> = Vec::new();
        fn mask<'a>(found: &mut Vec<(String, &'a str)>, prefix: &str, config: &'a Config) {
            let mask = match config {
                Config::Staging(staging) => staging.remove_furniture.as_ref().and_then(|r| r.mask_url.as_deref()),
                Config::RemovalOnly(removal) => removal.remove_furniture.mask_url.as_deref(),
                _ => None,
            };
            found.extend(mask.map(|url| (format!("{prefix}remove_furniture.mask_url"), url)));
        }
        fn views<'a>(found: &mut Vec<(String, &'a str)>, photos: &'a [String]) {
            found.extend(photos.iter().enumerate().map(|(index, url)| (format!("image_urls[{index}]"), url.as_str())));
        }
        match self {
            Call::CreateRender(body) => {
                match &body.configs {
                    RenderConfigs::Single { config, .. } => mask(&mut found, "config.", config),
                    RenderConfigs::Multi { configs } => {
                        for (index, entry) in configs.iter().enumerate() {
                            mask(&mut found, &format!("configs[{index}]."), &entry.config);
                        }
                    }
                }
                found.push(("image_url".into(), &body.image_url));
                views(&mut found, &body.image_urls);
                found.extend(body.webhook_url.as_deref().map(|url| ("webhook_url".to_string(), url)));
            }
            Call::CheckViews(body) => views(&mut found, &body.image_urls),
            Call::CreateRenders(body) => {
                for (index, render) in body.renders.iter().enumerate() {
                    mask(&mut found, &format!("renders[{index}].config."), &render.config);
                    found.push((format!("renders[{index}].image_url"), &render.image_url));
                }
                found.extend(body.webhook_url.as_deref().map(|url| ("webhook_url".to_string(), url)));
            }
            Call::AddVariationsInBulk(body) => {
                for (index, render) in body.renders.iter().enumerate() {
                    mask(&mut found, &format!("renders[{index}].config."), &render.config);
                }
            }
            Call::AddVariations { body, .. } => mask(&mut found, "config.", &body.config),
            Call::Analyze(body) => {
                found.push(("image_url".into(), &body.image_url));
                found.extend(body.webhook_url.as_deref().map(|url| ("webhook_url".to_string(), url)));
            }
            Call::V1Create { arguments, .. } => {
                found.extend(arguments.image_url.as_deref().map(|url| ("image_url".to_string(), url)));
                found
                    .extend(arguments.declutter_mask_url.as_deref().map(|url| ("declutter_mask_url".to_string(), url)));
            }
            _ => {}
        }
        found
    }

    /// Whether the caller asked to wait for the outcome (v2's `wait_for_completion`).
    pub fn waits(&self) -> bool {
        let flag = match self {
            Call::CreateRender(body) => body.wait_for_completion,
            Call::CreateRenders(body) => body.wait_for_completion,
            Call::AddVariationsInBulk(body) => body.wait_for_completion,
            Call::AddVariations { body, .. } => body.wait_for_completion,
            _ => None,
        };
        flag == Some(true)
    }
}

fn to_json(value: &impl Serialize) -> Result<Bytes, ServerError> {
    serde_json::to_vec(value)
        .map(Bytes::from)
        .map_err(|e| ServerError::Internal(format!("a request could not be written as JSON: {e}")))
}

/// `vstage-api`'s query strings start with `?` (or are empty).
fn without_mark(query: String) -> String {
    query.strip_prefix('?').map(str::to_string).unwrap_or(query)
}

fn v1_query(render_id: &str) -> String {
    url::form_urlencoded::Serializer::new(String::new()).append_pair("render_id", render_id).finish()
}

fn v1_render_id(query: &str) -> Result<String, ServerError> {
    let V1RenderQuery { render_id } = read_query(query)?;
    vstage_api::validate::id("render_id", &render_id).map_err(|e| ServerError::BadRequest(e.to_string()))?;
    Ok(render_id)
}

/// `value` once `validate` passes it: the contract's rules, each failure naming its field.
fn valid<T>(value: T, validate: impl Fn(&T) -> Result<(), ValidationError>) -> Result<T, ServerError> {
    validate(&value).map_err(|error| ServerError::BadRequest(error.to_string()))?;
    Ok(value)
}

/// A body of the endpoint's JSON type (within the endpoint's cap, which the body was collected under).
fn read_json<T: DeserializeOwned>(body: &[u8], what: &str) -> Result<T, ServerError> {
    serde_json::from_slice(body).map_err(|error| not_read(what, &error.to_string()))
}

/// The query as `T`; names `T` does not have are dropped, a name given twice is refused.
pub fn read_query<T: DeserializeOwned>(query: &str) -> Result<T, ServerError> {
    serde_urlencoded::from_str(query).map_err(|error| {
        let reason = error.to_string();
        let twice = reason.strip_prefix("duplicate field `").and_then(|rest| rest.strip_suffix('`'));
        ServerError::BadRequest(match twice {
            Some(name) => format!("The query gives {name} twice; give it once."),
            None => format!("The query could not be read ({}); fix it and send it again.", shown(&reason)),
        })
    })
}

fn not_read(what: &str, reason: &str) -> ServerError {
    ServerError::BadRequest(format!(
        "The body is not {what} this server can read ({}); send JSON in UTF-8 with the contract's fields.",
        shown(reason)
    ))
}

/// A parser's message, at most 200 characters (it may quote the caller's own text).
fn shown(reason: &str) -> String {
    let mut shown: String = reason.chars().take(200).collect();
    if shown.len() < reason.len() {
        shown.push('…');
    }
    shown
}

fn is_form(headers: &HeaderMap) -> bool {
    let content_type = headers.get(CONTENT_TYPE).map(HeaderValue::as_bytes).unwrap_or_default();
    content_type.len() >= 10 && content_type[..10].eq_ignore_ascii_case(b"multipart/")
}

/// The boundary of a `multipart/form-data` body; `None` for any other content type (read as JSON).
fn form_boundary(headers: &HeaderMap) -> Result<Option<String>, ServerError> {
    if !is_form(headers) {
        return Ok(None);
    }
    let content_type = headers.get(CONTENT_TYPE).and_then(|value| value.to_str().ok()).unwrap_or_default();
    multer::parse_boundary(content_type).map(Some).map_err(|_| {
        ServerError::BadRequest("The form's Content-Type has no boundary; send it as a browser does.".into())
    })
}

/// The form's one `file`, its metadata and its name taken out; the form's other fields are dropped (v1 takes its
/// arguments in the query).
async fn photo_of_form(body: Bytes, boundary: String) -> Result<PhotoFile, ServerError> {
    let constraints = multer::Constraints::new().size_limit(multer::SizeLimit::new().whole_stream(PHOTO_FORM as u64));
    let whole = futures_util::stream::once(async move { Ok::<Bytes, std::convert::Infallible>(body) });
    let mut form = multer::Multipart::with_constraints(whole, boundary, constraints);
    let mut photo: Option<Bytes> = None;
    while let Some(field) = form.next_field().await.map_err(form_error)? {
        if field.name() != Some("file") {
            continue;
        }
        if photo.is_some() {
            return Err(ServerError::BadRequest("The form has two files; send the photo once, as `file`.".into()));
        }
        photo = Some(field.bytes().await.map_err(form_error)?);
    }
    drop(form);
    let Some(bytes) = photo else {
        return Err(ServerError::BadRequest("The form has no `file`; send the photo as the form's file.".into()));
    };
    if bytes.len() > crate::storage::uploads::MAX_BYTES {
        return Err(crate::storage::uploads::too_large());
    }
    let (cleaned, format, _, _) = tokio::task::spawn_blocking(move || crate::storage::uploads::cleaned_photo(bytes))
        .await
        .map_err(|e| ServerError::Internal(format!("reading a photo stopped: {e}")))??;
    // The file's own name can say where or when the photo was taken (`12 Oak Lane.jpg`, `IMG_20240611_142311.jpg`):
    // the service is told only what kind of photo it is.
    let name = format!("photo.{}", format.extensions_str().first().unwrap_or(&"jpg"));
    Ok(PhotoFile { name, content_type: format.to_mime_type().to_string(), bytes: cleaned.to_vec() })
}

fn form_error(error: multer::Error) -> ServerError {
    ServerError::BadRequest(format!(
        "The form could not be read ({}); send it again as a browser does.",
        shown(&error.to_string())
    ))
}

/// A number from 0 to 1 for a form's boundary.
fn random_fraction() -> f64 {
    getrandom::u64().map_or(0.5, |bits| (bits >> 11) as f64 / (1u64 << 53) as f64)
}

impl Call {
    /// The method the call goes with.
    pub fn method(&self) -> Method {
        match self {
            Call::Status
            | Call::User
            | Call::ListRenders(_)
            | Call::GetRender { .. }
            | Call::ListVariations { .. }
            | Call::GetVariation { .. }
            | Call::V1Ping
            | Call::V1Options
            | Call::V1Render { .. } => Method::GET,
            Call::DeleteWebhookSecret => Method::DELETE,
            _ => Method::POST,
        }
    }
}

#[cfg(test)]
mod tests {
    use axum::http::header::CONTENT_TYPE;
    use axum::http::{HeaderMap, HeaderValue};

    use super::Operation;

    #[test]
    fn only_v1s_form_has_an_uploads_time_and_size() {
        let mut form = HeaderMap::new();
        form.insert(CONTENT_TYPE, HeaderValue::from_static("multipart/form-data; boundary=b"));
        let mut json = HeaderMap::new();
        json.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        assert!(Operation::V1Create.is_upload(&form));
        assert!(!Operation::V1Create.is_upload(&json));
        assert!(!Operation::CreateRender.is_upload(&form), "v2 takes photos by address");
        assert!(Operation::V1Create.body_limit(&form) > Operation::V1Create.body_limit(&json));
    }
}
