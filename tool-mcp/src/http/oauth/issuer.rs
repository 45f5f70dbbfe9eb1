//! The authorization server's keys, fetched from it: its metadata (RFC
//! 8414, <https://datatracker.ietf.org/doc/html/rfc8414>, or OpenID
//! Connect Discovery) names its `jwks_uri`, whose key set is kept for as
//! long as its `Cache-Control` says (within bounds), fetched again sooner
//! when a token names a key the set lacks (at most once per refresh
//! interval, so a flood of made-up `kid`s cannot hammer the issuer), and
//! kept while the issuer is briefly unreachable.
//!
//! The issuer decides as the JWKS file does: a set with no keys accepts no
//! token, at once; an issuer that cannot be reached, or answers something
//! that is not a key set, leaves the last good set in use for the stale
//! limit, with a warning each minute, then no token is accepted until it
//! answers again.
//!
//! A task of its own fetches, started on the tokio runtime the server is
//! built in (or by the first request, when it was built outside one), and
//! ended with the verifier. Requests never fetch: they wait, bounded, for
//! the first fetch, or for the one a new `kid` asked for.

use super::fetch;
use super::keys::KeySet;
use reqwest::Url;
use reqwest::header::ACCEPT;
use serde_json::Value;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};
use tokio::sync::{Notify, watch};
use tokio_util::sync::{CancellationToken, DropGuard};

/// How long a key set is kept when its answer says nothing of caching.
const DEFAULT_CACHE: Duration = Duration::from_secs(5 * 60);

/// The longest a key set is kept, whatever its `Cache-Control` says: a key
/// the issuer drops (a leaked one) stops being accepted within this time.
const MAX_CACHE: Duration = Duration::from_secs(60 * 60);

/// How long a request waits for a fetch (the first, or one a new `kid`
/// asked for): the metadata's well-known paths and the key set, each
/// within [`fetch::TIMEOUT`], usually much less.
const WAIT: Duration = Duration::from_secs(10);

/// How often an issuer that stays unreachable is warned about.
const WARN_EVERY: Duration = Duration::from_secs(60);

/// The keys of the issuer, kept current by the task.
pub(super) struct IssuerKeys {
    shared: Arc<Shared>,
    /// Set once the task is spawned.
    started: OnceLock<()>,
    stop: CancellationToken,
    /// Cancels `stop` when the verifier goes, which ends the task.
    _stop_when_dropped: DropGuard,
}

struct Shared {
    issuer: String,
    /// Where the metadata may be, in the order tried.
    metadata_urls: Vec<Url>,
    client: reqwest::Client,
    refresh_interval: Duration,
    stale_limit: Duration,
    state: Mutex<State>,
    /// Asks the task to fetch now (a new `kid`).
    nudge: Notify,
    /// How many fetches have ended, well or not: what waiting requests watch.
    fetches: watch::Sender<u64>,
}

#[derive(Default)]
struct State {
    /// `None`: no token is accepted now.
    keys: Option<Arc<KeySet>>,
    /// The key set's URL, once the metadata named it; forgotten when
    /// fetching it fails, so the metadata is read again.
    jwks_uri: Option<Url>,
    /// When the last fetch started.
    fetched_at: Option<Instant>,
    in_flight: bool,
    /// Since when fetches fail, if they do.
    failing_since: Option<Instant>,
    warned_at: Option<Instant>,
    /// The `kid`s of the set in use, to log a change once.
    kids: Option<Vec<Option<String>>>,
}

/// What one good fetch brought.
struct Fetched {
    /// `None`: the set has no keys.
    keys: Option<KeySet>,
    jwks_uri: Url,
    max_age: Option<Duration>,
}

impl IssuerKeys {
    /// Checks the issuer's URL and starts fetching, when a tokio runtime
    /// is at hand (else the first request starts it).
    pub(super) fn new(
        issuer: &str,
        refresh_interval: Duration,
        stale_limit: Duration,
    ) -> std::io::Result<IssuerKeys> {
        let invalid = |why: String| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("the OAuth issuer {issuer:?} {why}"),
            )
        };
        let url = fetch::checked_url(issuer).map_err(invalid)?;
        // RFC 8414 section 2: "a URL that uses the "https" scheme and has
        // no query or fragment components".
        if url.query().is_some() {
            return Err(invalid("must have no query (?...)".to_owned()));
        }
        if refresh_interval < super::OAuthConfig::MIN_KEY_REFRESH_INTERVAL {
            return Err(invalid(format!(
                "is asked for keys too often: the key refresh interval must be at least {} ms",
                super::OAuthConfig::MIN_KEY_REFRESH_INTERVAL.as_millis()
            )));
        }
        let client = fetch::client().map_err(invalid)?;
        let stop = CancellationToken::new();
        let keys = IssuerKeys {
            shared: Arc::new(Shared {
                issuer: issuer.to_owned(),
                metadata_urls: metadata_urls(&url),
                client,
                refresh_interval,
                stale_limit,
                state: Mutex::new(State::default()),
                nudge: Notify::new(),
                fetches: watch::Sender::new(0),
            }),
            started: OnceLock::new(),
            _stop_when_dropped: stop.clone().drop_guard(),
            stop,
        };
        keys.start();
        Ok(keys)
    }

    /// Spawns the task on the current tokio runtime, once; `false` when
    /// there is none.
    fn start(&self) -> bool {
        if self.started.get().is_some() {
            return true;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return false;
        };
        self.started.get_or_init(|| {
            runtime.spawn(refresh(Arc::clone(&self.shared), self.stop.clone()));
        });
        true
    }

    /// The key set in use, after the first fetch (waited for, within
    /// [`WAIT`]); or why no token is accepted now.
    pub(super) async fn current(&self) -> Result<Arc<KeySet>, &'static str> {
        if !self.start() {
            return Err(
                "the authorization server's keys are fetched on a tokio runtime, \
                 and there is none",
            );
        }
        let mut fetches = self.shared.fetches.subscribe();
        if *fetches.borrow_and_update() == 0 {
            let first = tokio::time::timeout(WAIT, fetches.wait_for(|count| *count > 0)).await;
            if first.is_err() {
                return Err("the authorization server's keys are still being fetched");
            }
        }
        self.shared.keys()
    }

    /// The key set again, after a token named a `kid` it lacks: fetched
    /// anew when no fetch started within the refresh interval (or joined
    /// when one is under way), and waited for within [`WAIT`]. `None` when
    /// it is too soon to ask the issuer again.
    pub(super) async fn refetched(&self) -> Option<Result<Arc<KeySet>, &'static str>> {
        let mut fetches = self.shared.fetches.subscribe();
        let seen = *fetches.borrow_and_update();
        {
            let mut state = self.shared.lock();
            if !state.in_flight {
                if state
                    .fetched_at
                    .is_some_and(|at| at.elapsed() < self.shared.refresh_interval)
                {
                    return None;
                }
                // Claimed here, so the other requests with new `kid`s
                // wait for this fetch instead of asking for more.
                state.fetched_at = Some(Instant::now());
                self.shared.nudge.notify_one();
            }
        }
        let ended = tokio::time::timeout(WAIT, fetches.wait_for(|count| *count > seen)).await;
        Some(match ended {
            Ok(_) => self.shared.keys(),
            Err(_) => Err("the authorization server's keys are still being fetched"),
        })
    }
}

/// The task: fetches, then waits until the key set's time is up (or, after
/// a failure, the refresh interval), or until a request asks.
async fn refresh(shared: Arc<Shared>, stop: CancellationToken) {
    loop {
        let wait = tokio::select! {
            () = stop.cancelled() => return,
            wait = shared.fetch() => wait,
        };
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(wait) => {}
            () = shared.nudge.notified() => {}
        }
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn keys(&self) -> Result<Arc<KeySet>, &'static str> {
        self.lock().keys.clone().ok_or(
            "the authorization server's key set accepts no key now (it is empty, or could not \
             be fetched for too long)",
        )
    }

    /// One fetch, its outcome kept; how long until the next.
    async fn fetch(&self) -> Duration {
        let jwks_uri = {
            let mut state = self.lock();
            state.in_flight = true;
            state.fetched_at = Some(Instant::now());
            state.jwks_uri.clone()
        };
        let fetched = self.fetch_keys(jwks_uri).await;
        let wait = {
            let mut state = self.lock();
            state.in_flight = false;
            match fetched {
                Ok(fetched) => self.fetched(&mut state, fetched),
                Err(error) => {
                    state.jwks_uri = None;
                    self.failing(&mut state, &error);
                    self.refresh_interval
                }
            }
        };
        self.fetches.send_modify(|count| *count += 1);
        wait
    }

    /// The key set, from `jwks_uri` or, not known yet, from where the
    /// metadata says.
    async fn fetch_keys(&self, jwks_uri: Option<Url>) -> Result<Fetched, String> {
        let jwks_uri = match jwks_uri {
            Some(uri) => uri,
            None => self.discover().await?,
        };
        let failed = |why: String| format!("its key set at {jwks_uri}: {why}");
        let response = self
            .client
            .get(jwks_uri.clone())
            .header(ACCEPT, "application/jwk-set+json, application/json")
            .send()
            .await
            .map_err(|error| failed(fetch::describe(error)))?;
        let status = response.status();
        if !status.is_success() {
            return Err(failed(format!("answered {status}")));
        }
        let max_age = fetch::max_age(response.headers());
        let body = fetch::body(response).await.map_err(failed)?;
        let keys = KeySet::parse(&body).map_err(failed)?;
        Ok(Fetched {
            keys,
            jwks_uri,
            max_age,
        })
    }

    /// The `jwks_uri` of the first metadata document, at the well-known
    /// paths in turn, that is this issuer's. A path that answers but not
    /// with that (404, another issuer's document) is passed for the next;
    /// one that cannot be reached ends the search.
    async fn discover(&self) -> Result<Url, String> {
        let mut passed = Vec::new();
        for url in &self.metadata_urls {
            let response = self
                .client
                .get(url.clone())
                .header(ACCEPT, "application/json")
                .send()
                .await
                .map_err(|error| format!("its metadata at {url}: {}", fetch::describe(error)))?;
            let status = response.status();
            let found = if status.is_success() {
                match fetch::body(response).await {
                    Ok(body) => self.jwks_uri_of(&body),
                    Err(why) => Err(why),
                }
            } else {
                Err(format!("answered {status}"))
            };
            match found {
                Ok(jwks_uri) => return Ok(jwks_uri),
                Err(why) => passed.push(format!("{url} {why}")),
            }
        }
        Err(format!(
            "no metadata document of it names its keys: {}",
            passed.join("; ")
        ))
    }

    /// The `jwks_uri` a metadata document names, if the document is this
    /// issuer's.
    fn jwks_uri_of(&self, body: &[u8]) -> Result<Url, String> {
        let document: Value = serde_json::from_slice(body)
            .map_err(|error| format!("answered what is not JSON ({error})"))?;
        // RFC 8414 section 3.3: "The "issuer" value returned MUST be
        // identical to the authorization server's issuer identifier value
        // into which the well-known URI string was inserted"; else the
        // document "MUST NOT be used" (a server naming another's keys).
        match document.get("issuer").and_then(Value::as_str) {
            Some(issuer) if issuer == self.issuer => {}
            Some(issuer) => {
                return Err(format!(
                    "names the issuer {issuer:?}, not {:?} (RFC 8414 section 3.3: they must be \
                     identical)",
                    self.issuer
                ));
            }
            None => return Err("names no issuer".to_owned()),
        }
        let Some(jwks_uri) = document.get("jwks_uri").and_then(Value::as_str) else {
            return Err("names no jwks_uri".to_owned());
        };
        fetch::checked_url(jwks_uri).map_err(|why| format!("names a jwks_uri that {why}"))
    }

    /// A good fetch: its key set is the one in use now; how long it is kept.
    fn fetched(&self, state: &mut State, fetched: Fetched) -> Duration {
        if state.failing_since.take().is_some() {
            tracing::info!("the OAuth issuer {}: answering again", self.issuer);
        }
        state.warned_at = None;
        let kids = fetched.keys.as_ref().map(|set| {
            set.keys
                .iter()
                .map(|key| key.kid.clone())
                .collect::<Vec<_>>()
        });
        if kids != state.kids || (state.keys.is_none() && fetched.keys.is_some()) {
            match &kids {
                Some(kids) => tracing::info!(
                    "the OAuth issuer {}: {} key(s) from {} (kid {:?})",
                    self.issuer,
                    kids.len(),
                    fetched.jwks_uri,
                    kids
                ),
                None => tracing::warn!(
                    "the OAuth issuer {}: its key set at {} has no keys: accepting no token \
                     until it has",
                    self.issuer,
                    fetched.jwks_uri
                ),
            }
        }
        state.kids = kids;
        state.keys = fetched.keys.map(Arc::new);
        state.jwks_uri = Some(fetched.jwks_uri);
        cache_time(fetched.max_age, self.refresh_interval)
    }

    /// A failed fetch: the last good set stays for the stale limit, with a
    /// warning each minute, then none is accepted.
    fn failing(&self, state: &mut State, error: &str) {
        let now = Instant::now();
        let since = *state.failing_since.get_or_insert(now);
        let expired = now.duration_since(since) >= self.stale_limit;
        if expired && state.keys.take().is_some() {
            state.kids = None;
            state.warned_at = Some(now);
            tracing::error!(
                "the OAuth issuer {}: {error}; unreachable or invalid for {} s, the most \
                 allowed: accepting no token until it answers",
                self.issuer,
                self.stale_limit.as_secs()
            );
            return;
        }
        if state
            .warned_at
            .is_some_and(|at| now.duration_since(at) < WARN_EVERY)
        {
            return;
        }
        state.warned_at = Some(now);
        if state.keys.is_some() {
            let left = self.stale_limit.saturating_sub(now.duration_since(since));
            tracing::warn!(
                "the OAuth issuer {}: {error}; keeping the last good keys for {} s more",
                self.issuer,
                left.as_secs()
            );
        } else {
            tracing::warn!(
                "the OAuth issuer {}: {error}; accepting no token until its keys are fetched",
                self.issuer
            );
        }
    }
}

/// How long a key set is kept: what its `Cache-Control` says (5 minutes
/// when nothing), within the refresh interval and an hour.
fn cache_time(max_age: Option<Duration>, refresh_interval: Duration) -> Duration {
    max_age
        .unwrap_or(DEFAULT_CACHE)
        .clamp(refresh_interval, MAX_CACHE.max(refresh_interval))
}

/// Where the metadata of `issuer` may be, in the order MCP clients try
/// them
/// (<https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-server-metadata-discovery>):
/// RFC 8414 section 3.1 puts the well-known path between the host and the
/// issuer's path (without its final `/`); OpenID Connect Discovery 1.0
/// section 4 appends it to the issuer.
fn metadata_urls(issuer: &Url) -> Vec<Url> {
    let path = issuer.path().trim_end_matches('/');
    let at = |path: String| {
        let mut url = issuer.clone();
        url.set_path(&path);
        url.set_query(None);
        url
    };
    if path.is_empty() {
        vec![
            at("/.well-known/oauth-authorization-server".to_owned()),
            at("/.well-known/openid-configuration".to_owned()),
        ]
    } else {
        vec![
            at(format!("/.well-known/oauth-authorization-server{path}")),
            at(format!("/.well-known/openid-configuration{path}")),
            at(format!("{path}/.well-known/openid-configuration")),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(issuer: &str) -> Vec<String> {
        metadata_urls(&Url::parse(issuer).unwrap())
            .into_iter()
            .map(String::from)
            .collect()
    }

    #[test]
    fn the_metadata_is_looked_for_where_rfc_8414_and_openid_put_it() {
        assert_eq!(
            urls("https://auth.example.com"),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration",
            ]
        );
        let with_path = [
            "https://auth.example.com:8443/.well-known/oauth-authorization-server/realms/mcp",
            "https://auth.example.com:8443/.well-known/openid-configuration/realms/mcp",
            "https://auth.example.com:8443/realms/mcp/.well-known/openid-configuration",
        ];
        assert_eq!(urls("https://auth.example.com:8443/realms/mcp"), with_path);
        // RFC 8414 section 3.1: a final `/` is removed first.
        assert_eq!(urls("https://auth.example.com:8443/realms/mcp/"), with_path);
    }

    #[test]
    fn a_key_set_is_kept_as_its_answer_says_within_bounds() {
        let interval = Duration::from_secs(30);
        assert_eq!(cache_time(None, interval), DEFAULT_CACHE);
        assert_eq!(
            cache_time(Some(Duration::from_secs(600)), interval),
            Duration::from_secs(600)
        );
        assert_eq!(cache_time(Some(Duration::ZERO), interval), interval);
        assert_eq!(
            cache_time(Some(Duration::from_secs(86_400)), interval),
            MAX_CACHE
        );
    }

    #[tokio::test]
    async fn an_issuer_that_cannot_be_fetched_from_is_refused_when_built() {
        let build =
            |issuer: &str| IssuerKeys::new(issuer, Duration::from_secs(30), Duration::ZERO).err();
        for (issuer, says) in [
            ("http://auth.example.com", "must be https"),
            ("https://auth.example.com/?tenant=1", "must have no query"),
            ("auth.example.com", "is not a URL"),
        ] {
            let error = build(issuer).expect(issuer).to_string();
            assert!(
                error.starts_with(&format!("the OAuth issuer {issuer:?} ")) && error.contains(says),
                "{error}"
            );
        }
        let often = IssuerKeys::new(
            "https://a.example",
            Duration::from_millis(1),
            Duration::ZERO,
        )
        .err()
        .unwrap();
        assert!(often.to_string().contains("at least 100 ms"), "{often}");
    }
}
