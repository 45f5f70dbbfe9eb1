//! Limits per caller: requests per second (GCRA), sessions open and
//! requests in flight, counted where every process serving a deployment
//! sees them (a [`QuotaStore`]: Redis through tool-redis), or in this
//! process's memory ([`MemoryQuotas`]) without one. Same code either way:
//! the gate asks the store.
//!
//! A caller is who the credentials say (an access token's subject, the
//! static token's holders), or without credentials the client's address:
//! the connection's, or with [`CallerLimits::trusted_proxies`] the one a
//! trusted proxy put in `X-Forwarded-For`.

use super::shared::{StateError, StateFuture};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A rate: `per_second` requests a second on average, and up to `burst`
/// at once after a quiet spell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// Requests a second, on average.
    pub per_second: u32,
    /// Requests allowed at once (at least 1).
    pub burst: u32,
}

impl Rate {
    /// GCRA's emission interval: the time one request uses up.
    pub fn interval(&self) -> Duration {
        Duration::from_nanos(1_000_000_000 / u64::from(self.per_second.max(1)))
    }

    /// How far ahead of now the theoretical arrival time may run: a burst
    /// of `burst` requests.
    pub fn tolerance(&self) -> Duration {
        self.interval() * self.burst.max(1)
    }
}

/// Where per-caller counts live. Each method is one atomic step (a Lua
/// script in Redis), so processes sharing the store cannot both take the
/// last place.
pub trait QuotaStore: Send + Sync + 'static {
    /// One request of `key` at `rate` (GCRA): `None` when admitted, or how
    /// long until one would be.
    fn admit<'a>(&'a self, key: &'a str, rate: Rate) -> StateFuture<'a, Option<Duration>>;

    /// A place for `holder` among `key`'s, at most `max` at once, held for
    /// `lease` from now (taking it again renews it). `false` when all are
    /// held. A place whose lease ran out is free again: a process that
    /// died does not hold its places for ever.
    fn acquire<'a>(
        &'a self,
        key: &'a str,
        holder: &'a str,
        max: u32,
        lease: Duration,
    ) -> StateFuture<'a, bool>;

    /// Gives `holder`'s place among `key`'s back.
    fn release<'a>(&'a self, key: &'a str, holder: &'a str) -> StateFuture<'a, ()>;

    /// The store, for people (and the log line when it fails).
    fn describe(&self) -> String;
}

/// The limits per caller, each off unless set:
/// [`McpHttp::with_caller_limits`](super::McpHttp::with_caller_limits).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallerLimits {
    /// Requests (JSON-RPC requests, and GETs of a stream) per second.
    pub rate: Option<Rate>,
    /// Sessions one caller may have open at once.
    pub sessions: Option<u32>,
    /// JSON-RPC requests one caller may have in flight at once.
    pub in_flight: Option<u32>,
    /// Proxies (an address, or a network as `10.0.0.0/8`) whose
    /// `X-Forwarded-For` names the client of an unauthenticated request.
    pub trusted_proxies: Vec<String>,
}

impl CallerLimits {
    /// No limit per caller.
    pub fn new() -> Self {
        Self::default()
    }

    /// At most `per_second` requests a second per caller, `burst` at once.
    pub fn rate(mut self, per_second: u32, burst: u32) -> Self {
        self.rate = Some(Rate { per_second, burst });
        self
    }

    /// At most `sessions` sessions open per caller.
    pub fn sessions(mut self, sessions: u32) -> Self {
        self.sessions = Some(sessions);
        self
    }

    /// At most `requests` JSON-RPC requests in flight per caller.
    pub fn in_flight(mut self, requests: u32) -> Self {
        self.in_flight = Some(requests);
        self
    }

    /// Trusts `X-Forwarded-For` from these proxies (addresses, or
    /// networks such as `10.0.0.0/8`): the rightmost address in it that is
    /// not itself a trusted proxy is the client.
    pub fn trusted_proxies(mut self, proxies: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.trusted_proxies
            .extend(proxies.into_iter().map(Into::into));
        self
    }

    /// Whether any limit is set.
    pub(super) fn any(&self) -> bool {
        self.rate.is_some() || self.sessions.is_some() || self.in_flight.is_some()
    }
}

/// A trusted proxy's network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Network {
    address: IpAddr,
    prefix: u8,
}

impl Network {
    /// `address` or `address/prefix`; an error naming what is wrong.
    pub(super) fn parse(text: &str) -> Result<Network, String> {
        let wrong = |why: &str| format!("trusted proxy {text:?}: {why}");
        let (address, prefix) = match text.split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text, None),
        };
        let address: IpAddr = address
            .trim()
            .parse()
            .map_err(|_| wrong("not an IP address (or network, as 10.0.0.0/8)"))?;
        let bits = if address.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => bits,
            Some(prefix) => prefix
                .trim()
                .parse::<u8>()
                .ok()
                .filter(|prefix| *prefix <= bits)
                .ok_or_else(|| wrong(&format!("the prefix length must be 0 to {bits}")))?,
        };
        Ok(Network { address, prefix })
    }

    fn contains(&self, address: IpAddr) -> bool {
        let (network, address, bits) = match (self.address, to_canonical(address)) {
            (IpAddr::V4(network), IpAddr::V4(address)) => (
                u128::from(u32::from(network)),
                u128::from(u32::from(address)),
                32,
            ),
            (IpAddr::V6(network), IpAddr::V6(address)) => {
                (u128::from(network), u128::from(address), 128)
            }
            _ => return false,
        };
        let shift = bits - u32::from(self.prefix);
        shift >= bits || (network >> shift) == (address >> shift)
    }
}

/// An IPv4 address mapped into IPv6 (`::ffff:a.b.c.d`) as IPv4.
fn to_canonical(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    }
}

/// The client's address: the connection's, unless it is a trusted proxy,
/// whose `X-Forwarded-For` is read from the right, past the trusted
/// proxies in it.
pub(super) fn client_address(
    peer: IpAddr,
    forwarded_for: Option<&str>,
    trusted: &[Network],
) -> IpAddr {
    let is_trusted = |address: IpAddr| trusted.iter().any(|network| network.contains(address));
    let peer = to_canonical(peer);
    if !is_trusted(peer) {
        return peer;
    }
    let Some(forwarded) = forwarded_for else {
        return peer;
    };
    let mut client = peer;
    for hop in forwarded.rsplit(',') {
        let Ok(address) = hop.trim().parse::<IpAddr>() else {
            // What a proxy would not write: stop at the last one known.
            return client;
        };
        client = to_canonical(address);
        if !is_trusted(client) {
            return client;
        }
    }
    client
}

/// The address of the connection a request came on, put in its extensions
/// by [`HttpServer`](super::HttpServer); an application mounting
/// [`McpHttp`](super::McpHttp) inserts it itself for per-address limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub SocketAddr);

/// The client's address as the gate found it (past trusted proxies), in
/// the request's extensions for the handler's audit line.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClientIp(pub IpAddr);

/// [`QuotaStore`] in this process's memory: what one process counts when
/// no shared store is given. Entries of callers that went quiet are
/// dropped as others arrive, so the maps hold only callers active within
/// their rate's tolerance or their leases.
#[derive(Debug, Default)]
pub struct MemoryQuotas {
    state: Mutex<Counts>,
}

#[derive(Debug, Default)]
struct Counts {
    /// GCRA's theoretical arrival time per key.
    arrivals: HashMap<String, Instant>,
    /// Each key's places: holder and lease end.
    places: HashMap<String, HashMap<String, Instant>>,
    /// When the maps were last swept.
    swept: Option<Instant>,
}

/// How often the maps are swept of what expired.
const SWEEP_EVERY: Duration = Duration::from_secs(10);

impl MemoryQuotas {
    /// Empty counts.
    pub fn new() -> Self {
        Self::default()
    }

    fn with<T>(&self, step: impl FnOnce(&mut Counts, Instant) -> T) -> Result<T, StateError> {
        let now = Instant::now();
        let mut counts = self
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if counts
            .swept
            .is_none_or(|swept| now.duration_since(swept) >= SWEEP_EVERY)
        {
            counts.arrivals.retain(|_, arrival| *arrival > now);
            counts.places.retain(|_, places| {
                places.retain(|_, until| *until > now);
                !places.is_empty()
            });
            counts.swept = Some(now);
        }
        Ok(step(&mut counts, now))
    }
}

impl QuotaStore for MemoryQuotas {
    fn admit<'a>(&'a self, key: &'a str, rate: Rate) -> StateFuture<'a, Option<Duration>> {
        let result = self.with(|counts, now| {
            let arrival = counts.arrivals.get(key).copied().unwrap_or(now).max(now);
            let next = arrival + rate.interval();
            let ahead = next - now;
            if ahead > rate.tolerance() {
                return Some(ahead - rate.tolerance());
            }
            counts.arrivals.insert(key.to_owned(), next);
            None
        });
        Box::pin(std::future::ready(result))
    }

    fn acquire<'a>(
        &'a self,
        key: &'a str,
        holder: &'a str,
        max: u32,
        lease: Duration,
    ) -> StateFuture<'a, bool> {
        let result = self.with(|counts, now| {
            let places = counts.places.entry(key.to_owned()).or_default();
            places.retain(|_, until| *until > now);
            if !places.contains_key(holder) && places.len() >= max as usize {
                return false;
            }
            places.insert(holder.to_owned(), now + lease);
            true
        });
        Box::pin(std::future::ready(result))
    }

    fn release<'a>(&'a self, key: &'a str, holder: &'a str) -> StateFuture<'a, ()> {
        let result = self.with(|counts, _| {
            if let Some(places) = counts.places.get_mut(key) {
                places.remove(holder);
                if places.is_empty() {
                    counts.places.remove(key);
                }
            }
        });
        Box::pin(std::future::ready(result))
    }

    fn describe(&self) -> String {
        "this process's memory".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block<T>(future: StateFuture<'_, T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(future)
            .unwrap()
    }

    #[test]
    fn a_burst_passes_then_the_rate_holds() {
        let quotas = MemoryQuotas::new();
        let rate = Rate {
            per_second: 10,
            burst: 3,
        };
        for n in 0..3 {
            assert_eq!(block(quotas.admit("alice", rate)), None, "request {n}");
        }
        let wait = block(quotas.admit("alice", rate)).expect("the fourth at once is refused");
        assert!(wait > Duration::ZERO && wait <= rate.interval(), "{wait:?}");
        // Another caller has its own.
        assert_eq!(block(quotas.admit("bob", rate)), None);
    }

    #[test]
    fn places_are_held_released_and_expire() {
        let quotas = MemoryQuotas::new();
        let long = Duration::from_secs(60);
        assert!(block(quotas.acquire("k", "a", 2, long)));
        assert!(block(quotas.acquire("k", "b", 2, long)));
        assert!(!block(quotas.acquire("k", "c", 2, long)));
        // Renewing one already held is not one more.
        assert!(block(quotas.acquire("k", "a", 2, long)));
        block(quotas.release("k", "a"));
        assert!(block(quotas.acquire("k", "c", 2, long)));
        // A lease that ran out frees its place.
        assert!(block(quotas.acquire(
            "short",
            "x",
            1,
            Duration::from_millis(1)
        )));
        std::thread::sleep(Duration::from_millis(5));
        assert!(block(quotas.acquire("short", "y", 1, long)));
    }

    #[test]
    fn networks_parse_and_contain() {
        let network = Network::parse("10.0.0.0/8").unwrap();
        assert!(network.contains("10.1.2.3".parse().unwrap()));
        assert!(network.contains("::ffff:10.1.2.3".parse().unwrap()));
        assert!(!network.contains("11.0.0.1".parse().unwrap()));
        assert!(
            Network::parse("0.0.0.0/0")
                .unwrap()
                .contains("8.8.8.8".parse().unwrap())
        );
        assert!(
            Network::parse("fd00::/8")
                .unwrap()
                .contains("fd12::1".parse().unwrap())
        );
        assert!(
            Network::parse("127.0.0.1")
                .unwrap()
                .contains("127.0.0.1".parse().unwrap())
        );
        for wrong in ["10.0.0.0/33", "nginx", "10.0.0.0/x", "::/129"] {
            let error = Network::parse(wrong).unwrap_err();
            assert!(error.contains(wrong), "{error}");
        }
    }

    #[test]
    fn forwarded_for_is_believed_only_from_a_trusted_proxy() {
        let trusted = [Network::parse("10.0.0.0/8").unwrap()];
        let proxy: IpAddr = "10.0.0.5".parse().unwrap();
        let stranger: IpAddr = "203.0.113.9".parse().unwrap();
        // A stranger's header is ignored.
        assert_eq!(
            client_address(stranger, Some("1.2.3.4"), &trusted),
            stranger
        );
        // A trusted proxy's names the client, rightmost untrusted first:
        // what a client wrote itself (leftmost) is not believed.
        assert_eq!(
            client_address(proxy, Some("6.6.6.6, 198.51.100.7, 10.0.0.9"), &trusted),
            "198.51.100.7".parse::<IpAddr>().unwrap()
        );
        assert_eq!(client_address(proxy, None, &trusted), proxy);
        assert_eq!(
            client_address(proxy, Some("garbage, 10.0.0.9"), &trusted),
            "10.0.0.9".parse::<IpAddr>().unwrap()
        );
    }
}
