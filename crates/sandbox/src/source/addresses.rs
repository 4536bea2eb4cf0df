//! The resolver of the sandbox's client for public addresses: every name is judged on the addresses it resolved to
//! (`vstage_api::addresses::is_public`), so a public-looking name that leads to this machine is refused, and the
//! connection is handed exactly the addresses it checked.

use std::net::{IpAddr, SocketAddr};

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use vstage_api::addresses::is_public;

/// A name that resolved to an address the sandbox may not fetch from.
#[derive(Debug)]
pub struct NotPublic {
    pub name: String,
    pub ip: IpAddr,
}

impl std::fmt::Display for NotPublic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} resolves to {}, which is not a public address", self.name, self.ip)
    }
}

impl std::error::Error for NotPublic {}

/// The resolver of the client for public addresses: a name is resolved once, refused if any of its addresses is
/// not public, and connected to at exactly the addresses checked (so a second lookup cannot answer differently).
#[derive(Debug)]
pub struct PublicOnly;

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        let name = name.as_str().to_string();
        Box::pin(async move {
            let found: Vec<SocketAddr> = tokio::net::lookup_host((name.as_str(), 0)).await?.collect();
            if let Some(refused) = found.iter().find(|address| !is_public(address.ip())) {
                return Err(Box::new(NotPublic { name, ip: refused.ip() }) as _);
            }
            Ok(Box::new(found.into_iter()) as Addrs)
        })
    }
}
