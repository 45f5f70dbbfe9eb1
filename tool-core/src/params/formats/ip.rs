//! `ipv4` and `ipv6`: an IPv4 address in the dotted-quad form of RFC 2673
//! section 3.2 (four decimal octets, no leading zeros), an IPv6 address in
//! the text forms of RFC 4291 section 2.2 (with `::` and a trailing dotted
//! quad, without a zone id or a prefix length) -- exactly what the
//! standard library's `FromStr` accepts, which is also what the `jsonschema`
//! crate checks with.

use std::net::{Ipv4Addr, Ipv6Addr};

/// `ipv4`: `192.0.2.1`.
pub(super) fn is_ipv4(text: &str) -> bool {
    text.parse::<Ipv4Addr>().is_ok()
}

/// `ipv6`: `2001:db8::1`, `::ffff:192.0.2.1`.
pub(super) fn is_ipv6(text: &str) -> bool {
    text.parse::<Ipv6Addr>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::{is_ipv4, is_ipv6};

    #[test]
    fn ipv4() {
        for valid in ["192.0.2.1", "0.0.0.0", "255.255.255.255", "127.0.0.1"] {
            assert!(is_ipv4(valid), "{valid}");
        }
        for invalid in [
            "",
            "256.0.0.1",
            "1.2.3",
            "1.2.3.4.5",
            "087.10.0.1",
            "01.2.3.4",
            "1.2.3.4 ",
            "0x7f.0.0.1",
            "1..2.3",
            "1.2.3.৪",
            "127.0.0.1/24",
            "::1",
        ] {
            assert!(!is_ipv4(invalid), "{invalid}");
        }
    }

    #[test]
    fn ipv6() {
        for valid in [
            "::",
            "::1",
            "2001:db8::1",
            "2001:DB8::1",
            "1:2:3:4:5:6:7:8",
            "1:2:3:4:5:6:7::",
            "::2:3:4:5:6:7:8",
            "1::d6:192.168.0.1",
            "::ffff:192.168.0.1",
            "1000:1000:1000:1000:1000:1000:255.255.255.255",
            "0000:0000:0000:0000:0000:0000:0000:0000",
        ] {
            assert!(is_ipv6(valid), "{valid}");
        }
        for invalid in [
            "",
            ":",
            ":::",
            "12345::",
            "::abcef",
            "1:2:3:4:5:6:7",
            "1:2:3:4:5:6:7:8:9",
            "1:2:3:4:5:6:7:",
            ":2:3:4:5:6:7:8",
            "1::d6::42",
            "1:2:3:4:5:::8",
            "1::2:3:4:5:6:7:8",
            "1::2:192.168.256.1",
            "::ffff:192.168.01.1",
            "1.2.3.4::",
            "127.0.0.1",
            "fe80::a%eth1",
            "fe80::/64",
            " ::1",
            "::1 ",
            "[::1]",
            "::laptop",
            "1:2:3:4:5:6:7:৪",
        ] {
            assert!(!is_ipv6(invalid), "{invalid}");
        }
    }
}
