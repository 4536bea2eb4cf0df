//! Whether an address handed to the service points at this machine or a private network: a widget token's holder
//! may not make the service (or its webhooks) reach there. Judged on the address as written; a public name that
//! resolves to a private address is the service's to refuse.

use std::net::{Ipv4Addr, Ipv6Addr};

use url::{Host, Url};

/// True for loopback, private, link-local, shared (CGNAT), unspecified and broadcast addresses, `localhost` and
/// `.localhost`/`.local`/`.internal` names; false for this server's own public address (`own`) and below it, and
/// for what is not a URL with a host (`data:` photos; the service refuses what it cannot fetch).
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
        Some(Host::Ipv4(ip)) => private_v4(ip),
        Some(Host::Ipv6(ip)) => private_v6(ip),
        None => false,
    }
}

fn private_v4(ip: Ipv4Addr) -> bool {
    let [first, second, ..] = ip.octets();
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || (first == 100 && (64..128).contains(&second))
}

fn private_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    ip.is_loopback()
        || ip.is_unspecified()
        || (first & 0xfe00) == 0xfc00
        || (first & 0xffc0) == 0xfe80
        || ip.to_ipv4_mapped().is_some_and(private_v4)
}

#[cfg(test)]
mod tests {
    use super::is_private;

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
}
