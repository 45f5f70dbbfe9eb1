//! An access token, checked here with no call to the authorization server:
//! a JWT whose signature verifies against the JWKS, for this issuer and
//! this resource, within its lifetime (OAuth 2.1 section 5.2,
//! <https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-5.2>;
//! the audience as RFC 8707 binds it, which MCP requires:
//! <https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#token-handling>).

use super::{OAuthConfig, token_type};
use super::keys::{CURVES, Key, KeySet, RSA};
use crate::http::watched::Watched;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, Header, Validation};
use serde::Deserialize;
use tool_core::executor::Caller;

/// Checks tokens against the current key set.
pub(in crate::http) struct Verifier {
    keys: Watched<KeySet>,
    /// The checks for a token signed with each accepted algorithm: built
    /// once, as each request needs one (issuer, audience and required
    /// claims are heap-allocated sets).
    validations: Vec<(Algorithm, Validation)>,
    /// The `typ` values accepted (compared as [`token_type`] writes
    /// them); `None`: any.
    token_types: Option<Vec<String>>,
    required_claims: Vec<(String, String)>,
}

/// The claims read from a valid token (the checked ones, `iss`, `aud`,
/// `exp`, `nbf`, are checked by jsonwebtoken).
#[derive(Deserialize)]
struct Claims {
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
    /// Reads the JWKS file (an error when it has no usable key) and sets
    /// up the checks.
    pub(in crate::http) fn new(
        config: &OAuthConfig,
        stale_limit: std::time::Duration,
    ) -> std::io::Result<Verifier> {
        // jsonwebtoken picks its crypto from its features, and panics at
        // the first token if two backends were both compiled in (another
        // crate of the application may ask for the other): say which.
        let _ = jsonwebtoken::crypto::aws_lc::DEFAULT_PROVIDER.install_default();
        let keys = Watched::open(&config.jwks_file, "the JWKS file", KeySet::parse, stale_limit)?;
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
            validations,
            token_types: config.token_types.clone(),
            required_claims: config.required_claims.clone(),
        })
    }

    /// The caller a token names, or why it is not accepted: a description
    /// for `error_description`, which never repeats the token or anything
    /// of its own (its `kid`, its claims).
    pub(in crate::http) fn verify(&self, token: &str) -> Result<Caller, &'static str> {
        let header = jsonwebtoken::decode_header(token).map_err(|error| match error.kind() {
            // Also `alg: none`, and any `alg` jsonwebtoken does not know.
            ErrorKind::Json(_) | ErrorKind::InvalidAlgorithmName => {
                "the token's header names no accepted signature algorithm \
                 (RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, EdDSA)"
            }
            _ => "the token is not a JWT",
        })?;
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
        let Some(keys) = self.keys.current() else {
            return Err("the authorization server's key set accepts no key now (the JWKS file \
                 is empty, gone, or unreadable for too long)");
        };
        let candidates = keys.keys.iter().filter(|key| match &header.kid {
            Some(kid) => key.kid.as_deref() == Some(kid.as_str()),
            None => true,
        });
        let mut why = "no key of the authorization server's key set has the token's kid";
        for key in candidates {
            if why.starts_with("no key") {
                why = "the token's alg is not one its key verifies";
            }
            match self.verify_with(token, &header, key) {
                Ok(claims) => {
                    self.check_required(&claims)?;
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

    /// Every required claim holds: a string equal to its value, or an
    /// array holding it.
    fn check_required(&self, claims: &Claims) -> Result<(), &'static str> {
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
        if self
            .required_claims
            .iter()
            .all(|(name, value)| holds(name, value))
        {
            Ok(())
        } else {
            Err("the token lacks a claim this server requires")
        }
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

fn caller(claims: Claims) -> Caller {
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
