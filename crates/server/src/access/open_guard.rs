//! Open access's guard, since open access spends the account's photos for whoever reaches it: only this server's
//! own names get through (a page on another name that resolves here, DNS rebinding, is refused with 421), and a
//! state-changing request from another site's page (a plain form post needs no preflight) is refused with 403.
//! Same-origin pages, `--allow-origin` pages and clients that send no `Origin` (curl, backends) keep working.

use std::net::SocketAddr;

use axum::http::header::{HOST, ORIGIN};
use axum::http::{HeaderMap, Method};

use crate::error::ServerError;

#[derive(Debug, Clone)]
pub struct OpenGuard {
    /// `host:port` as browsers send it in `Host`, lowercase.
    hosts: Vec<String>,
    /// `scheme://host[:port]`, lowercase: this server's own and the allowed ones.
    origins: Vec<String>,
}

impl OpenGuard {
    /// For a server listening on `listen` (the bound address), reached at `public_url` if given, read by pages of
    /// `allowed_origins`.
    pub fn new(listen: SocketAddr, public_url: Option<&str>, allowed_origins: &[String]) -> Self {
        let port = listen.port();
        let mut hosts = vec![format!("localhost:{port}")];
        hosts.push(match listen {
            SocketAddr::V4(v4) => format!("{}:{port}", v4.ip()),
            SocketAddr::V6(v6) => format!("[{}]:{port}", v6.ip()),
        });
        let mut origins: Vec<String> = hosts.iter().map(|host| format!("http://{host}")).collect();
        if let Some(url) = public_url.and_then(|url| url::Url::parse(url).ok()) {
            if let Some(host) = url.host_str() {
                hosts.push(match url.port() {
                    Some(port) => format!("{host}:{port}"),
                    None => host.to_string(),
                });
            }
            origins.push(url.origin().ascii_serialization());
        }
        origins.extend(allowed_origins.iter().map(|origin| origin.trim_end_matches('/').to_string()));
        let lowercase = |list: Vec<String>| list.into_iter().map(|item| item.to_ascii_lowercase()).collect();
        OpenGuard { hosts: lowercase(hosts), origins: lowercase(origins) }
    }

    /// Whether a request may go on.
    pub fn check(&self, method: &Method, headers: &HeaderMap) -> Result<(), ServerError> {
        let host = headers.get(HOST).and_then(|value| value.to_str().ok()).unwrap_or_default();
        if !self.hosts.iter().any(|own| own.eq_ignore_ascii_case(host)) {
            return Err(ServerError::Misdirected(format!(
                "This vstage server answers only to its own address ({}); use that address, or --public-url for \
                 the name it is reached by.",
                self.hosts.join(", ")
            )));
        }
        if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
            return Ok(());
        }
        // An allowed `Origin` passes whatever `Sec-Fetch-Site` says; `null` (sandboxed frames, files) is nobody's.
        let refused = match headers.get(ORIGIN) {
            Some(origin) => !self.origins.iter().any(|own| own.as_bytes().eq_ignore_ascii_case(origin.as_bytes())),
            None => headers.get("sec-fetch-site").is_some_and(|site| site.as_bytes() == b"cross-site"),
        };
        if refused {
            return Err(ServerError::Forbidden(
                "Another site's page may not act on this vstage server. Open the studio from the server's own \
                 address, or start the server with --allow-origin for that site."
                    .into(),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn guard() -> OpenGuard {
        OpenGuard::new("127.0.0.1:8080".parse().unwrap(), None, &["https://listings.example".to_string()])
    }

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        pairs.iter().map(|(name, value)| (name.parse().unwrap(), HeaderValue::from_static(value))).collect()
    }

    #[test]
    fn only_the_servers_own_names_get_through() {
        let guard = guard();
        for host in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080"] {
            assert!(guard.check(&Method::GET, &headers(&[("host", host)])).is_ok(), "{host}");
        }
        for host in ["attacker.example", "attacker.example:8080", "127.0.0.1:9090", ""] {
            let refused = guard.check(&Method::GET, &headers(&[("host", host)]));
            assert!(matches!(refused, Err(ServerError::Misdirected(_))), "{host}");
        }
        let public = OpenGuard::new("127.0.0.1:8080".parse().unwrap(), Some("https://studio.example"), &[]);
        assert!(public.check(&Method::GET, &headers(&[("host", "studio.example")])).is_ok());
    }

    #[test]
    fn state_changing_requests_from_other_sites_are_refused() {
        let guard = guard();
        let host = ("host", "127.0.0.1:8080");
        let allowed = [
            headers(&[host]),
            headers(&[host, ("origin", "http://127.0.0.1:8080"), ("sec-fetch-site", "same-origin")]),
            headers(&[host, ("origin", "https://listings.example"), ("sec-fetch-site", "cross-site")]),
        ];
        for (index, request) in allowed.iter().enumerate() {
            assert!(guard.check(&Method::POST, request).is_ok(), "case {index}");
        }
        let refused = [
            headers(&[host, ("origin", "http://attacker.example")]),
            headers(&[host, ("sec-fetch-site", "cross-site")]),
            headers(&[host, ("origin", "null")]),
            headers(&[host, ("origin", "http://127.0.0.1:3000"), ("sec-fetch-site", "same-site")]),
        ];
        for (index, request) in refused.iter().enumerate() {
            assert!(matches!(guard.check(&Method::POST, request), Err(ServerError::Forbidden(_))), "case {index}");
            assert!(guard.check(&Method::GET, request).is_ok(), "reading stays open, case {index}");
        }
    }
}
