//! `email`: an RFC 5321 `Mailbox` (section 4.1.2),
//! `Local-part "@" ( Domain / address-literal )`.
//!
//! The local part (`Dot-string` or `Quoted-string`, at most 64 octets by
//! section 4.5.3.1.1) is checked by the `email_address` crate, the one the
//! `jsonschema` crate checks it with, with that crate's default options.
//! The domain is then a host name (the `hostname` format) or an address
//! literal of section 4.1.3: `[IPv4]` or `[IPv6:...]`.
//!
//! Where jsonschema departs from RFC 5321 we follow it (our guarantee is
//! agreement with it); each place is marked "jsonschema:". In short:
//! `email_address` also takes a display name (`Name <someone@example.com>`,
//! RFC 5322 `name-addr` syntax, not a `Mailbox`); the local part must be
//! ASCII (RFC 6531 would allow UTF-8; that is `idn-email`); an IPv6 literal
//! is whatever `std` parses after the tag, which lets `::` stand for a single
//! group (RFC 5321 `IPv6-comp` wants it to stand for at least two); a
//! `General-address-literal` (`[tag:content]`) is refused; and the domain
//! follows the `hostname` format (no trailing dot, a 253-octet limit).

use std::net::{Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

use email_address::EmailAddress;

use super::hostname::is_hostname;

/// `email`: `someone@example.com`, `"john doe"@[IPv6:2001:db8::1]`.
pub(super) fn is_email(text: &str) -> bool {
    // RFC 5321 `Quoted-string = DQUOTE *QcontentSMTP DQUOTE` may be empty;
    // `email_address` 0.2 refuses `""`. jsonschema checks such an address
    // as if its local part were `"a"`, and so do we.
    if let Some(domain) = text.strip_prefix("\"\"@") {
        return is_email(&format!("\"a\"@{domain}"));
    }
    let Ok(address) = EmailAddress::from_str(text) else {
        return false;
    };
    // jsonschema: `email` is ASCII only (RFC 5321 is; `email_address`
    // takes RFC 6531 UTF-8 as well).
    address.local_part().is_ascii() && is_domain(address.domain())
}

/// The part after the `@`: `Domain / address-literal`.
fn is_domain(domain: &str) -> bool {
    let Some(literal) = domain
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
    else {
        return is_hostname(domain);
    };
    // `IPv6-address-literal = "IPv6:" IPv6-addr`; the tag is
    // case-insensitive, as ABNF strings are.
    const TAG: &[u8] = b"IPv6:";
    match literal.as_bytes().get(..TAG.len()) {
        // The five ASCII bytes of the tag end on a character boundary.
        Some(tag) if tag.eq_ignore_ascii_case(TAG) => {
            literal[TAG.len()..].parse::<Ipv6Addr>().is_ok()
        }
        // `IPv4-address-literal = Snum 3("." Snum)`. jsonschema: leading
        // zeros (`Snum = 1*3DIGIT`, e.g. `010`) are refused, as std refuses them.
        _ => literal.parse::<Ipv4Addr>().is_ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::is_email;

    #[test]
    fn addresses() {
        let local64 = "a".repeat(64);
        let long_local = format!("{local64}@example.com");
        for valid in [
            "someone@example.com",
            "joe.bloggs@example.com",
            "te~st@example.com",
            "~test@example.com",
            "test~@example.com",
            "te.s.t@example.com",
            "\"joe bloggs\"@example.com",
            "\"joe..bloggs\"@example.com",
            "\"joe@bloggs\"@example.com",
            "\"\"@iana.org",
            "\" \"@iana.org",
            "\"\\a\"@iana.org",
            "\"\\\"\"@iana.org",
            "joe.bloggs@[127.0.0.1]",
            "joe.bloggs@[IPv6:::1]",
            "a@[ipv6:::1]",
            "a@[IPV6:2001:db8::1]",
            "test@255.255.255.255",
            "test@c--n.com",
            "test@123.com",
            "test@io",
            "a@xn--bcher-kva.example",
            "!#$%&'*+-/=?^_`{|}~@example.com",
            // jsonschema: a display name, as email_address takes it.
            "Someone <someone@example.com>",
            long_local.as_str(),
        ] {
            assert!(is_email(valid), "{valid}");
        }
        let too_long_local = format!("a{long_local}");
        for invalid in [
            "",
            "2962",
            "@example.com",
            "joe.bloggs@",
            ".test@example.com",
            "test.@example.com",
            "te..st@example.com",
            "joe bloggs@example.com",
            "joe.bloggs@invalid=domain.com",
            "joe.bloggs@[127.0.0.300]",
            "joe.bloggs@[127.0.0.01]",
            "user1@oceania.org, user2@oceania.org",
            "\"Winston Smith\" <winston.smith@recdep.minitrue> (Records Department)",
            "a\u{e9}@iana.org",
            "a@\u{e9}.org",
            "a\u{ff20}iana.org",
            "\"test\\\u{a9}\"@iana.org",
            "test@iana.org\n",
            "a@iana.org ",
            " a@iana.org",
            "a\tb@iana.org",
            "\u{7f}@iana.org",
            "test\"@iana.org",
            "\"test\"test@iana.org",
            "\"test@iana.org",
            "a@b@c.org",
            "test\\@test@iana.org",
            "[1.2.3.4]@iana.org",
            "test@-iana.org",
            "test@iana-.com",
            "test@.iana.org",
            "test@iana.org.",
            "test@iana..com",
            "test@[1.2.3.4",
            "a@[]",
            "a@[1.2.3]",
            "a@[1.2.3.4.5]",
            "test@[RFC-5322-domain-literal]",
            "test@a[255.255.255.255]",
            "a@[IPv6:1.2.3.4]",
            "a@[IPv6:fe80::1%eth0]",
            "a,b@iana.org",
            "a:b@iana.org",
            "test(comment)@iana.org",
            "a@b(c).org",
            "a@b_c.org",
            "<someone@example.com>",
            too_long_local.as_str(),
        ] {
            assert!(!is_email(invalid), "{invalid}");
        }
    }
}
