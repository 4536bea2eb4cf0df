//! Which endpoint of the contract a request is for: the allow-list, matched segment by segment before the app's
//! router sees the request (the hot path), then the caller admitted and the body collected under the endpoint's cap
//! before the proxy reads the call.

use std::borrow::Cow;
use std::sync::{Arc, LazyLock};

use axum::body::Bytes;
use axum::http::Method;
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, Limited};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC};

use crate::access::Admitted;
use crate::error::ServerError;
use crate::metrics::AnsweredBy;
use crate::proxy::Proxy;
use crate::proxy::call::{Incoming, Operation};

/// Every endpoint of service-api.md (and the one a real client calls beyond it): method, path (with `{param}`s)
/// and what it does; split into segments on first use.
static ENDPOINTS: LazyLock<Vec<Endpoint>> = LazyLock::new(|| {
    [
        (Method::GET, "/v2/status", Operation::Status),
        (Method::GET, "/v2/user", Operation::User),
        (Method::POST, "/v2/user/webhook-secret", Operation::SetWebhookSecret),
        (Method::DELETE, "/v2/user/webhook-secret", Operation::DeleteWebhookSecret),
        (Method::GET, "/v2/renders", Operation::ListRenders),
        (Method::POST, "/v2/renders", Operation::CreateRender),
        (Method::POST, "/v2/renders/bulk", Operation::CreateRenders),
        (Method::POST, "/v2/renders/variations/bulk", Operation::AddVariationsInBulk),
        (Method::GET, "/v2/renders/{render_id}", Operation::GetRender),
        (Method::POST, "/v2/renders/{render_id}/variations", Operation::AddVariations),
        // beyond the contract: a client in production lists a render's variations (api-notes.md)
        (Method::GET, "/v2/renders/{render_id}/variations", Operation::ListVariations),
        (Method::GET, "/v2/renders/{render_id}/variations/{variation_id}", Operation::GetVariation),
        (Method::POST, "/v2/analyze", Operation::Analyze),
        // the service's spelling
        (Method::POST, "/v2/multi-view-compatability", Operation::CheckViews),
        (Method::GET, "/v1/ping", Operation::V1Ping),
        (Method::GET, "/v1/options", Operation::V1Options),
        (Method::POST, "/v1/render/create", Operation::V1Create),
        (Method::GET, "/v1/render", Operation::V1Render),
        (Method::POST, "/v1/render/create-variation", Operation::V1CreateVariation),
    ]
    .iter()
    .map(Endpoint::new)
    .collect()
});

/// A path's parameters, in order: the template's name and the decoded value.
pub type Params = Vec<(&'static str, String)>;

/// The most segments and parameters a contract path has (`/v2/renders/{render_id}/variations/{variation_id}`).
const MAX_SEGMENTS: usize = 5;
const MAX_PARAMS: usize = 2;

/// What a parameter may hold unencoded in the upstream path: the URL's unreserved characters. Anything else is
/// percent-encoded, so a parameter is always exactly one segment.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');

/// `value` as one path segment of an upstream call.
pub fn encoded_segment(value: &str) -> percent_encoding::PercentEncode<'_> {
    percent_encoding::utf8_percent_encode(value, SEGMENT)
}

/// A forwarded call's answer, to come.
pub type Answering = futures_util::future::BoxFuture<'static, Result<Response, std::convert::Infallible>>;

/// The routes that forward to the service, matched on a request before the app's router sees it: they are the hot
/// path, and a walk over the endpoints' segments costs less than the general router (see `serving`).
#[derive(Debug, Clone)]
pub struct Routes {
    proxy: Arc<Proxy>,
}

impl Routes {
    pub fn new(proxy: Arc<Proxy>) -> Self {
        Routes { proxy }
    }

    /// The answer to `request` if its path is one of the contract's endpoints; otherwise the request, untouched
    /// (handed back whole, so the router can take it). The answer's future is boxed where it is made: the call's
    /// state is large, and each move of it by value is a copy (four were a seventh of a call's instructions).
    #[allow(clippy::result_large_err)]
    pub fn route<B>(&self, request: axum::http::Request<B>) -> Result<Answering, axum::http::Request<B>>
    where
        B: hyper::body::Body<Data = Bytes> + Send + 'static,
        B::Error: std::error::Error + Send + Sync + 'static,
    {
        let path = request.uri().path().strip_prefix("/api").and_then(split_path);
        let Some((segments, count)) = path else { return Err(request) };
        // The request's method first (a comparison of two small values), the path's shape only for those.
        let found = ENDPOINTS
            .iter()
            .filter(|endpoint| endpoint.method == request.method())
            .find_map(|endpoint| endpoint.params(&segments[..count]).map(|params| (endpoint, params)));
        // The methods of the endpoints with this path's shape, for a 405 when none is the request's.
        let other_methods: Vec<&'static str> = match found {
            Some(_) => Vec::new(),
            None => ENDPOINTS
                .iter()
                .filter(|endpoint| endpoint.params(&segments[..count]).is_some())
                .map(|endpoint| endpoint.method.as_str())
                .collect(),
        };
        let proxy = self.proxy.clone();
        if found.is_none() && other_methods.is_empty() {
            return Err(request);
        }
        Ok(Box::pin(async move {
            let Some((endpoint, params)) = found else {
                let (path, method) = (request.uri().path(), request.method());
                let allow = other_methods.join(", ");
                let message = format!("{path} does not take {method}, only {allow}; check the method.");
                return Ok(ServerError::MethodNotAllowed { message, allow }.into_response());
            };
            let mut response =
                forward(proxy, endpoint, params, request).await.unwrap_or_else(IntoResponse::into_response);
            response.extensions_mut().insert(AnsweredBy(Cow::Borrowed(endpoint.route.as_str())));
            Ok(response)
        }))
    }
}

/// The proxy's endpoints as a layer in front of a service (the app's router): a request for one of them is
/// forwarded, any other goes on to the service untouched.
impl<S> tower::Layer<S> for Routes {
    type Service = Forwarding<S>;

    fn layer(&self, inner: S) -> Forwarding<S> {
        Forwarding { routes: self.clone(), inner }
    }
}

/// [`Routes`] in front of `inner`.
#[derive(Debug, Clone)]
pub struct Forwarding<S> {
    routes: Routes,
    inner: S,
}

impl<S> tower::Service<axum::extract::Request> for Forwarding<S>
where
    S: tower::Service<axum::extract::Request, Response = Response, Error = std::convert::Infallible>,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = std::convert::Infallible;
    type Future = futures_util::future::Either<Answering, S::Future>;

    fn poll_ready(&mut self, cx: &mut std::task::Context<'_>) -> std::task::Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: axum::extract::Request) -> Self::Future {
        match self.routes.route(request) {
            Ok(forwarded) => futures_util::future::Either::Left(forwarded),
            Err(request) => futures_util::future::Either::Right(self.inner.call(request)),
        }
    }
}

/// The template of the contract's endpoint `path` is an address of (`/v2/renders/{render_id}` for
/// `/v2/renders/rnd_1`), or `other`.
pub fn template_of(method: &Method, path: &str) -> &'static str {
    let Some((segments, count)) = split_path(path) else { return "other" };
    ENDPOINTS
        .iter()
        .find(|endpoint| endpoint.method == method && endpoint.params(&segments[..count]).is_some())
        .map_or("other", |endpoint| endpoint.template)
}

/// The template of `operation`'s endpoint (each operation has one).
pub fn template(operation: Operation) -> &'static str {
    ENDPOINTS.iter().find(|endpoint| endpoint.operation == operation).map_or("other", |endpoint| endpoint.template)
}

/// Admits the caller, collects the body under the endpoint's cap and hands the call to the proxy.
async fn forward<B>(
    proxy: Arc<Proxy>,
    endpoint: &'static Endpoint,
    params: Result<Params, ServerError>,
    request: axum::http::Request<B>,
) -> Result<Response, ServerError>
where
    B: hyper::body::Body<Data = Bytes> + Send + 'static,
    B::Error: std::error::Error + Send + Sync + 'static,
{
    let (parts, body) = request.into_parts();
    // Who is calling is settled before a byte of the body is read.
    let Admitted { subject, slot } = proxy.state.gate.admit(&parts)?;
    let operation = endpoint.operation;
    let timeout =
        if operation.is_upload(&parts.headers) { proxy.state.upload_timeout } else { proxy.state.body_timeout };
    let body = collect(body, operation.body_limit(&parts.headers), timeout).await?;
    let params = params?;
    let handled = async move {
        let path = endpoint.upstream_path(&params)?;
        let query = parts.uri.query().unwrap_or_default();
        let incoming = Incoming { params: &params, query, headers: &parts.headers, body };
        let answer = proxy.handle(operation, &path, &subject, incoming).await;
        // In flight until it ends, with or without its browser.
        drop(slot);
        answer
    };
    if !operation.must_finish() {
        return handled.await;
    }
    // A creation or a secret change runs to its end on its own, record included, even when the browser goes
    // away mid-call: the service has charged for it, or now signs with the new secret.
    tokio::spawn(handled).await.unwrap_or_else(|e| Err(ServerError::Internal(format!("a forwarded call stopped: {e}"))))
}

/// The whole body, at most `limit` bytes (most calls are GETs, with nothing to collect).
async fn collect<B>(body: B, limit: usize, timeout: Option<std::time::Duration>) -> Result<Bytes, ServerError>
where
    B: hyper::body::Body<Data = Bytes>,
    B::Error: std::error::Error + Send + Sync + 'static,
{
    if body.is_end_stream() {
        return Ok(Bytes::new());
    }
    // A declared length over the limit is refused before a byte is read.
    if body.size_hint().lower() > limit as u64 {
        return Err(too_large(limit));
    }
    let collecting = Limited::new(body, limit).collect();
    let collected = match timeout {
        Some(limit) => tokio::time::timeout(limit, collecting).await.map_err(|_| {
            ServerError::BodyTimeout(format!(
                "The request body did not arrive within {} s; send it again.",
                limit.as_secs()
            ))
        })?,
        None => collecting.await,
    };
    collected.map(|collected| collected.to_bytes()).map_err(|_| too_large(limit))
}

fn too_large(limit: usize) -> ServerError {
    if limit == 0 {
        return ServerError::TooLarge("This call takes no request body; send none.".into());
    }
    ServerError::TooLarge(format!(
        "The request body is over {} KiB, more than this call needs; send less (a photo goes by address, uploaded \
         first).",
        limit / 1024
    ))
}

/// One endpoint of the allow-list, its path split into segments once.
#[derive(Debug)]
struct Endpoint {
    method: Method,
    /// `/v2/renders/{render_id}`: what metrics name the calls by.
    template: &'static str,
    /// The template under `/api`: what metrics name the requests by.
    route: String,
    segments: Vec<Segment>,
    operation: Operation,
}

#[derive(Debug)]
enum Segment {
    Literal(&'static str),
    /// `{name}`.
    Param(&'static str),
}

impl Endpoint {
    fn new(&(ref method, template, operation): &(Method, &'static str, Operation)) -> Self {
        let segments = template
            .split('/')
            .skip(1)
            .map(|segment| match segment.strip_prefix('{').and_then(|name| name.strip_suffix('}')) {
                Some(name) => Segment::Param(name),
                None => Segment::Literal(segment),
            })
            .collect();
        Endpoint { method: method.clone(), template, route: format!("/api{template}"), segments, operation }
    }

    /// The parameters of a path with these segments (see `split_path`), percent-decoded, if it has this
    /// endpoint's shape: whole segments, no empty parameter. Nothing is decoded unless the whole path matches.
    fn params(&self, path: &[&str]) -> Option<Result<Params, ServerError>> {
        if path.len() != self.segments.len() {
            return None;
        }
        let mut raw = [("", ""); MAX_PARAMS];
        let mut count = 0;
        for (segment, given) in self.segments.iter().zip(path) {
            match *segment {
                Segment::Literal(literal) if literal == *given => {}
                Segment::Param(name) if !given.is_empty() => {
                    *raw.get_mut(count)? = (name, *given);
                    count += 1;
                }
                _ => return None,
            }
        }
        Some(
            raw[..count]
                .iter()
                .map(|&(name, raw)| match percent_encoding::percent_decode_str(raw).decode_utf8() {
                    Ok(value) => Ok((name, value.into_owned())),
                    Err(_) => Err(ServerError::BadRequest(format!("{name}: not valid UTF-8 once decoded"))),
                })
                .collect(),
        )
    }

    /// The upstream path: these segments with each parameter (from `params`) checked and percent-encoded.
    fn upstream_path(&self, params: &Params) -> Result<String, ServerError> {
        let mut path = String::with_capacity(64);
        let mut values = params.iter();
        for segment in &self.segments {
            path.push('/');
            match *segment {
                Segment::Literal(literal) => path.push_str(literal),
                Segment::Param(name) => {
                    let Some((_, value)) = values.next().filter(|(given, _)| *given == name) else {
                        return Err(ServerError::Internal(format!("no {{{name}}} among the parameters")));
                    };
                    vstage_api::validate::id(name, value)
                        .map_err(|e| ServerError::BadRequest(format!("{name}: {e}")))?;
                    path.extend(encoded_segment(value));
                }
            }
        }
        Ok(path)
    }
}

/// The segments of `path` after its leading slash, when it has at most `MAX_SEGMENTS` of them. A byte scan:
/// paths are short, and `str::split` costs more to set up than it takes.
fn split_path(path: &str) -> Option<([&str; MAX_SEGMENTS], usize)> {
    let rest = path.strip_prefix('/')?;
    let mut segments = [""; MAX_SEGMENTS];
    let mut count = 0;
    let mut start = 0;
    let slashes = rest.bytes().enumerate().filter(|&(_, byte)| byte == b'/').map(|(at, _)| at);
    for end in slashes.chain([rest.len()]) {
        *segments.get_mut(count)? = &rest[start..end];
        count += 1;
        start = end + 1;
    }
    Some((segments, count))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn endpoint(template: &'static str) -> Endpoint {
        Endpoint::new(&(Method::GET, template, Operation::Status))
    }

    fn params(endpoint: &Endpoint, path: &str) -> Option<Result<Params, ServerError>> {
        split_path(path).and_then(|(segments, count)| endpoint.params(&segments[..count]))
    }

    #[test]
    fn each_operation_has_its_endpoints_template() {
        for endpoint in ENDPOINTS.iter() {
            assert_eq!(template(endpoint.operation), endpoint.template);
            assert_eq!(template_of(&endpoint.method, endpoint.template), endpoint.template);
        }
    }

    #[test]
    fn paths_match_templates_whole_segments_only() {
        let variation = endpoint("/v2/renders/{render_id}/variations/{variation_id}");
        let found = params(&variation, "/v2/renders/rnd_1/variations/var%5F2").and_then(Result::ok);
        assert_eq!(found, Some(vec![("render_id", "rnd_1".into()), ("variation_id", "var_2".into())]));
        assert!(params(&variation, "/v2/renders/rnd_1/variations").is_none());
        assert!(params(&variation, "/v2/renders/rnd_1/variations/var_2/more").is_none());
        assert!(params(&variation, "/v2/renders//variations/var_2").is_none());
        assert!(params(&variation, "/v2/renders/rnd_1/variation/var_2").is_none());
        assert!(matches!(params(&variation, "/v2/renders/%FF/variations/v"), Some(Err(ServerError::BadRequest(_)))));
        let status = endpoint("/v2/status");
        assert_eq!(params(&status, "/v2/status").and_then(Result::ok), Some(vec![]));
        assert!(params(&status, "/v2/status/").is_none());
        assert!(params(&status, "/v2/stat").is_none());
        assert!(params(&status, "v2/status").is_none());
        assert!(params(&status, "/a/b/c/d/e/f/v2/status").is_none());
    }

    #[test]
    fn upstream_paths_carry_checked_encoded_parameters() {
        let variation = endpoint("/v2/renders/{render_id}/variations/{variation_id}");
        let params = vec![("render_id", "rnd_1.a-b~c".to_string()), ("variation_id", "v 2?x=#y%z".to_string())];
        let path = variation.upstream_path(&params).unwrap();
        assert_eq!(path, "/v2/renders/rnd_1.a-b~c/variations/v%202%3Fx%3D%23y%25z");
        assert_eq!(endpoint("/v2/status").upstream_path(&Vec::new()).unwrap(), "/v2/status");
        let dots = vec![("render_id", "..".to_string())];
        assert!(matches!(endpoint("/v2/renders/{render_id}").upstream_path(&dots), Err(ServerError::BadRequest(_))));
    }

    use axum::body::Body;
    use axum::http::Method;
    use serde_json::{Value, json};

    use crate::testing::{TestApp, json};

    fn posting(server: &TestApp, path: &str, body: &Value) -> axum::http::Request<Body> {
        let request = server.request(Method::POST, path).header("content-type", "application/json");
        request.body(Body::from(body.to_string())).unwrap()
    }

    #[tokio::test]
    async fn status_and_user_are_forwarded_to_the_embedded_sandbox_with_its_key() {
        let server = TestApp::start(&[]).await;
        assert_eq!(server.get("/api/v2/status").await.status(), 200);
        // The browser sends no key; whatever Authorization it sends is replaced by the server's own.
        let user = server.request(Method::GET, "/api/v2/user").header("Authorization", "Api-Key not-the-key");
        let (status, body) = json(server.call(user.body(Body::empty()).unwrap()).await).await;
        assert_eq!(status, 200);
        assert_eq!(body["photoLimit"]["staging"], 100);
        assert_eq!(body["photosUsedThisPeriod"]["imageEditing"], 0);
        assert!(body["user"]["email"].is_string());
    }

    #[tokio::test]
    async fn unknown_api_paths_are_json_404s_not_the_page() {
        let server = TestApp::start(&[]).await;
        let (status, body) = json(server.get("/api/v2/not-an-endpoint").await).await;
        assert_eq!(status, 404);
        assert!(body["message"].as_str().unwrap().contains("No such API endpoint"));
    }

    #[tokio::test]
    async fn every_endpoint_is_forwarded_and_nothing_else() {
        let server = TestApp::start(&[]).await;
        let photo = format!("{}/api/v2/status", server.url); // any http address passes the contract's pattern
        let body = json!({"image_url": photo, "variation_count": 1, "config": {"type": "enhancement"}});
        let (_, created) = json(server.call(posting(&server, "/api/v2/renders", &body)).await).await;
        let id = created["id"].as_str().expect("a render id").to_string();
        let variation = created["variations"]["items"][0]["id"].as_str().unwrap().to_string();
        for path in [
            format!("/v2/renders/{id}?include_variations=true"),
            format!("/v2/renders/{id}/variations/{variation}"),
            "/v2/renders?limit=1".to_string(),
            "/v1/ping".to_string(),
            "/v1/options".to_string(),
        ] {
            let answer = server.get(&format!("/api{path}")).await;
            assert_eq!(answer.status(), 200, "{path}");
            assert_eq!(answer.headers()["cache-control"], "no-store");
        }
        let (_, page) = json(server.get("/api/v2/renders?limit=1").await).await;
        assert_eq!(page["items"][0]["id"], id.as_str(), "the query string reaches the service");
        let more = json!({"variation_count": 1, "config": {"type": "enhancement"}});
        let added = server.call(posting(&server, &format!("/api/v2/renders/{id}/variations"), &more)).await;
        assert_eq!(added.status(), 200);

        // path tricks, other versions and the sandbox's own tools are refused before anything is forwarded (the
        // request's address is used as written, as a socket would bring it)
        for (path, status) in [
            ("/v2/renders/%2e%2e", 400),
            ("/v2/renders/..%2Fuser", 400),
            ("/v2/renders/a%5Cb", 400),
            ("/v2//user", 404),
            ("/v3/user", 404),
            ("/sandbox/faults", 404),
            ("/openapi.json", 404),
        ] {
            let (answered, body) = json(server.get(&format!("/api{path}")).await).await;
            assert_eq!(answered, status, "{path}");
            assert!(body["message"].is_string(), "{path}: {body}");
        }
        let wrong_method = server.call(server.request(Method::DELETE, "/api/v2/renders").body(Body::empty()).unwrap());
        let wrong_method = wrong_method.await;
        assert_eq!(wrong_method.headers()["allow"], "GET, POST");
        let (status, body) = json(wrong_method).await;
        assert_eq!(status, 405);
        assert!(body["message"].as_str().unwrap().contains("only GET, POST"), "{body}");
        let head = server.call(server.request(Method::HEAD, "/api/v2/renders/rnd_1").body(Body::empty()).unwrap());
        let head = head.await;
        assert_eq!((head.status().as_u16(), &head.headers()["allow"]), (405, &"GET".parse().unwrap()));
        // refused by its length, before a byte of it is read
        let large = " ".repeat(2 * 1024 * 1024);
        let too_large = server.request(Method::POST, "/api/v2/renders").header("content-length", large.len());
        let too_large = server.call(too_large.body(Body::from(large)).unwrap()).await;
        assert_eq!(too_large.status(), 413);
    }
}
