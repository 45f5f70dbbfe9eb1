//! An opaque access token (not a JWT), asked about at the authorization
//! server's introspection endpoint (RFC 7662,
//! <https://datatracker.ietf.org/doc/html/rfc7662>): `POST` of the token as
//! a form, this server authenticated as a client with its credentials
//! (RFC 6749 section 2.3.1's HTTP Basic, which every authorization server
//! supports), and the answer's `active`, lifetime, issuer and audience
//! checked as a JWT's claims would be.
//!
//! Answers are kept, by the token's SHA-256 (the token itself is never
//! kept), until the token expires and at most the cache limit: RFC 7662
//! section 4 leaves the trade-off to the resource server, a revoked token
//! being accepted until its answer is asked for again.

use super::fetch;
use super::token::{Claims, caller, check_required};
use crate::watched::Watched;
use reqwest::Url;
use reqwest::header::{ACCEPT, CONTENT_TYPE};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tool_core::executor::Caller;

/// The most answers kept: a flood of made-up tokens fills the cache with
/// their refusals, not the memory.
const MAX_CACHED: usize = 10_000;

/// The longest token sent: an opaque token is a few dozen characters, and
/// a longer one is not worth a request.
const MAX_TOKEN: usize = 4096;

/// This server's client credentials at the authorization server.
pub(super) struct ClientCredentials {
    id: String,
    secret: String,
}

impl ClientCredentials {
    /// `CLIENT_ID:CLIENT_SECRET` on one line (the id cannot hold a `:`, as
    /// in HTTP Basic; the secret can); an empty file gives none (nothing
    /// is introspected, so no opaque token is accepted).
    fn parse(bytes: &[u8]) -> Result<Option<ClientCredentials>, String> {
        let text = std::str::from_utf8(bytes).map_err(|_| "it is not UTF-8".to_owned())?;
        let text = text.trim();
        if text.is_empty() {
            return Ok(None);
        }
        match text.split_once(':') {
            Some((id, secret))
                if !id.is_empty() && !secret.is_empty() && !text.contains(['\n', '\r']) =>
            {
                Ok(Some(ClientCredentials {
                    id: id.to_owned(),
                    secret: secret.to_owned(),
                }))
            }
            _ => Err("it must hold CLIENT_ID:CLIENT_SECRET on one line".to_owned()),
        }
    }
}

/// What introspection checks an answer against, and where it asks.
pub(super) struct Introspection {
    url: Url,
    credentials: Watched<ClientCredentials>,
    client: reqwest::Client,
    issuer: String,
    audience: String,
    leeway: Duration,
    required_claims: Vec<(String, String)>,
    cache_limit: Duration,
    cache: Mutex<HashMap<[u8; 32], Cached>>,
}

/// An answer as checked, and until when it holds.
struct Cached {
    verdict: Result<Caller, &'static str>,
    until: Instant,
}

impl Introspection {
    /// Checks the endpoint's URL and reads the credentials file (an error
    /// naming what is wrong with either).
    pub(super) fn new(
        config: &super::OAuthConfig,
        introspection: &super::IntrospectionConfig,
        stale_limit: Duration,
    ) -> std::io::Result<Introspection> {
        let invalid = |why: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, why);
        let url = fetch::checked_url(&introspection.url).map_err(|why| {
            invalid(format!(
                "the introspection URL {:?} {why}",
                introspection.url
            ))
        })?;
        let credentials = Watched::open(
            &introspection.credentials_file,
            "the introspection credentials file",
            ClientCredentials::parse,
            stale_limit,
        )?;
        Ok(Introspection {
            url,
            credentials,
            client: fetch::client().map_err(invalid)?,
            issuer: config.issuer.clone(),
            audience: config.audience.clone(),
            leeway: config.leeway,
            required_claims: config.required_claims.clone(),
            cache_limit: config.introspection_cache_limit,
            cache: Mutex::new(HashMap::new()),
        })
    }

    /// The caller an opaque token names, or why it is not accepted: the
    /// answer kept for it, or the authorization server's.
    pub(super) async fn verify(&self, token: &str) -> Result<Caller, &'static str> {
        if token.len() > MAX_TOKEN {
            return Err("the token is neither a JWT nor an opaque token of a usual length");
        }
        let key = digest(token);
        if let Some(cached) = self.cache().get(&key)
            && cached.until > Instant::now()
        {
            return cached.verdict.clone();
        }
        let answer = self.ask(token).await.map_err(|error| {
            tracing::warn!(
                "token introspection at {} failed: {error}; the token is refused",
                self.url
            );
            "the token could not be introspected (the authorization server did not answer \
             as expected)"
        })?;
        let (verdict, keep) = self.check(answer, unix_now());
        self.keep(key, verdict.clone(), keep);
        verdict
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, HashMap<[u8; 32], Cached>> {
        self.cache.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps a verdict for `keep`; when the cache is full, first without
    /// the answers whose time is up, then without the one ending soonest.
    fn keep(&self, key: [u8; 32], verdict: Result<Caller, &'static str>, keep: Duration) {
        if keep.is_zero() {
            return;
        }
        let now = Instant::now();
        let mut cache = self.cache();
        if cache.len() >= MAX_CACHED {
            cache.retain(|_, cached| cached.until > now);
        }
        if cache.len() >= MAX_CACHED
            && let Some(soonest) = cache
                .iter()
                .min_by_key(|(_, cached)| cached.until)
                .map(|(key, _)| *key)
        {
            cache.remove(&soonest);
        }
        cache.insert(
            key,
            Cached {
                verdict,
                until: now + keep,
            },
        );
    }

    /// The authorization server's answer about `token` (RFC 7662 section
    /// 2.1: `token`, and `token_type_hint` to spare it a search), or what
    /// went wrong.
    async fn ask(&self, token: &str) -> Result<Map<String, Value>, String> {
        let Some(credentials) = self.credentials.current() else {
            return Err("the introspection credentials file holds no credentials now".to_owned());
        };
        let body = format!(
            "token={}&token_type_hint=access_token",
            fetch::form_encoded(token.as_bytes())
        );
        let response = self
            .client
            .post(self.url.clone())
            // RFC 6749 section 2.3.1: each form-encoded, then HTTP Basic.
            .basic_auth(
                fetch::form_encoded(credentials.id.as_bytes()),
                Some(fetch::form_encoded(credentials.secret.as_bytes())),
            )
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(ACCEPT, "application/json")
            .body(body)
            .send()
            .await
            .map_err(fetch::describe)?;
        let status = response.status();
        if !status.is_success() {
            return Err(format!("it answered {status}"));
        }
        let body = fetch::body(response).await?;
        match serde_json::from_slice(&body) {
            Ok(Value::Object(answer)) => Ok(answer),
            _ => Err("its answer is not a JSON object".to_owned()),
        }
    }

    /// What an answer allows (RFC 7662 section 2.2), and how long that
    /// holds: until the token expires, within the cache limit.
    fn check(
        &self,
        answer: Map<String, Value>,
        now: u64,
    ) -> (Result<Caller, &'static str>, Duration) {
        let keep = match answer.get("exp").and_then(Value::as_u64) {
            Some(exp) => self
                .cache_limit
                .min(Duration::from_secs(exp.saturating_sub(now))),
            None => self.cache_limit,
        };
        (self.allows(answer, now), keep)
    }

    fn allows(&self, answer: Map<String, Value>, now: u64) -> Result<Caller, &'static str> {
        if answer.get("active") != Some(&Value::Bool(true)) {
            return Err("the token is not active (its introspection says so)");
        }
        let leeway = self.leeway.as_secs();
        let time = |name: &str| answer.get(name).and_then(Value::as_u64);
        if time("exp").is_some_and(|exp| exp.saturating_add(leeway) <= now) {
            return Err("the token has expired");
        }
        if time("nbf").is_some_and(|nbf| nbf > now.saturating_add(leeway)) {
            return Err("the token is not valid yet (nbf)");
        }
        match answer.get("iss") {
            None => {}
            Some(Value::String(iss)) if *iss == self.issuer => {}
            Some(_) => {
                return Err(
                    "the token was not issued by this resource's authorization server (iss)",
                );
            }
        }
        // MCP: a server "MUST validate that access tokens were issued
        // specifically for them as the intended audience"; an answer
        // without `aud` cannot show that.
        let for_us = match answer.get("aud") {
            Some(Value::String(aud)) => *aud == self.audience,
            Some(Value::Array(auds)) => auds.iter().any(|aud| aud.as_str() == Some(&self.audience)),
            _ => false,
        };
        if !for_us {
            return Err("the token is not for this resource (aud)");
        }
        let claims: Claims = serde_json::from_value(Value::Object(answer))
            .map_err(|_| "the token's introspection is malformed")?;
        check_required(&self.required_claims, &claims)?;
        let mut caller = caller(claims);
        caller.issuer.get_or_insert_with(|| self.issuer.clone());
        Ok(caller)
    }
}

/// The key an answer is kept under: the token's SHA-256, so the cache
/// holds nothing that could be presented.
fn digest(token: &str) -> [u8; 32] {
    let digest = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, token.as_bytes());
    let mut key = [0; 32];
    key.copy_from_slice(digest.as_ref());
    key
}

/// Seconds since the epoch, as `exp` counts them.
fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OAuthConfig;
    use serde_json::json;
    use std::path::Path;

    fn read(path: &Path) -> Result<Option<ClientCredentials>, String> {
        ClientCredentials::parse(&std::fs::read(path).map_err(|error| error.to_string())?)
    }

    fn introspection(dir: &Path) -> Introspection {
        let file = dir.join("credentials");
        std::fs::write(&file, "mcp:s3cret\n").unwrap();
        let config = OAuthConfig::new(
            "https://auth.example.com",
            "https://mcp.example.com/mcp",
            "k",
        )
        .with_introspection("https://auth.example.com/introspect", &file)
        .with_required_claim("tenant", "blue");
        let introspection = config.introspection.as_ref().unwrap();
        Introspection::new(&config, introspection, Duration::from_secs(60)).unwrap()
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "tool-mcp-introspection-{name}-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn credentials_are_an_id_and_a_secret_on_one_line() {
        let dir = scratch("credentials");
        let file = dir.join("credentials");
        std::fs::write(&file, " mcp-server:s3:cret \n").unwrap();
        let credentials = read(&file).unwrap().unwrap();
        assert_eq!(
            (&*credentials.id, &*credentials.secret),
            ("mcp-server", "s3:cret")
        );
        std::fs::write(&file, "\n").unwrap();
        assert!(read(&file).unwrap().is_none(), "empty: none");
        for bad in ["no-colon", ":secret", "id:", "id:secret\nmore"] {
            std::fs::write(&file, bad).unwrap();
            assert!(read(&file).is_err(), "{bad:?}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_answer_allows_only_an_active_token_for_this_resource_and_is_kept_until_it_expires() {
        let dir = scratch("answers");
        let introspection = introspection(&dir);
        let now = 1_000_000;
        let good = json!({
            "active": true, "iss": "https://auth.example.com",
            "aud": ["https://other.example", "https://mcp.example.com/mcp"],
            "sub": "alice", "client_id": "agent-7", "scope": "tools:read files:read",
            "tenant": "blue", "exp": now + 30,
        });
        let answer = |change: &dyn Fn(&mut Value)| {
            let mut answer = good.clone();
            change(&mut answer);
            let Value::Object(answer) = answer else {
                unreachable!()
            };
            introspection.check(answer, now)
        };
        let (verdict, keep) = answer(&|_| {});
        let caller = verdict.unwrap();
        assert_eq!(caller.subject.as_deref(), Some("alice"));
        assert_eq!(caller.client_id.as_deref(), Some("agent-7"));
        assert_eq!(caller.scopes, ["tools:read", "files:read"]);
        assert_eq!(keep, Duration::from_secs(30), "until it expires");
        let (_, keep) = answer(&|answer| answer["exp"] = json!(now + 3600));
        assert_eq!(
            keep,
            OAuthConfig::DEFAULT_INTROSPECTION_CACHE_LIMIT,
            "within the limit"
        );
        let (verdict, _) = answer(&|answer| {
            answer.as_object_mut().unwrap().remove("iss");
        });
        assert_eq!(
            verdict.unwrap().issuer.as_deref(),
            Some("https://auth.example.com"),
            "the issuer asked"
        );
        for (change, why) in [
            (
                &(|answer: &mut Value| answer["active"] = json!(false)) as &dyn Fn(&mut Value),
                "the token is not active (its introspection says so)",
            ),
            (
                &|answer| answer["active"] = json!("true"),
                "the token is not active (its introspection says so)",
            ),
            (
                &|answer| answer["exp"] = json!(now - 31),
                "the token has expired",
            ),
            (
                &|answer| answer["nbf"] = json!(now + 31),
                "the token is not valid yet (nbf)",
            ),
            (
                &|answer| answer["iss"] = json!("https://evil.example"),
                "the token was not issued by this resource's authorization server (iss)",
            ),
            (
                &|answer| answer["aud"] = json!("https://other.example"),
                "the token is not for this resource (aud)",
            ),
            (
                &|answer| {
                    answer.as_object_mut().unwrap().remove("aud");
                },
                "the token is not for this resource (aud)",
            ),
            (
                &|answer| answer["tenant"] = json!("red"),
                "the token lacks a claim this server requires",
            ),
        ] {
            assert_eq!(answer(change).0.unwrap_err(), why);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_full_cache_drops_what_ends_soonest() {
        let dir = scratch("full");
        let introspection = introspection(&dir);
        for n in 0..MAX_CACHED {
            let keep = Duration::from_secs(60 + n as u64);
            introspection.keep(digest(&n.to_string()), Err("no"), keep);
        }
        introspection.keep(digest("new"), Err("no"), Duration::from_secs(1));
        let cache = introspection.cache();
        assert_eq!(cache.len(), MAX_CACHED);
        assert!(cache.contains_key(&digest("new")));
        assert!(!cache.contains_key(&digest("0")), "the soonest went");
        drop(cache);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
