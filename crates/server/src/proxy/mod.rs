//! The `/api` proxy: an explicit allow-list of the contract's endpoints (`routes`), each call read into the
//! contract's types (`call`), checked (ownership, our webhook receiver, private addresses) and sent as this
//! server's own serialisation with the key added; the service's answer examined before anything of it is relayed
//! (`answer`). With widget tokens, each subject reaches only the renders it created.

pub mod answer;
pub(crate) mod answer_json;
pub mod call;
mod inline_photos;
pub mod listing;
pub mod reading;
mod reference;
pub mod routes;
pub mod typed;
mod unchanged;
mod unlisted;

/// Through the whole app, in-process.
#[cfg(test)]
mod tests;

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE};
use axum::http::{HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use vstage_api::Config;
use vstage_api::host_reference::HostReference;
use vstage_api::usage::Cost;

use crate::access::{Gate, Subject};
use crate::addresses;
use crate::allowance::Allowances;
use crate::error::ServerError;
use crate::host_webhooks::HostWebhooks;
use crate::live::events::Events;
use crate::live::webhooks::{WebhookSecret, resource_key};
use crate::metrics::metrics;
use crate::proxy::answer::JsonCheck;
use crate::proxy::call::{Call, Incoming, Operation, Outbound};
use crate::results::kept::KeptResults;
use crate::storage::ownership::{Creation, Kind, Ownership};
use crate::storage::store::RenderPhoto;
use crate::upstream::Upstream;
use crate::upstream::http_client::{Answer, CallFailure, HttpClient, Outgoing};

pub use routes::Routes;

/// A whole call may take a while, a waiting one longer (connecting is limited in `http_client`).
const GET_TIMEOUT: Duration = Duration::from_secs(30);
/// Long enough for `wait_for_completion` on the regular address (the service answers within 60 s).
const POST_TIMEOUT: Duration = Duration::from_secs(90);
/// Waiting calls sent to `--direct-sync-url`, which has no 60 s limit.
const DIRECT_SYNC_TIMEOUT: Duration = Duration::from_secs(600);

/// What every worker's proxy shares, built once by `vstage serve`.
#[derive(Debug)]
pub struct ProxyState {
    pub upstream: Arc<Upstream>,
    /// Who may call (open or tokens), and how often.
    pub gate: Arc<Gate>,
    pub ownership: Ownership,
    pub events: Arc<Events>,
    pub webhook_secret: Arc<WebhookSecret>,
    /// Our receiver's address, put in creations that name none; `None` when the service could not reach it.
    pub webhook_url: Option<String>,
    /// This server's public address: its uploads and sandbox images are fine to hand the service.
    pub public_url: String,
    /// How long a request's whole body may take to arrive (`--body-timeout-s`).
    pub body_timeout: Option<Duration>,
    /// How long a photo's may, in v1's form (`--upload-timeout-s`, as an upload's).
    pub upload_timeout: Option<Duration>,
    /// Finished results copied into this server's storage; their addresses replace the service's in answers.
    pub kept: Arc<KeptResults>,
    /// Each subject's photos per month: a creation is charged before it is sent.
    pub allowances: Arc<Allowances>,
    /// The listing site's backend, told of what the studio does; `None` without `--host-webhook-url`.
    pub host_webhooks: Option<Arc<HostWebhooks>>,
}

/// One worker's proxy: the shared state, and this worker's connections to the service.
#[derive(Debug)]
pub struct Proxy {
    pub state: Arc<ProxyState>,
    pub http: HttpClient,
}

/// How one call is sent: to `--direct-sync-url` when it waits for completion, who checks that its answer is JSON,
/// and the endpoint's template, which the metrics name it by.
struct Sending {
    waits: bool,
    json: JsonCheck,
    endpoint: &'static str,
}

/// What a creation makes, remembered with it before it is sent: its kind, the photo of its one render, and the
/// host's references every render it makes shares, or whether its renders have references of their own.
struct Makes<'a> {
    kind: Kind,
    photo: Option<&'a str>,
    reference: Option<&'a HostReference>,
    references_differ: bool,
}

/// The id the service gave what a call created (a render, an analysis; `render_id` in v1).
#[derive(Deserialize)]
struct Created {
    #[serde(alias = "render_id")]
    id: String,
}

/// The renders a bulk creation created.
#[derive(Deserialize)]
struct CreatedInBulk {
    renders: Vec<Created>,
}

impl Proxy {
    /// One call of `operation` to the service's `path` (its parameters checked and encoded), for `subject`.
    async fn handle(
        &self,
        operation: Operation,
        path: &str,
        subject: &Subject,
        incoming: Incoming<'_>,
    ) -> Result<Response, ServerError> {
        let sent_reference = reference::sent(incoming.headers)?;
        let asked = incoming.query;
        let mut call = Call::read(operation, incoming).await?;
        let references = reference::of_call(&call, sent_reference.as_deref())?;
        if subject.by_token() {
            self.refuse_private_addresses(&call)?;
            Box::pin(self.require_own(&call, subject)).await?;
        }
        // A listing's renders are the server's to page: the service knows nothing of listings.
        if let Call::ListRenders(query) = &call {
            let listing = reference::listing_asked(asked)?;
            if subject.by_token() || listing.is_some() {
                return Box::pin(listing::page(self, (Kind::Render, listing.as_deref()), subject, query)).await;
            }
        }
        // A token's holder sees its own allowance and use, never the account's figures nor who owns it.
        if matches!(call, Call::User | Call::V1Ping) && subject.by_token() {
            let own = self.state.allowances.as_user(subject).await?;
            return Ok(match call {
                Call::V1Ping => axum::Json(v1_ping_of(&own)).into_response(),
                _ => axum::Json(own).into_response(),
            });
        }
        // Charged before anything is sent; a refusal is the answer.
        let (cost, added) = call.cost();
        let reservation = self.state.allowances.reserve(subject, cost, added, call.what()).await?;
        let shared = reference::shared(&references);
        let references_differ = shared.is_none() && references.iter().any(|one| !one.is_empty());
        match &mut call {
            Call::CreateRender(body) => {
                let (named, photo) = (body.webhook_url.take(), Some(body.image_url.as_str()));
                let made = Makes { kind: Kind::Render, photo, reference: shared, references_differ };
                body.webhook_url = self.webhook_url_for(named, made, subject).await?;
            }
            Call::CreateRenders(body) => {
                let made = Makes { kind: Kind::Render, photo: None, reference: shared, references_differ };
                body.webhook_url = self.webhook_url_for(body.webhook_url.take(), made, subject).await?;
            }
            Call::Analyze(body) => {
                let made = Makes { kind: Kind::Analysis, photo: None, reference: None, references_differ: false };
                body.webhook_url = self.webhook_url_for(body.webhook_url.take(), made, subject).await?;
            }
            _ => {}
        }
        // Every successful answer relayed here is read once by `typed`, which is its JSON check.
        let (method, outbound) = (call.method(), call.outbound()?);
        let sending =
            Sending { waits: call.waits(), json: JsonCheck::ByItsReader, endpoint: routes::template(operation) };
        let sent = self.send(method, path, outbound, sending).await;
        let mut answer = self.settle(reservation.as_deref(), &call, sent).await?;
        if !answer.status.is_success() {
            if subject.by_token() {
                answer = answer::to_a_token_holder(answer);
            }
            return Ok(answer::relay(answer));
        }
        // A render read is relayed from the one reading that also tells whether the service failed it.
        let body = std::mem::take(&mut answer.body);
        let (relayed, read_render) = match &call {
            Call::GetRender { render_id, query } if !body.is_empty() => {
                let (relayed, render) = typed::render_relayed(&body, render_id)?;
                (relayed, Some((render, query.variations_cursor.is_none())))
            }
            _ => (typed::rewritten(operation, &call, &body)?, None),
        };
        drop(body);
        if operation.must_finish() {
            Box::pin(self.after_success(&call, &relayed.body, subject, &references)).await?;
        }
        if let Some((render, from_start)) = read_render {
            self.state.allowances.refund_if_failed(&render, from_start).await;
        }
        // What was read about renders shows their kept copies (and has the finished ones copied).
        answer.body = match call {
            Call::ListRenders(_) | Call::GetRender { .. } | Call::ListVariations { .. } | Call::GetVariation { .. } => {
                match relayed.with_finished {
                    Some(read) => self.state.kept.in_written(read, relayed.body, subject.as_str()).await,
                    None => relayed.body,
                }
            }
            _ => relayed.body,
        };
        Ok(answer::relay(answer))
    }

    /// Sends one call to the service's `path` (or to `--direct-sync-url` when it waits for completion), and
    /// examines the answer.
    async fn send(
        &self,
        method: Method,
        path: &str,
        outbound: Outbound,
        Sending { waits, json, endpoint }: Sending,
    ) -> Result<Answer, ServerError> {
        let (base, timeout) = match self.state.upstream.direct_sync().filter(|_| waits) {
            Some(base) => (base, DIRECT_SYNC_TIMEOUT),
            None => (self.state.upstream.base(), if method == Method::GET { GET_TIMEOUT } else { POST_TIMEOUT }),
        };
        let query = Some(outbound.query.as_str()).filter(|query| !query.is_empty());
        // The path is the allow-list's and the query this server's encoding: both are always sendable.
        let target = base
            .target(path, query)
            .map_err(|e| ServerError::Internal(format!("an upstream address could not be made: {e}")))?;
        let mut request = Outgoing { body: outbound.body, ..Outgoing::new(method, target) };
        let authorization = self.state.upstream.key().authorization();
        request.headers.insert(AUTHORIZATION, authorization.clone());
        if let Some(content_type) = outbound.content_type.clone() {
            request.headers.insert(CONTENT_TYPE, content_type);
        }
        let started = std::time::Instant::now();
        let answer = self.http.call(base.origin(), request, &answer::READ_HEADERS, timeout).await;
        let status = match &answer {
            Ok(answer) => Ok(answer.status.as_u16()),
            Err(CallFailure::TimedOut) => Err("timed_out"),
            Err(CallFailure::Unreachable(_)) => Err("unreachable"),
        };
        metrics().upstream_call(endpoint, status, started.elapsed());
        let answer = answer.map_err(|failure| upstream_failure(path, failure))?;
        let content_type = outbound.content_type.as_ref().map(HeaderValue::as_bytes).unwrap_or_default();
        let sent = [self.state.upstream.key().expose().as_bytes(), authorization.as_bytes(), content_type];
        answer::examined(answer, path, &sent, json)
    }

    /// A GET of the service, for the server's own use (the subject's render list, a render's results).
    pub async fn get(&self, path: &str, query: &str) -> Result<Answer, ServerError> {
        let outbound = Outbound { query: query.to_string(), body: Bytes::new(), content_type: None };
        let sending =
            Sending { waits: false, json: JsonCheck::Here, endpoint: routes::template_of(&Method::GET, path) };
        self.send(Method::GET, path, outbound, sending).await
    }

    /// The `webhook_url` a creation goes with: the one the operator's caller named, else our receiver. A widget
    /// token's holder never chooses where deliveries signed with the account's secret go: its address is replaced
    /// by ours, or removed when the service cannot reach us. Our address names the creation, remembered with its
    /// subject before it is sent: the service's deliveries then tell any server whose it is, even when this one
    /// stops before recording the answer (and the photo of a render, when the call makes one, and the host's
    /// references when they are the same for every render it makes).
    async fn webhook_url_for(
        &self,
        named: Option<String>,
        made: Makes<'_>,
        subject: &Subject,
    ) -> Result<Option<String>, ServerError> {
        match &self.state.webhook_url {
            _ if named.is_some() && !subject.by_token() => Ok(named),
            Some(ours) => {
                let creation = crate::secret::random("crt_")
                    .map_err(|e| ServerError::Internal(format!("no randomness for a creation: {e}")))?;
                let Makes { kind, photo, reference, references_differ } = made;
                let subject = subject.as_str();
                let started = Creation { token: &creation, kind, subject, photo, reference, references_differ };
                self.state.ownership.started(&started).await?;
                Ok(Some(format!("{ours}?creation={creation}")))
            }
            None => Ok(None),
        }
    }

    /// A widget token's holder may not have the service fetch from this machine or a private network (nor send
    /// webhooks there): every address in the call must be a public one, or this server's own.
    fn refuse_private_addresses(&self, call: &Call) -> Result<(), ServerError> {
        match call.addresses().into_iter().find(|(_, url)| addresses::is_private(url, &self.state.public_url)) {
            Some((name, url)) => Err(ServerError::BadRequest(format!(
                "{name} {url} is on this machine or a private network, which the service may not be sent to; give \
                 a public address (or upload the photo)."
            ))),
            None => Ok(()),
        }
    }

    /// A widget token's holder acts only on what it created: the renders a call names, and the variations it
    /// builds on, which must be of the render named beside them. The operator's own calls (open access) are
    /// the service's to judge.
    async fn require_own(&self, call: &Call, subject: &Subject) -> Result<(), ServerError> {
        match call {
            Call::SetWebhookSecret(_) | Call::DeleteWebhookSecret => Err(ServerError::Forbidden(
                "The webhook secret is managed by the server's operator, not from the widget.".into(),
            )),
            Call::GetRender { render_id, .. } | Call::GetVariation { render_id, .. } => {
                self.require_owner(Kind::Render, vec![render_id.clone()], subject).await
            }
            // the service lists a v1 render's variations by the same id
            Call::ListVariations { render_id, .. } => {
                let ids = vec![render_id.clone()];
                match self.require_owner(Kind::Render, ids.clone(), subject).await {
                    Err(ServerError::NotFound(_)) => self.require_owner(Kind::V1Render, ids, subject).await,
                    owned => owned,
                }
            }
            Call::AddVariations { render_id, body } => {
                self.require_owner(Kind::Render, vec![render_id.clone()], subject).await?;
                self.require_bases(subject, [(render_id.as_str(), &body.config)]).await
            }
            Call::AddVariationsInBulk(body) => {
                let ids = body.renders.iter().map(|entry| entry.render_id.clone()).collect();
                self.require_owner(Kind::Render, ids, subject).await?;
                let entries = body.renders.iter().map(|entry| (entry.render_id.as_str(), &entry.config));
                self.require_bases(subject, entries).await
            }
            Call::V1Render { render_id } | Call::V1CreateVariation { render_id, .. } => {
                self.require_owner(Kind::V1Render, vec![render_id.clone()], subject).await
            }
            _ => Ok(()),
        }
    }

    /// Refuses, as if it did not exist, what `subject` did not create.
    pub(crate) async fn require_owner(
        &self,
        kind: Kind,
        ids: Vec<String>,
        subject: &Subject,
    ) -> Result<(), ServerError> {
        if !ids.is_empty() && self.state.ownership.owns_all(kind, ids.clone(), subject.as_str()).await? {
            return Ok(());
        }
        // Someone else's render looks exactly like a render that does not exist.
        Err(ServerError::NotFound(format!("No render {}; check the address.", ids.first().map_or("", |id| id))))
    }

    /// Each config's `base_variation_id`, when it names one, is a variation of the render beside it, as the
    /// service reads it: each pair looked up once, and counted against the subject's calls before.
    async fn require_bases<'a>(
        &self,
        subject: &Subject,
        entries: impl IntoIterator<Item = (&'a str, &'a Config)>,
    ) -> Result<(), ServerError> {
        let pairs: std::collections::BTreeSet<(&str, &str)> = entries
            .into_iter()
            .filter_map(|(render_id, config)| Some((render_id, config.base_variation_id()?)))
            .collect();
        subject.spend_calls(pairs.len() as u32).await?;
        for (render_id, base) in pairs {
            self.require_base_of(render_id, base).await?;
        }
        Ok(())
    }

    /// `base` is a variation of `render_id`, as the service reads it.
    async fn require_base_of(&self, render_id: &str, base: &str) -> Result<(), ServerError> {
        let path =
            format!("/v2/renders/{}/variations/{}", routes::encoded_segment(render_id), routes::encoded_segment(base));
        let answer = self.get(&path, "").await?;
        let found = answer.status.is_success() && typed::variation_of(&answer.body, render_id, base).is_ok();
        if !found {
            return Err(ServerError::BadRequest(format!(
                "base_variation_id {base} is not a variation of render {render_id}; choose one of its own."
            )));
        }
        Ok(())
    }

    /// Settles a charged call's `reservation` by what the service did: an answer that refuses gives the photos
    /// back; a success names the renders made; no answer at all keeps the charge, as the service may have made
    /// them, and so does an answer that says only that an answer did not come in time or whole (a gateway's 502
    /// or 504, a 408): the call may have reached the service and the work go on.
    async fn settle(
        &self,
        reservation: Option<&str>,
        call: &Call,
        sent: Result<Answer, ServerError>,
    ) -> Result<Answer, ServerError> {
        let Some(reservation) = reservation else { return sent };
        let allowances = &self.state.allowances;
        match &sent {
            Ok(answer) if answer.status.is_success() => match added(call, &answer.body) {
                Some(made) => allowances.added(reservation, &made).await,
                None => {
                    let made = created(call, &answer.body).map(|(_, ids)| ids).unwrap_or_default();
                    allowances.settle(reservation, &each_made(made, call.cost_of_each())).await;
                }
            },
            Ok(answer) if may_have_been_made(answer.status) => {
                tracing::warn!(
                    reservation,
                    status = answer.status.as_u16(),
                    "a charged creation timed out on the way; the charge stands"
                );
            }
            Ok(answer) => {
                let why = format!("refunded: the service refused it (HTTP {})", answer.status.as_u16());
                allowances.refund(reservation, &why).await;
            }
            Err(error) => tracing::warn!(reservation, %error, "no answer to a charged creation; the charge stands"),
        }
        sent
    }

    /// Records what a successful call created, and follows the webhook secret.
    async fn after_success(
        &self,
        call: &Call,
        body: &[u8],
        subject: &Subject,
        references: &[HostReference],
    ) -> Result<(), ServerError> {
        let (kind, ids) = match call {
            Call::SetWebhookSecret(body) => return self.adopt_secret(Some(body.webhook_secret.clone())).await,
            Call::DeleteWebhookSecret => return self.adopt_secret(None).await,
            _ => match created(call, body) {
                Some((kind, ids)) if !ids.is_empty() => (kind, ids),
                _ => {
                    tracing::warn!(operation = call.what(), "a successful creation named no id; it has no owner");
                    return Ok(());
                }
            },
        };
        let reported = match (&self.state.host_webhooks, kind) {
            (Some(hooks), Kind::Render) => {
                hooks.renders_created(subject.as_str(), &ids, vstage_api::time::now_millis())
            }
            _ => Vec::new(),
        };
        // The photos first: a result kept as soon as its owner is known names the photo it was made from.
        let photos = photos_of(call);
        if photos.len() == ids.len() {
            let photos: Vec<RenderPhoto> = ids
                .iter()
                .zip(photos)
                .flat_map(|(render_id, views)| {
                    let numbered = views.into_iter().enumerate();
                    numbered.map(|(view, address)| RenderPhoto {
                        render_id: render_id.clone(),
                        view: view as u32,
                        address,
                    })
                })
                .collect();
            self.state.ownership.record_photos(&photos).await?;
        }
        // The references before the owners too: the events recorded with them carry the render's references.
        if references.len() == ids.len() && references.iter().any(|one| !one.is_empty()) {
            let references: Vec<(String, HostReference)> = ids.iter().cloned().zip(references.to_vec()).collect();
            self.state.ownership.record_references(&references).await?;
        }
        self.state.ownership.record(kind, ids.clone(), subject.as_str(), &reported).await?;
        if let Some(hooks) = self.state.host_webhooks.as_ref().filter(|_| !reported.is_empty()) {
            hooks.wake();
        }
        let resources = ids.iter().map(|id| resource_key(kind, id)).collect();
        self.state.events.claim(resources, subject.as_str()).await
    }

    /// The service has the new secret (or none) whatever happens here: a failure to keep it is the operator's to
    /// see in the log, not the caller's.
    async fn adopt_secret(&self, adopted: Option<String>) -> Result<(), ServerError> {
        let secret = self.state.webhook_secret.clone();
        match tokio::task::spawn_blocking(move || secret.replace(adopted)).await {
            Ok(Ok(())) => {}
            Ok(Err(error)) => tracing::error!("could not keep the new webhook secret in the data dir: {error:#}"),
            Err(error) => tracing::error!(%error, "keeping the new webhook secret stopped"),
        }
        Ok(())
    }
}

/// Whether an answer of `status` leaves open that the service took the call: it says only that an answer did not
/// come in time (504, 408) or came broken through a gateway (502).
fn may_have_been_made(status: StatusCode) -> bool {
    matches!(status, StatusCode::BAD_GATEWAY | StatusCode::GATEWAY_TIMEOUT | StatusCode::REQUEST_TIMEOUT)
}

/// The kind and ids of what a creation `call` made, read from the service's answer `body`; `None` for a call that
/// creates nothing, or an answer that names nothing.
fn created(call: &Call, body: &[u8]) -> Option<(Kind, Vec<String>)> {
    let one = |kind| serde_json::from_slice::<Created>(body).ok().map(|created| (kind, vec![created.id]));
    match call {
        Call::CreateRender(_) => one(Kind::Render),
        Call::CreateRenders(_) => {
            let bulk = serde_json::from_slice::<CreatedInBulk>(body).ok()?;
            Some((Kind::Render, bulk.renders.into_iter().map(|created| created.id).collect()))
        }
        Call::Analyze(_) => one(Kind::Analysis),
        Call::V1Create { .. } => one(Kind::V1Render),
        _ => None,
    }
}

/// A variation the service made, by its render.
#[derive(Deserialize)]
struct Made {
    id: String,
    render_id: String,
}

/// The variations v2's additions made, `(render id, variation id)`, from the service's answer `body`; `None` for
/// other calls (v1's `create-variation` names none: its additions stay unseen, and keep the render's charge).
fn added(call: &Call, body: &[u8]) -> Option<Vec<(String, String)>> {
    #[derive(Deserialize)]
    struct One {
        variations: Vec<Made>,
    }
    #[derive(Deserialize)]
    struct Bulk {
        results: Vec<Made>,
    }
    let made = match call {
        Call::AddVariations { .. } => serde_json::from_slice::<One>(body).map(|one| one.variations).unwrap_or_default(),
        Call::AddVariationsInBulk(_) => {
            serde_json::from_slice::<Bulk>(body).map(|bulk| bulk.results).unwrap_or_default()
        }
        _ => return None,
    };
    Some(made.into_iter().map(|made| (made.render_id, made.id)).collect())
}

/// Each render a creation made with what it cost; when the service names more or fewer renders than were asked
/// for, the first carries the whole charge (the charge stands either way).
fn each_made(made: Vec<String>, costs: Vec<Cost>) -> Vec<(String, Cost)> {
    if made.len() == costs.len() {
        return made.into_iter().zip(costs).collect();
    }
    let whole = costs.into_iter().fold(Cost::NONE, Cost::plus);
    made.into_iter().enumerate().map(|(index, id)| (id, if index == 0 { whole } else { Cost::NONE })).collect()
}

/// The photos of each render a creation makes (a multi-view render's views in order), in the order the service
/// names the renders (none for other calls).
fn photos_of(call: &Call) -> Vec<Vec<String>> {
    match call {
        Call::CreateRender(body) if body.image_urls.len() > 1 => vec![body.image_urls.clone()],
        Call::CreateRender(body) => vec![vec![body.image_url.clone()]],
        Call::CreateRenders(body) => body.renders.iter().map(|render| vec![render.image_url.clone()]).collect(),
        _ => Vec::new(),
    }
}

/// `/v1/ping` as a widget token's holder sees it: its own staging allowance and use (v1 counts staging only), a
/// plain number as v1 writes it; with no allowance of its own, `u32::MAX` stands for "no limit".
fn v1_ping_of(own: &vstage_api::User) -> vstage_api::v1::Ping {
    let (used, limit) = own.staging_usage();
    let limit = limit.remaining(0).unwrap_or(u64::from(u32::MAX));
    vstage_api::v1::Ping { user: None, photo_limit: limit as f64, photos_used_this_period: used as f64 }
}

fn upstream_failure(path: &str, failure: CallFailure) -> ServerError {
    // The failure carries neither the request nor its headers.
    tracing::warn!(path, error = %failure, "upstream call failed");
    if matches!(failure, CallFailure::TimedOut) {
        ServerError::GatewayTimeout("The staging service did not answer in time. Try again in a moment.".into())
    } else {
        ServerError::BadGateway("The staging service could not be reached. Try again in a moment.".into())
    }
}
