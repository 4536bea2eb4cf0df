//! The widget's connection to `vstage serve`: one `vstage-api` client, shared through context.
//! Behind our proxy the base is `/api` and no key is sent: the server adds it.

use std::sync::Arc;

use leptos::prelude::*;
use vstage_api::transport::BrowserTransport;

pub type ApiClient = vstage_api::Client<BrowserTransport>;

/// Where the proxy lives when the widget is served by `vstage serve`.
pub const DEFAULT_BASE_URL: &str = "/api";

#[derive(Clone)]
pub struct Api(pub Arc<ApiClient>);

/// Makes a client for `base_url` available to every component below.
pub fn provide_api(base_url: &str) {
    provide_context(Api(Arc::new(ApiClient::new(base_url, BrowserTransport))));
}

/// The client provided by `provide_api`.
pub fn use_api() -> Arc<ApiClient> {
    use_context::<Api>().map(|api| api.0).expect("provide_api is called by App before any component uses the API")
}
