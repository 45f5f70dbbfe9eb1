//! An access token, checked here with no call to the authorization server:
//! a JWT whose signature verifies against the issuer's key set (fetched
//! from it, or a JWKS file), for this issuer and this resource, within its
//! lifetime (OAuth 2.1 section 5.2,
//! <https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-5.2>;
//! the audience as RFC 8707 binds it, which MCP requires:
//! <https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#token-handling>).
//! An opaque token goes to introspection, when it is configured.

use super::introspection::Introspection;
use super::issuer::IssuerKeys;
use super::keys::{CURVES, Key, KeySet, RSA};
use super::{KeySource, OAuthConfig, token_type};
use crate::watched::Watched;
use jsonwebtoken::errors::{Error, ErrorKind};
use jsonwebtoken::{Algorithm, Header, Validation};
use serde::Deserialize;
use std::sync::Arc;
use tool_core::executor::Caller;

/// Checks tokens against the current key set.
pub(in crate::http) struct Verifier {
    keys: Keys,
    /// Where opaque tokens are asked about, when anywhere.
    introspection: Option<Introspection>,
    /// The checks for a token signed with each accepted algorithm: built
    /// once, as each request needs one (issuer, audience and required
    /// claims are heap-allocated sets).
    validations: Vec<(Algorithm, Validation)>,
    /// The `typ` values accepted (compared as [`token_type`] writes
    /// them); `None`: any.
    token_types: Option<Vec<String>>,
    required_claims: Vec<(String, String)>,
}

/// Where the key set comes from.
enum Keys {
    File(Watched<KeySet>),
    Issuer(IssuerKeys),
}

/// Why a token is refused when no key of the set has its `kid`: with keys
/// from the issuer, the set is fetched again (it may have rotated).
const UNKNOWN_KID: &str = "no key of the authorization server's key set has the token's kid";

/// The claims read from a valid token (the checked ones, `iss`, `aud`,
/// `exp`, `nbf`, are checked by jsonwebtoken), or from an introspection
/// answer.
#[derive(Deserialize)]
pub(super) struct Claims {
    #[serde(default)]
    iss: Option<String>,
    #[serde(default)]
    sub: Option<String>,
    #[serde(default)]
    client_id: Option<String>,
    /// OpenID Connect's authorized party: the client, where `client_id` is
    /// not given.
    #[serde(default)]
    azp: Option<String>,
    /// RFC 9068 section 2.2.3: space-separated; some servers send a list,
    /// which is read the same.
    #[serde(default)]
    scope: Option<Scopes>,
    /// What some servers (Okta, Microsoft Entra) send instead: a list, or
    /// a space-separated string.
    #[serde(default)]
    scp: Option<Scopes>,
    /// Every other claim, for the required ones (kept only when some are).
    #[serde(flatten)]
    rest: serde_json::Map<String, serde_json::Value>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Scopes {
    List(Vec<String>),
    Text(String),
}

impl Verifier {
    /// Reads the JWKS file (an error when it has no usable key), or checks
    /// the issuer's URL and starts fetching its keys; reads the
    /// introspection credentials, when configured; sets up the checks.
    pub(in crate::http) fn new(
        config: &OAuthConfig,
        stale_limit: std::time::Duration,
    ) -> std::io::Result<Verifier> {
        // jsonwebtoken picks its crypto from its features, and panics at
        // the first token if two backends were both compiled in (another
        // crate of the application may ask for the other): say which.
        let _ = jsonwebtoken::crypto::aws_lc::DEFAULT_PROVIDER.install_default();
        let keys = match &config.keys {
            KeySource::File(path) => Keys::File(Watched::open(
                path,
                "the JWKS file",
                KeySet::parse,
                stale_limit,
            )?),
            KeySource::Issuer => Keys::Issuer(IssuerKeys::new(
                &config.issuer,
                config.key_refresh_interval,
                stale_limit,
            )?),
        };
        let introspection = match &config.introspection {
            Some(introspection) => Some(Introspection::new(config, introspection, stale_limit)?),
            None => None,
        };
        // Every asymmetric algorithm a key of the set may verify.
        let validations = RSA
            .into_iter()
            .chain(CURVES)
            .map(|algorithm| {
                let mut validation = Validation::new(algorithm);
                validation.set_required_spec_claims(&["exp", "iss", "aud"]);
                validation.set_issuer(&[&config.issuer]);
                validation.set_audience(&[&config.audience]);
                validation.validate_nbf = true;
                validation.leeway = config.leeway.as_secs();
                (algorithm, validation)
            })
            .collect();
        Ok(Verifier {
            keys,
            introspection,
            validations,
            token_types: config.token_types.clone(),
            required_claims: config.required_claims.clone(),
        })
    }

    /// The caller the token `presented` names, or why it is not accepted:
    /// a description for `error_description`, which never repeats the
    /// token or anything of its own (its `kid`, its claims).
    pub(in crate::http) async fn verify(&self, presented: &[u8]) -> Result<Caller, &'static str> {
        let Ok(token) = std::str::from_utf8(presented) else {
            return Err("the token is not a JWT");
        };
        let header = match jsonwebtoken::decode_header(token) {
            Ok(header) => header,
            Err(error) => {
                if let Some(introspection) = &self.introspection
                    && is_opaque(token, &error)
                {
                    return introspection.verify(token).await;
                }
                return Err(match error.kind() {
                    // Also `alg: none`, and any `alg` jsonwebtoken does not know.
                    ErrorKind::Json(_) | ErrorKind::InvalidAlgorithmName => {
                        "the token's header names no accepted signature algorithm \
                         (RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, EdDSA)"
                    }
                    _ => "the token is not a JWT",
                });
            }
        };
        if header.alg.family() == jsonwebtoken::AlgorithmFamily::Hmac {
            return Err("HMAC-signed tokens (HS256, HS384, HS512) are not accepted");
        }
        if let Some(types) = &self.token_types
            && !header
                .typ
                .as_deref()
                .is_some_and(|typ| types.contains(&token_type(typ)))
        {
            return Err("the token is not an access token (its typ is not at+jwt, RFC 9068)");
        }
        let keys = match &self.keys {
            Keys::File(watched) => watched.current().ok_or(
                "the authorization server's key set accepts no key now (the JWKS file is \
                 empty, gone, or unreadable for too long)",
            )?,
            Keys::Issuer(issuer) => issuer.current().await?,
        };
        let verdict = self.verify_against(&keys, token, &header);
        // The issuer may have rotated its keys since they were fetched.
        if verdict == Err(UNKNOWN_KID)
            && let Keys::Issuer(issuer) = &self.keys
            && let Some(refetched) = issuer.refetched().await
        {
            return self.verify_against(&refetched?, token, &header);
        }
        verdict
    }

    /// The token checked against the keys of `keys` it may be signed by.
    fn verify_against(
        &self,
        keys: &Arc<KeySet>,
        token: &str,
        header: &Header,
    ) -> Result<Caller, &'static str> {
        let candidates = keys.keys.iter().filter(|key| match &header.kid {
            Some(kid) => key.kid.as_deref() == Some(kid.as_str()),
            None => true,
        });
        let mut why = UNKNOWN_KID;
        for key in candidates {
            if why == UNKNOWN_KID {
                why = "the token's alg is not one its key verifies";
            }
            match self.verify_with(token, header, key) {
                Ok(claims) => {
                    check_required(&self.required_claims, &claims)?;
                    return Ok(caller(claims));
                }
                // Another key without a kid may be the one.
                Err(error)
                    if matches!(
                        error.kind(),
                        ErrorKind::InvalidSignature
                            | ErrorKind::InvalidAlgorithm
                            | ErrorKind::InvalidEcdsaKey
                            | ErrorKind::InvalidRsaKey(_)
                    ) =>
                {
                    if matches!(error.kind(), ErrorKind::InvalidSignature) {
                        why = "the token's signature does not verify";
                    }
                }
                Err(error) => return Err(description(error.kind())),
            }
        }
        Err(why)
    }

    fn verify_with(
        &self,
        token: &str,
        header: &Header,
        key: &Key,
    ) -> jsonwebtoken::errors::Result<Claims> {
        let validation = self
            .validations
            .iter()
            .find(|(algorithm, _)| *algorithm == header.alg)
            .filter(|_| key.algorithms.contains(&header.alg))
            .map(|(_, validation)| validation)
            .ok_or(ErrorKind::InvalidAlgorithm)?;
        jsonwebtoken::decode::<Claims>(token, &key.key, validation).map(|data| data.claims)
    }
}

/// Every required claim holds: a string equal to its value, or an array
/// holding it.
pub(super) fn check_required(
    required: &[(String, String)],
    claims: &Claims,
) -> Result<(), &'static str> {
    let holds = |name: &str, value: &str| {
        let found = match name {
            "iss" => claims.iss.as_deref().map(|iss| iss == value),
            "sub" => claims.sub.as_deref().map(|sub| sub == value),
            "client_id" => claims.client_id.as_deref().map(|id| id == value),
            "azp" => claims.azp.as_deref().map(|azp| azp == value),
            _ => None,
        };
        found.unwrap_or_else(|| match claims.rest.get(name) {
            Some(serde_json::Value::String(text)) => text == value,
            Some(serde_json::Value::Array(items)) => {
                items.iter().any(|item| item.as_str() == Some(value))
            }
            _ => false,
        })
    };
    if required.iter().all(|(name, value)| holds(name, value)) {
        Ok(())
    } else {
        Err("the token lacks a claim this server requires")
    }
}

/// Whether a token whose header could not be read is an opaque token
/// rather than a JWT refused: not three dot-separated parts, or a first
/// part that is not the base64url of a JSON object (every JWT header
/// starts `{"`, which encodes as `ey`).
fn is_opaque(token: &str, error: &Error) -> bool {
    matches!(error.kind(), ErrorKind::InvalidToken) || !token.starts_with("ey")
}

/// Why a token whose signature verified is refused.
fn description(kind: &ErrorKind) -> &'static str {
    match kind {
        ErrorKind::ExpiredSignature => "the token has expired",
        ErrorKind::ImmatureSignature => "the token is not valid yet (nbf)",
        ErrorKind::InvalidAudience => "the token is not for this resource (aud)",
        ErrorKind::InvalidIssuer => {
            "the token was not issued by this resource's authorization server (iss)"
        }
        ErrorKind::MissingRequiredClaim(claim) => match claim.as_str() {
            "exp" => "the token has no expiry (exp)",
            "iss" => "the token names no issuer (iss)",
            "aud" => "the token names no audience (aud)",
            _ => "the token lacks a required claim",
        },
        ErrorKind::InvalidClaimFormat(_) | ErrorKind::Json(_) => "the token's claims are malformed",
        _ => "the token is not valid",
    }
}

impl Scopes {
    fn into_names(self) -> Vec<String> {
        match self {
            Scopes::List(list) => list,
            Scopes::Text(text) => text
                .split(' ')
                .filter(|scope| !scope.is_empty())
                .map(str::to_owned)
                .collect(),
        }
    }
}

pub(super) fn caller(claims: Claims) -> Caller {
    let scopes: Vec<String> = [claims.scope, claims.scp]
        .into_iter()
        .flatten()
        .flat_map(Scopes::into_names)
        .collect();
    let mut caller = Caller::new().with_scopes(scopes);
    caller.subject = claims.sub;
    caller.client_id = claims.client_id.or(claims.azp);
    caller.issuer = claims.iss;
    caller
}
