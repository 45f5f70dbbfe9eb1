//! `uri`: an RFC 3986 `URI` (section 3), that is an absolute URI with an
//! optional fragment; a relative reference is no `uri`. ASCII only (an IRI,
//! RFC 3987, is the `iri` format).
//!
//! ```text
//! URI           = scheme ":" hier-part [ "?" query ] [ "#" fragment ]
//! hier-part     = "//" authority path-abempty
//!               / path-absolute / path-rootless / path-empty
//! scheme        = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
//! authority     = [ userinfo "@" ] host [ ":" port ]
//! userinfo      = *( unreserved / pct-encoded / sub-delims / ":" )
//! host          = IP-literal / IPv4address / reg-name
//! port          = *DIGIT
//! IP-literal    = "[" ( IPv6address / IPvFuture  ) "]"
//! IPvFuture     = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
//! reg-name      = *( unreserved / pct-encoded / sub-delims )
//! path-abempty  = *( "/" segment )
//! pchar         = unreserved / pct-encoded / sub-delims / ":" / "@"
//! query         = *( pchar / "/" / "?" )
//! fragment      = *( pchar / "/" / "?" )
//! pct-encoded   = "%" HEXDIG HEXDIG
//! ```
//!
//! `IPv4address` needs no check of its own: every string it matches is also
//! a `reg-name` (section 3.2.2 says so), so `host` is an `IP-literal` or a
//! `reg-name`. Likewise `path-absolute / path-rootless / path-empty` after
//! the scheme is any run of `pchar` and `/` that does not start with `//`
//! (which would be an authority). `IPv6address` (section 3.2.2) is the text
//! form of RFC 4291 section 2.2, which `std` parses; no zone id (RFC 6874).
//!
//! The `jsonschema` crate checks the same grammar: we know of no place where
//! it departs from RFC 3986.

use std::net::Ipv6Addr;

/// RFC 3986 section 2.3.
fn is_unreserved(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~')
}

/// RFC 3986 section 2.2.
fn is_sub_delim(byte: u8) -> bool {
    matches!(
        byte,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    )
}

/// Whether `text` is a run of bytes `allowed` admits and of `pct-encoded`
/// triplets (RFC 3986 section 2.1).
fn is_run(text: &str, allowed: impl Fn(u8) -> bool) -> bool {
    let mut bytes = text.as_bytes();
    while let Some((&byte, rest)) = bytes.split_first() {
        if byte == b'%' {
            match rest {
                [high, low, after @ ..] if high.is_ascii_hexdigit() && low.is_ascii_hexdigit() => {
                    bytes = after;
                }
                _ => return false,
            }
        } else if allowed(byte) {
            bytes = rest;
        } else {
            return false;
        }
    }
    true
}

/// `pchar` less `pct-encoded`.
fn is_pchar(byte: u8) -> bool {
    is_unreserved(byte) || is_sub_delim(byte) || matches!(byte, b':' | b'@')
}

/// `uri`: `https://example.com/a?b#c`, `urn:isbn:0451450523`.
pub(super) fn is_uri(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    if !is_scheme(scheme) {
        return false;
    }
    // The fragment is everything after the first `#`, the query everything
    // between the first `?` before it and the `#`; neither `#` nor `?` may
    // appear earlier, in the hier-part.
    let (rest, fragment) = match rest.split_once('#') {
        Some((rest, fragment)) => (rest, Some(fragment)),
        None => (rest, None),
    };
    let (hier_part, query) = match rest.split_once('?') {
        Some((hier_part, query)) => (hier_part, Some(query)),
        None => (rest, None),
    };
    let query_or_fragment = |part: &str| is_run(part, |b| is_pchar(b) || matches!(b, b'/' | b'?'));
    is_hier_part(hier_part)
        && query.is_none_or(query_or_fragment)
        && fragment.is_none_or(query_or_fragment)
}

/// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
fn is_scheme(scheme: &str) -> bool {
    let bytes = scheme.as_bytes();
    bytes.first().is_some_and(u8::is_ascii_alphabetic)
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// `hier-part`, `?` and `#` already split off.
fn is_hier_part(hier_part: &str) -> bool {
    let path = match hier_part.strip_prefix("//") {
        Some(rest) => {
            // The authority ends at the first `/` (or `?`/`#`, split off
            // already): none can appear in it. What follows is then empty or
            // starts with `/`, as `path-abempty` wants.
            let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
            if !is_authority(authority) {
                return false;
            }
            path
        }
        None => hier_part,
    };
    is_run(path, |b| is_pchar(b) || b == b'/')
}

/// `authority = [ userinfo "@" ] host [ ":" port ]`.
fn is_authority(authority: &str) -> bool {
    // No `@` can appear in a userinfo or a host, so a second one fails
    // whichever `@` is taken as the separator.
    let host_port = match authority.split_once('@') {
        Some((userinfo, host_port)) => {
            if !is_run(userinfo, |b| {
                is_unreserved(b) || is_sub_delim(b) || b == b':'
            }) {
                return false;
            }
            host_port
        }
        None => authority,
    };
    let (host_ok, port) = match host_port.strip_prefix('[') {
        Some(literal) => {
            // `IP-literal`: up to the first `]`, which neither form holds.
            let Some((address, after)) = literal.split_once(']') else {
                return false;
            };
            let port = match after.strip_prefix(':') {
                Some(port) => port,
                None if after.is_empty() => "",
                None => return false,
            };
            (is_ip_literal(address), port)
        }
        None => {
            // A `reg-name` holds no `:`, so the first one starts the port.
            let (host, port) = host_port.split_once(':').unwrap_or((host_port, ""));
            (is_run(host, |b| is_unreserved(b) || is_sub_delim(b)), port)
        }
    };
    host_ok && port.bytes().all(|b| b.is_ascii_digit())
}

/// What is between the brackets of an `IP-literal`: `IPv6address /
/// IPvFuture`.
fn is_ip_literal(address: &str) -> bool {
    // `IPvFuture`: "v" is case-insensitive, as ABNF strings are.
    match address.strip_prefix(['v', 'V']) {
        Some(future) => {
            let Some((version, rest)) = future.split_once('.') else {
                return false;
            };
            !version.is_empty()
                && version.bytes().all(|b| b.is_ascii_hexdigit())
                && !rest.is_empty()
                && rest
                    .bytes()
                    .all(|b| is_unreserved(b) || is_sub_delim(b) || b == b':')
        }
        None => address.parse::<Ipv6Addr>().is_ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::is_uri;

    #[test]
    fn uris() {
        for valid in [
            "https://example.com/a?b#c",
            "http://foo.bar/?baz=qux#quux",
            "http://foo.com/blah_(wikipedia)_blah#cite-1",
            "http://foo.bar/?q=Test%20URL-encoded%20stuff",
            "http://xn--nw2a.xn--j6w193g/",
            "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com",
            "http://223.255.255.254",
            "ftp://ftp.is.co.za/rfc/rfc1808.txt",
            "ldap://[2001:db8::7]/c=GB?objectClass?one",
            "mailto:John.Doe@example.com",
            "news:comp.infosystems.www.servers.unix",
            "tel:+1-816-555-1212",
            "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
            "telnet://192.0.2.16:80/",
            "http://087.10.0.1/",
            "http://999.999.999.999/",
            "http://a.com:",
            "http://a.com:999999999",
            "http://:80",
            "http://@a.com",
            "http://user@",
            "http://!$&'()*+,;=.com",
            "http://example.com.",
            "http://exa~mple.com/",
            "http://under_score.com/",
            "http://[::1]:8080/",
            "http://user:pass@[::ffff:192.0.2.1]/",
            "http://[v1.fe80::a+en1]",
            "http://[V7.x]/",
            "a:",
            "a:/",
            "a://",
            "a:///path",
            "a:b:c",
            "a+b-c.d:x",
            "a:?",
            "a:#",
            "a:?/?#/?",
            "a:%41",
            "HTTP://EXAMPLE.COM",
        ] {
            assert!(is_uri(valid), "{valid}");
        }
        for invalid in [
            "",
            ":",
            "//foo.bar/?baz=qux#quux",
            "/abc",
            "abc",
            "\\\\WINDOWS\\fileshare",
            "http:// shouldfail.com",
            ":// should fail",
            "bar,baz:foo",
            "https://[@example.org/test.txt",
            "https://example.org/foobar®.txt",
            "https://example.org/foobar\\.txt",
            "https://example.org/foobar\".txt",
            "https://example.org/foobar<>.txt",
            "https://example.org/foobar{}.txt",
            "https://example.org/foobar^.txt",
            "https://example.org/foobar`.txt",
            "https://example.org/foo bar.txt",
            "https://example.org/foobar|.txt",
            "http://example.com/%6G",
            "http://example.com/%A",
            "http://example.com/%",
            "1http://example.com",
            "ht_tp://example.com",
            "http://example.com:abc/path",
            "http://a.com:8:0",
            "http://a.com::",
            "http://a@b@c",
            "http://[::1",
            "http://::1]",
            "http://[::1]x",
            "http://[1.2.3.4]",
            "http://[fe80::1%25eth0]",
            "http://[v1]",
            "http://[v.x]",
            "http://[v1.]",
            "http://[v1.%41]",
            "http://a[::1]",
            "http://[::1]@a",
            "http://a/[b]",
            "a:b#c#d",
            "a:%",
            "a:%4",
            "a:\u{e9}",
            "a:b\n",
            "é:b",
        ] {
            assert!(!is_uri(invalid), "{invalid}");
        }
    }
}
