//! Which addresses this server may reach for a caller: a widget token's holder may not make the service (or its
//! webhooks) reach this machine or a private network, nor make this server fetch from there. An address is judged
//! as written ([`is_private`]); a name, by what it resolves to ([`Resolver`], the resolver of the client that
//! fetches results and original photos), so that a public-looking name leading to this machine is refused too.

use std::future::Future;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::task::{Context, Poll};

use hyper_util::client::legacy::connect::dns::Name;
use url::{Host, Url};
use vstage_api::addresses::is_public;

/// True for addresses that are not public (loopback, private, link-local, shared, IPv6 forms carrying those: see
/// `vstage_api::addresses::is_public`), `localhost` and `.localhost`/`.local`/`.internal` names; false for this
/// server's own public address (`own`) and below it, and for what is not a URL with a host (`data:` photos; the
/// service refuses what it cannot fetch).
pub fn is_private(address: &str, own: &str) -> bool {
    let own = own.trim_end_matches('/');
    if address.strip_prefix(own).is_some_and(|rest| rest.is_empty() || rest.starts_with('/')) {
        return false;
    }
    let Ok(url) = Url::parse(address) else { return false };
    match url.host() {
        Some(Host::Domain(name)) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            name == "localhost" || [".localhost", ".local", ".internal"].iter().any(|end| name.ends_with(end))
        }
        Some(Host::Ipv4(ip)) => !is_public(ip.into()),
        Some(Host::Ipv6(ip)) => !is_public(ip.into()),
        None => false,
    }
}

/// The network one client holds, which the caps on one client count by: an IPv4 address (an IPv4-mapped IPv6 one
/// read as such), and for IPv6 the address's /64, the least one customer is given (RFC 6177): counted by its
/// address alone, one machine could take a cap's places once for each of its many addresses.
pub fn client_network(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & (u128::MAX << 64))),
        v4 => v4,
    }
}

/// The resolver of this server's HTTP clients: the system's, on a blocking thread (as hyper's own), and for the
/// client that fetches from addresses callers name, one that refuses a name resolving to any address that is not
/// public, and hands the connection exactly the addresses it checked (a second lookup cannot answer differently).
#[derive(Debug, Clone, Copy)]
pub struct Resolver {
    pub public_only: bool,
}

impl tower::Service<Name> for Resolver {
    type Response = std::vec::IntoIter<SocketAddr>;
    type Error = std::io::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, name: Name) -> Self::Future {
        let public_only = self.public_only;
        Box::pin(async move {
            let found: Vec<SocketAddr> = tokio::net::lookup_host((name.as_str(), 0)).await?.collect();
            if let Some(refused) = found.iter().find(|address| public_only && !is_public(address.ip())) {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::PermissionDenied,
                    format!("{name} resolves to {}, which is not a public address", refused.ip()),
                ));
            }
            Ok(found.into_iter())
        })
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use hyper_util::client::legacy::connect::dns::Name;
    use tower::ServiceExt;

    use super::{Resolver, is_private};

    const OWN: &str = "http://127.0.0.1:8080";

    #[test]
    fn this_machine_and_private_networks_are_private() {
        for address in [
            "http://127.0.0.1/admin",
            "http://localhost:9000/x.jpg",
            "http://db.localhost/",
            "http://printer.local/scan.jpg",
            "http://10.0.0.5/a.jpg",
            "http://172.16.3.4/",
            "http://192.168.1.1/",
            "http://169.254.169.254/latest/meta-data/",
            "http://100.64.0.1/",
            "http://0.0.0.0:8080/",
            "http://[::1]/",
            "http://[fd00::1]/",
            "http://[fe80::1]/",
            "http://[::ffff:10.0.0.1]/",
            "http://127.0.0.1:8081/api/uploads/x.jpg",
            "http://[64:ff9b::a9fe:a9fe]/latest/meta-data/",
            "http://[64:ff9b::7f00:1]/",
            "http://[2002:7f00:1::]/",
            "http://2130706433/",
        ] {
            assert!(is_private(address, OWN), "{address}");
        }
    }

    #[test]
    fn public_addresses_and_this_servers_own_are_not() {
        for address in [
            "https://photos.example/a.jpg",
            "http://93.184.216.34/a.jpg",
            "http://[2606:2800:220:1::1]/",
            "http://127.0.0.1:8080/api/uploads/abc.jpg",
            "http://127.0.0.1:8080/sandbox/samples/living-empty.jpg",
            "data:image/png;base64,AAAA",
            "not a url",
        ] {
            assert!(!is_private(address, OWN), "{address}");
        }
    }

    #[tokio::test]
    async fn the_fetching_resolver_refuses_a_name_that_leads_to_this_machine() {
        let name = || Name::from_str("localhost").unwrap();
        let refused = Resolver { public_only: true }.oneshot(name()).await.unwrap_err();
        assert!(refused.to_string().contains("not a public address"), "{refused}");
        let found: Vec<_> = Resolver { public_only: false }.oneshot(name()).await.unwrap().collect();
        assert!(found.iter().any(|address| address.ip().is_loopback()), "{found:?}");
    }
}
