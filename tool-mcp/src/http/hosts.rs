//! Which `Host` and `Origin` headers the server answers: the defence
//! against DNS rebinding, where a web page's own name is pointed at this
//! server so a browser carries the page's requests to it. The browser then
//! sends the page's name as `Host` (and its origin as `Origin`), which is
//! not one of the names below.

use super::Refusal;
use hyper::StatusCode;
use hyper::header::{HOST, HeaderMap, ORIGIN};
use hyper::http::uri::Authority;
use std::fmt::Write as _;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Host names every server accepts: nothing but this machine can be
/// reached by them, and no web page can make a browser send them for a
/// name of its own.
const LOOPBACK_NAMES: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// A host name, lowercase and without IPv6 brackets, and maybe a port.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Name {
    host: String,
    port: Option<u16>,
}

impl Name {
    fn parse(text: &str) -> Option<Name> {
        let authority: Authority = text.trim().parse().ok()?;
        if authority.as_str().contains('@') {
            return None;
        }
        Some(Name {
            host: normalize(authority.host()),
            port: authority.port_u16(),
        })
    }

    /// As an HTTP authority: IPv6 in brackets, the port if any.
    fn authority(&self) -> String {
        let mut text = if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        if let Some(port) = self.port {
            let _ = write!(text, ":{port}");
        }
        text
    }
}

fn normalize(host: &str) -> String {
    host.trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase()
}

/// The accepted hosts of one server.
pub(super) struct HostPolicy {
    names: Vec<Name>,
    /// `Host` values accepted as they are written, lowercase: each name
    /// with its own port, or with the port bound when it has none. What
    /// clients send nearly always; checked before anything is parsed.
    exact: Vec<Box<[u8]>>,
    /// Bound to every interface with no names given: any IP address of this
    /// machine is accepted too.
    any_local_address: bool,
    /// Origins accepted besides those whose host is accepted, lowercase,
    /// without a trailing slash.
    origins: Vec<String>,
    /// When a refusal was last logged as a warning (at most one a minute:
    /// anyone who reaches the port can send refused requests).
    warned: Mutex<Option<Instant>>,
}

/// How often a refused `Host` or `Origin` is logged as a warning; the rest
/// are logged at debug.
const WARN_EVERY: Duration = Duration::from_secs(60);

impl HostPolicy {
    /// The loopback names, the address bound (unless it is every interface's),
    /// and `named`; with none named on an all-interfaces address, any IP
    /// address of this machine as well. A mounted service (`bound` `None`)
    /// has the loopback names and `named`.
    pub(super) fn new(
        bound: Option<SocketAddr>,
        named: &[String],
        origins: &[String],
    ) -> std::io::Result<Self> {
        let mut names: Vec<Name> = LOOPBACK_NAMES
            .iter()
            .map(|host| Name {
                host: (*host).to_owned(),
                port: None,
            })
            .collect();
        let all_interfaces = bound.is_some_and(|bound| bound.ip().is_unspecified());
        if let Some(bound) = bound
            && !all_interfaces
        {
            names.push(Name {
                host: bound.ip().to_string(),
                port: None,
            });
        }
        for text in named {
            let name = Name::parse(text).ok_or_else(|| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!("allowed host '{text}' is not a host name or host:port"),
                )
            })?;
            names.push(name);
        }
        let mut unique = Vec::with_capacity(names.len());
        for name in names {
            if !unique.contains(&name) {
                unique.push(name);
            }
        }
        let exact = unique
            .iter()
            .map(|name| {
                let mut name = name.clone();
                name.port = name.port.or(bound.map(|bound| bound.port()));
                name.authority().into_bytes().into_boxed_slice()
            })
            .collect();
        Ok(HostPolicy {
            exact,
            names: unique,
            any_local_address: all_interfaces && named.is_empty(),
            origins: origins
                .iter()
                .map(|origin| origin.trim().trim_end_matches('/').to_ascii_lowercase())
                .collect(),
            warned: Mutex::default(),
        })
    }

    /// The accepted hosts, for people: `localhost, 127.0.0.1, [::1], and
    /// any IP address of this machine`.
    pub(super) fn describe(&self) -> String {
        let mut text = self
            .names
            .iter()
            .map(Name::authority)
            .collect::<Vec<_>>()
            .join(", ");
        if self.any_local_address {
            text.push_str(", and any IP address of this machine");
        }
        text
    }

    /// `Ok` when the request's `Host` is accepted; else the 403 to
    /// answer (which does not say what is accepted).
    pub(super) fn check_host(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        let raw = headers.get(HOST);
        let exact = raw.is_some_and(|value| {
            let value = value.as_bytes();
            self.exact
                .iter()
                .any(|known| known.eq_ignore_ascii_case(value))
        });
        let host = raw.and_then(|value| value.to_str().ok());
        let accepted = exact
            || host
                .and_then(Name::parse)
                .is_some_and(|name| self.accepts(&name, true));
        if !accepted {
            let shown = host.map_or_else(|| "(none)".to_owned(), |host| format!("{host:?}"));
            self.log_refusal(&format!("Host {shown}"));
            // The accepted names are the operator's to read in the log, not
            // a stranger's to learn (they may be internal names).
            return Err(Refusal::new(
                StatusCode::FORBIDDEN,
                format!("Forbidden: Host {shown} is not accepted by this server\n"),
            ));
        }
        Ok(())
    }

    /// Both checks, as the gate makes them for MCP's endpoint.
    #[cfg(test)]
    fn check(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        self.check_host(headers)?;
        self.check_origin(headers)
    }

    /// `Ok` when the request sends no `Origin` or an accepted one; else
    /// the 403 to answer.
    pub(super) fn check_origin(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        let Some(origin) = headers.get(ORIGIN) else {
            // Not a browser: nothing to check (the MCP spec asks for the
            // check when the header is present).
            return Ok(());
        };
        let origin = origin.to_str().unwrap_or("(not text)");
        if self.accepts_origin(origin) {
            return Ok(());
        }
        self.log_refusal(&format!("Origin {origin:?}"));
        Err(Refusal::new(
            StatusCode::FORBIDDEN,
            format!("Forbidden: Origin {origin:?} is not accepted by this server\n"),
        ))
    }

    /// A refused `Host` or `Origin` in the log, with what is accepted: a
    /// warning at most once a minute (a misconfigured client or balancer
    /// shows at the default level), debug otherwise.
    fn log_refusal(&self, what: &str) {
        let accepted = self.describe();
        let origins = self.origins.join(", ");
        let now = Instant::now();
        let mut warned = self.warned.lock().unwrap_or_else(PoisonError::into_inner);
        if warned.is_none_or(|at| now.duration_since(at) >= WARN_EVERY) {
            *warned = Some(now);
            drop(warned);
            tracing::warn!(
                accepted_hosts = accepted,
                allowed_origins = origins,
                "refused {what}: not an accepted host (name it with --allowed-host or \
                 --allowed-origin); further refusals this minute are logged at debug"
            );
        } else {
            drop(warned);
            tracing::debug!(accepted_hosts = accepted, "refused {what}");
        }
    }

    fn accepts(&self, name: &Name, with_port: bool) -> bool {
        let named = self.names.iter().any(|accepted| {
            accepted.host == name.host
                && (!with_port || accepted.port.is_none() || accepted.port == name.port)
        });
        named
            || (self.any_local_address
                && name
                    .host
                    .parse::<IpAddr>()
                    .is_ok_and(is_this_machines_address))
    }

    /// An origin names an accepted host (on any port: a page served by
    /// another port of a trusted host is trusted), or is listed.
    pub(super) fn accepts_origin(&self, origin: &str) -> bool {
        let origin = origin.trim().trim_end_matches('/').to_ascii_lowercase();
        if self.origins.contains(&origin) {
            return true;
        }
        let Some((scheme, authority)) = origin.split_once("://") else {
            return false;
        };
        (scheme == "http" || scheme == "https")
            && !authority.contains('/')
            && Name::parse(authority).is_some_and(|name| self.accepts(&name, false))
    }
}

/// Whether `ip` is one of this machine's addresses: binding a socket to an
/// address succeeds only for the machine's own (port 0 asks for any free
/// port, and the socket is closed at once). That takes no interface-listing
/// crate, and follows addresses that come and go.
fn is_this_machines_address(ip: IpAddr) -> bool {
    !ip.is_unspecified()
        && !ip.is_multicast()
        && std::net::TcpListener::bind(SocketAddr::new(ip, 0)).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::HeaderValue;

    fn headers(host: &str, origin: Option<&str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(HOST, HeaderValue::from_str(host).unwrap());
        if let Some(origin) = origin {
            headers.insert(ORIGIN, HeaderValue::from_str(origin).unwrap());
        }
        headers
    }

    fn policy(bound: &str, named: &[&str]) -> HostPolicy {
        let named: Vec<String> = named.iter().map(|&name| name.to_owned()).collect();
        HostPolicy::new(Some(bound.parse().unwrap()), &named, &[]).unwrap()
    }

    #[test]
    fn loopback_names_are_always_accepted() {
        let policy = policy("127.0.0.1:8080", &[]);
        for host in ["localhost:8080", "LOCALHOST", "127.0.0.1:1", "[::1]:8080"] {
            assert!(policy.check(&headers(host, None)).is_ok(), "{host}");
        }
        assert!(policy.check(&headers("evil.example", None)).is_err());
        assert_eq!(policy.describe(), "localhost, 127.0.0.1, [::1]");
    }

    #[test]
    fn mounted_accepts_the_loopback_names_and_the_named_hosts_on_any_port() {
        let named = ["app.example.com".to_owned()];
        let policy = HostPolicy::new(None, &named, &[]).unwrap();
        for host in [
            "localhost",
            "127.0.0.1:3000",
            "app.example.com",
            "APP.example.com:443",
        ] {
            assert!(policy.check(&headers(host, None)).is_ok(), "{host}");
        }
        for host in ["evil.example", "127.0.0.2", "0.0.0.0:80"] {
            assert!(policy.check(&headers(host, None)).is_err(), "{host}");
        }
        assert_eq!(
            policy.describe(),
            "localhost, 127.0.0.1, [::1], app.example.com"
        );
    }

    #[test]
    fn named_hosts_with_or_without_a_port() {
        let policy = policy("0.0.0.0:8080", &["mcp.example.com", "Other.example:9000"]);
        assert!(policy.check(&headers("mcp.example.com:8080", None)).is_ok());
        assert!(policy.check(&headers("other.example:9000", None)).is_ok());
        assert!(policy.check(&headers("other.example:9001", None)).is_err());
        // Named hosts replace "any address of this machine".
        assert!(policy.check(&headers("127.0.0.2", None)).is_err());
    }

    #[test]
    fn all_interfaces_with_no_names_accept_this_machines_addresses() {
        let policy = policy("0.0.0.0:8080", &[]);
        // 127.0.0.2 is a local address on Linux (all of 127/8 is), and not a
        // loopback *name*.
        if cfg!(target_os = "linux") {
            assert!(policy.check(&headers("127.0.0.2:8080", None)).is_ok());
        }
        assert!(policy.check(&headers("192.0.2.1:8080", None)).is_err());
        assert!(policy.check(&headers("0.0.0.0:8080", None)).is_err());
        assert!(
            policy
                .describe()
                .ends_with("and any IP address of this machine")
        );
    }

    #[test]
    fn origins_name_an_accepted_host_or_are_listed() {
        let policy = HostPolicy::new(
            Some("127.0.0.1:8080".parse().unwrap()),
            &[],
            &["https://app.example.com".to_owned()],
        )
        .unwrap();
        for origin in [
            "http://localhost:3000",
            "http://127.0.0.1:8080",
            "https://APP.example.com/",
        ] {
            assert!(
                policy.check(&headers("localhost", Some(origin))).is_ok(),
                "{origin}"
            );
        }
        for origin in [
            "https://evil.example",
            "null",
            "file://",
            "https://app.example.com:444",
        ] {
            assert!(
                policy.check(&headers("localhost", Some(origin))).is_err(),
                "{origin}"
            );
        }
    }

    #[test]
    fn bad_names_are_refused_at_start() {
        let error = HostPolicy::new(Some("0.0.0.0:1".parse().unwrap()), &["a b".to_owned()], &[]);
        assert!(error.is_err());
    }

    #[test]
    fn the_exact_values_are_accepted_by_the_full_check_too() {
        for (bound, named) in [
            ("127.0.0.1:8080", &[][..]),
            (
                "0.0.0.0:9000",
                &["mcp.example.com", "Other.Example:443"][..],
            ),
            ("[::1]:7000", &["[::1]:7000"][..]),
        ] {
            let policy = policy(bound, named);
            assert!(!policy.exact.is_empty());
            for exact in &policy.exact {
                let text = std::str::from_utf8(exact).unwrap();
                let name = Name::parse(text).unwrap();
                assert!(policy.accepts(&name, true), "{bound} {named:?}: {text}");
                let shouted = text.to_ascii_uppercase();
                assert!(policy.check(&headers(&shouted, None)).is_ok(), "{shouted}");
            }
        }
    }
}
