//! Which addresses are on the public internet: what the sandbox may fetch photos from, and what the server may
//! fetch a result or an original photo from, judged on the address itself (a name is judged on what it resolves
//! to, by the resolver of whoever connects).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// True for an address on the public internet; false for this machine, private and shared networks, link-local
/// addresses (where cloud metadata services answer), multicast, broadcast, documentation and reserved ranges, and
/// IPv6 forms that carry such an IPv4 address.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(ip) => public_v4(ip),
        IpAddr::V6(ip) => public_v6(ip),
    }
}

fn public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    let refused = a == 0 // "this network", 0.0.0.0 among it
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local() // 169.254.169.254, the metadata service, among it
        || (a == 100 && (64..128).contains(&b)) // shared address space (CGNAT); 100.100.100.200 is a metadata service
        || (a == 192 && b == 0 && c == 0) // IETF protocol assignments; 192.0.0.192 is a metadata service
        || (a == 192 && b == 0 && c == 2)
        || (a == 198 && b == 51 && c == 100)
        || (a == 203 && b == 0 && c == 113) // documentation
        || (a == 198 && (18..20).contains(&b)) // benchmarking
        || (a == 192 && b == 88 && c == 99) // the old 6to4 relays
        || ip.is_multicast()
        || a >= 240; // reserved, and the broadcast address
    !refused
}

fn public_v6(ip: Ipv6Addr) -> bool {
    let segments = ip.segments();
    // IPv4 carried in IPv6: mapped (::ffff:a.b.c.d), compatible (::a.b.c.d, and :: and ::1 with it), NAT64
    // (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::); each is as public as the IPv4 address it carries.
    if let Some(v4) = ip.to_ipv4() {
        return public_v4(v4);
    }
    if segments[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return public_v4(Ipv4Addr::from((u32::from(segments[6]) << 16) | u32::from(segments[7])));
    }
    if segments[0] == 0x2002 {
        return public_v4(Ipv4Addr::from((u32::from(segments[1]) << 16) | u32::from(segments[2])));
    }
    let first = segments[0];
    let refused = (first & 0xfe00) == 0xfc00 // unique local, fd00:ec2::254 (a metadata service) among it
        || (first & 0xffc0) == 0xfe80 // link-local
        || (first & 0xffc0) == 0xfec0 // the old site-local
        || ip.is_multicast()
        || (first == 0x64 && segments[1] == 0xff9b) // local-use NAT64 (64:ff9b:1::/48)
        || (first == 0x2001 && segments[1] == 0) // Teredo, which tunnels to any IPv4 address
        || (first == 0x2001 && segments[1] == 0xdb8) // documentation
        || segments[..4] == [0x100, 0, 0, 0]; // discard-only
    !refused
}

#[cfg(test)]
mod tests {
    use super::is_public;

    #[test]
    fn this_machine_private_networks_and_metadata_services_are_not_public() {
        for address in [
            "127.0.0.1",
            "127.8.9.10",
            "0.0.0.0",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "169.254.0.1",
            "100.64.0.1",
            "100.100.100.200",
            "192.0.0.192",
            "198.18.0.1",
            "192.0.2.1",
            "224.0.0.1",
            "239.255.255.250",
            "240.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            "fc00::1",
            "fd00:ec2::254",
            "fe80::1",
            "fec0::1",
            "ff02::1",
            "2001:db8::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "::ffff:10.0.0.1",
            "::127.0.0.1",
            "64:ff9b::7f00:1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b:1::1",
            "2002:7f00:1::",
            "2002:c0a8:101::1",
            "2001::1",
            "100::1",
        ] {
            assert!(!is_public(address.parse().unwrap()), "{address}");
        }
    }

    #[test]
    fn public_addresses_are_public() {
        for address in [
            "93.184.216.34",
            "8.8.8.8",
            "1.1.1.1",
            "172.32.0.1",
            "100.128.0.1",
            "2606:2800:220:1::1",
            "2a00:1450:4001::200e",
            "::ffff:93.184.216.34",
            "64:ff9b::808:808",
            "2002:5db8:d822::",
        ] {
            assert!(is_public(address.parse().unwrap()), "{address}");
        }
    }
}
