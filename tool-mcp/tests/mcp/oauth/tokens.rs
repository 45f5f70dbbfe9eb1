//! What a client meets before a call: the protected resource metadata, the
//! 401 challenges, and every reason an access token is refused.

use super::signer::{AUDIENCE, ISSUER, SigningKey, claims, now, raw_token, write_jwks};
use super::{Fixture, LIST};
use crate::support::bounded;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::json;
use std::time::Duration;

const METADATA_URL: &str = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";

#[tokio::test]
async fn the_metadata_is_served_without_a_token_at_both_well_known_paths() {
    bounded(async {
        let fixture = Fixture::default().await;
        for path in [
            "/.well-known/oauth-protected-resource",
            "/.well-known/oauth-protected-resource/mcp",
        ] {
            let answer = fixture.get(path, None).await;
            assert_eq!(answer.status, 200, "{path}: {answer:?}");
            assert_eq!(
                answer.json(),
                json!({
                    "resource": AUDIENCE,
                    "authorization_servers": [ISSUER],
                    "scopes_supported": ["tools:read", "tools:write"],
                    "bearer_methods_supported": ["header"],
                })
            );
        }
        let other = fixture
            .get("/.well-known/oauth-protected-resource/other", None)
            .await;
        assert_eq!(other.status, 404, "{other:?}");
        // The Host check still holds (DNS rebinding).
        let rebound = fixture
            .get(
                "/.well-known/oauth-protected-resource",
                Some("evil.example"),
            )
            .await;
        assert_eq!(rebound.status, 403, "{rebound:?}");
        let posted = fixture
            .post_to("/.well-known/oauth-protected-resource", None, "{}", &[])
            .await;
        assert_eq!(posted.status, 405, "{posted:?}");
        fixture.server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_request_without_a_token_is_told_where_the_metadata_is() {
    bounded(async {
        let fixture = Fixture::default().await;
        let answer = fixture.post(None, LIST).await;
        assert_eq!(answer.status, 401, "{answer:?}");
        assert_eq!(
            answer.challenge.as_deref(),
            Some(
                format!(
                    r#"Bearer resource_metadata="{METADATA_URL}", scope="tools:read tools:write""#
                )
                .as_str()
            )
        );
        // Not a bearer token at all.
        let basic = fixture.post(Some("Basic YTpi"), LIST).await;
        assert_eq!(basic.status, 401, "{basic:?}");
        assert!(basic.challenge.unwrap().starts_with(&format!(
            r#"Bearer resource_metadata="{METADATA_URL}", error="invalid_token""#
        )),);
        fixture.server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn valid_es256_and_rs256_tokens_are_accepted_within_the_leeway() {
    bounded(async {
        let fixture = Fixture::default().await;
        for key in [&fixture.es, &fixture.rs] {
            let token = key.sign(&claims("tools:read tools:write"));
            let answer = fixture.with_token(&token, LIST).await;
            assert_eq!(answer.status, 200, "{:?}: {answer:?}", key.alg);
            assert_eq!(answer.tool_names(), ["change", "look"]);
        }
        // Expired 10 s ago, and valid from 10 s ahead: within the 30 s leeway.
        let mut skewed = claims("tools:read");
        skewed["exp"] = json!(now() - 10);
        skewed["nbf"] = json!(now() + 10);
        let answer = fixture.with_token(&fixture.es.sign(&skewed), LIST).await;
        assert_eq!(answer.status, 200, "{answer:?}");
        // `aud` as a list that contains this resource.
        let mut listed = claims("tools:read");
        listed["aud"] = json!(["https://other.example.com", AUDIENCE]);
        let answer = fixture.with_token(&fixture.rs.sign(&listed), LIST).await;
        assert_eq!(answer.status, 200, "{answer:?}");
        // No kid: any key of the set may have signed it.
        let mut no_kid = Header::new(Algorithm::ES256);
        no_kid.typ = Some("at+jwt".to_owned());
        let unnamed = fixture.es.sign_with(no_kid, &claims("tools:read"));
        let answer = fixture.with_token(&unnamed, LIST).await;
        assert_eq!(answer.status, 200, "{answer:?}");
        fixture.server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn each_bad_token_is_refused_saying_why_and_never_echoed() {
    bounded(async {
        let fixture = Fixture::default().await;
        let stranger = SigningKey::es256("es-1"); // the kid of a known key
        let unknown = SigningKey::es256("es-unknown");
        let with = |change: &dyn Fn(&mut serde_json::Value)| {
            let mut claims = claims("tools:read");
            change(&mut claims);
            fixture.es.sign(&claims)
        };
        let mut hs256 = Header::new(Algorithm::HS256);
        hs256.kid = Some("rs-1".to_owned());
        // The classic confusion: the public key used as an HMAC secret.
        let public_as_secret = serde_json::to_vec(&fixture.rs.jwk).unwrap();
        let confused = jsonwebtoken::encode(
            &hs256,
            &claims("tools:read"),
            &EncodingKey::from_secret(&public_as_secret).unwrap(),
        )
        .unwrap();
        let unsigned = raw_token(
            &json!({"alg": "none", "typ": "JWT"}),
            &claims("tools:read"),
            b"",
        );
        // A valid token's signature put on other claims.
        let genuine = fixture.es.sign(&claims("tools:read"));
        let forged_claims = fixture.es.sign(&claims("tools:read tools:write"));
        let mut parts: Vec<&str> = forged_claims.split('.').collect();
        parts[2] = genuine.split('.').nth(2).unwrap();
        let tampered = parts.join(".");

        let cases: Vec<(&str, String, &str)> = vec![
            ("expired", with(&|c| c["exp"] = json!(now() - 120)), "the token has expired"),
            ("not yet valid", with(&|c| c["nbf"] = json!(now() + 120)), "the token is not valid yet (nbf)"),
            ("wrong audience", with(&|c| c["aud"] = json!("https://other.example.com/mcp")), "the token is not for this resource (aud)"),
            ("no audience", with(&|c| { c.as_object_mut().unwrap().remove("aud"); }), "the token names no audience (aud)"),
            ("wrong issuer", with(&|c| c["iss"] = json!("https://evil.example.com")), "the token was not issued by this resource's authorization server (iss)"),
            ("no expiry", with(&|c| { c.as_object_mut().unwrap().remove("exp"); }), "the token has no expiry (exp)"),
            ("unknown kid", unknown.sign(&claims("tools:read")), "no key of the authorization server's key set has the token's kid"),
            ("known kid, another key", stranger.sign(&claims("tools:read")), "the token's signature does not verify"),
            ("tampered claims", tampered, "the token's signature does not verify"),
            ("alg none", unsigned, "the token's header names no accepted signature algorithm"),
            ("HS256, public key as secret", confused, "HMAC-signed tokens (HS256, HS384, HS512) are not accepted"),
            ("not a JWT", "abc".to_owned(), "the token is not a JWT"),
        ];
        for (case, token, why) in cases {
            let answer = fixture.with_token(&token, LIST).await;
            assert_eq!(answer.status, 401, "{case}: {answer:?}");
            let challenge = answer.challenge.clone().unwrap();
            let expected = format!(
                r#"Bearer resource_metadata="{METADATA_URL}", error="invalid_token", error_description="{why}"#
            );
            assert!(challenge.starts_with(&expected), "{case}: {challenge}");
            assert!(!challenge.contains(&token) && !answer.body.contains(&token), "{case}: echoed");
        }
        assert!(fixture.callers.lock().unwrap().is_empty(), "nothing ran");
        fixture.server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_token_in_the_query_string_is_refused() {
    bounded(async {
        let fixture = Fixture::default().await;
        let token = fixture.es.sign(&claims("tools:read"));
        let in_query = format!("/mcp?access_token={token}");
        for authorization in [None, Some(format!("Bearer {token}"))] {
            let answer = fixture
                .post_to(&in_query, authorization.as_deref(), LIST, &[])
                .await;
            assert_eq!(answer.status, 401, "{answer:?}");
            assert_eq!(
                answer.challenge.as_deref(),
                Some(
                    format!(
                        r#"Bearer resource_metadata="{METADATA_URL}", error="invalid_request", error_description="send the access token in the Authorization header, not in the query string""#
                    )
                    .as_str()
                )
            );
        }
        fixture.server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_rotated_key_set_is_used_without_a_restart() {
    bounded(async {
        let fixture = Fixture::default().await;
        let old = fixture.es.sign(&claims("tools:read"));
        assert_eq!(fixture.with_token(&old, LIST).await.status, 200);

        let next = SigningKey::es256("es-2");
        let new = next.sign(&claims("tools:read"));
        assert_eq!(fixture.with_token(&new, LIST).await.status, 401, "not yet");
        write_jwks(&fixture.jwks, &[&next, &fixture.rs]);
        // The file is looked at, at most once a second.
        tokio::time::sleep(Duration::from_millis(1100)).await;
        let answer = fixture.with_token(&new, LIST).await;
        assert_eq!(answer.status, 200, "{answer:?}");
        let answer = fixture.with_token(&old, LIST).await;
        assert_eq!(answer.status, 401, "the old key is gone: {answer:?}");

        // A broken file keeps the last good set (within the stale limit).
        std::fs::write(&fixture.jwks, "{\"keys\": [").unwrap();
        tokio::time::sleep(Duration::from_millis(1100)).await;
        let answer = fixture.with_token(&new, LIST).await;
        assert_eq!(answer.status, 200, "{answer:?}");
        fixture.server.stop().await;
    })
    .await;
}

/// The key set decides: emptied (`{"keys":[]}`) or deleted, no token is
/// accepted, at once (revoking a leaked key needs no restart); a broken
/// file keeps the last good set for the stale limit only, then accepts
/// nothing; a good file is read again.
#[tokio::test]
async fn an_emptied_deleted_or_long_broken_key_set_accepts_nothing() {
    bounded(async {
        let fixture = Fixture::start(
            |config| config,
            |http| {
                http.stateless()
                    .with_credential_stale_limit(Duration::from_millis(1500))
            },
        )
        .await;
        let token = fixture.es.sign(&claims("tools:read"));
        let look = || fixture.with_token(&token, LIST);
        let after_a_look = || tokio::time::sleep(Duration::from_millis(1100));
        assert_eq!(look().await.status, 200);

        std::fs::write(&fixture.jwks, r#"{"keys": []}"#).unwrap();
        after_a_look().await;
        let refused = look().await;
        assert_eq!(refused.status, 401, "{refused:?}");
        assert!(
            refused
                .challenge
                .as_deref()
                .unwrap_or_default()
                .contains("accepts no key now"),
            "{refused:?}"
        );

        write_jwks(&fixture.jwks, &[&fixture.es, &fixture.rs]);
        after_a_look().await;
        assert_eq!(look().await.status, 200, "a good file is read again");

        std::fs::remove_file(&fixture.jwks).unwrap();
        after_a_look().await;
        assert_eq!(look().await.status, 401, "deleted");

        write_jwks(&fixture.jwks, &[&fixture.es, &fixture.rs]);
        after_a_look().await;
        assert_eq!(look().await.status, 200);

        // Broken: kept for the stale limit (1.5 s here), then nothing.
        std::fs::write(&fixture.jwks, "{\"keys\": [").unwrap();
        after_a_look().await;
        assert_eq!(look().await.status, 200, "within the stale limit");
        tokio::time::sleep(Duration::from_millis(1600)).await;
        let stale = look().await;
        assert_eq!(stale.status, 401, "past the stale limit: {stale:?}");
        fixture.server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_configuration_that_cannot_work_is_refused_at_start() {
    bounded(async {
        let dir = super::signer::TempDir::new("config");
        let tools = tool_core::ToolRegistry::new();
        let missing = dir.join("missing.json");
        let server = tool_mcp::HttpServer::bind(tools, "127.0.0.1:0".parse().unwrap())
            .await
            .unwrap()
            .with_oauth(tool_mcp::OAuthConfig::new(ISSUER, AUDIENCE, &missing));
        let error = server
            .run(tokio_util::sync::CancellationToken::new())
            .await
            .unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with(&format!("the JWKS file {}: ", missing.display())),
            "{error}"
        );

        let jwks = dir.join("jwks.json");
        std::fs::write(&jwks, r#"{"keys": [{"kty": "oct", "k": "c2VjcmV0"}]}"#).unwrap();
        let server = tool_mcp::HttpServer::bind(
            tool_core::ToolRegistry::new(),
            "127.0.0.1:0".parse().unwrap(),
        )
        .await
        .unwrap()
        .with_oauth(tool_mcp::OAuthConfig::new(ISSUER, AUDIENCE, &jwks));
        let error = server
            .run(tokio_util::sync::CancellationToken::new())
            .await
            .unwrap_err();
        assert!(
            error.to_string().contains("no usable signing key"),
            "{error}"
        );

        let server = tool_mcp::HttpServer::bind(
            tool_core::ToolRegistry::new(),
            "127.0.0.1:0".parse().unwrap(),
        )
        .await
        .unwrap()
        .with_oauth(tool_mcp::OAuthConfig::new(ISSUER, "mcp.example.com", &jwks));
        let error = server
            .run(tokio_util::sync::CancellationToken::new())
            .await
            .unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("the audience \"mcp.example.com\""),
            "{error}"
        );
    })
    .await;
}

/// RFC 9068, section 2.1: a resource server refuses a JWT whose `typ` is
/// not `at+jwt` (an ID token signed by the same issuer is not an access
/// token), unless configured for an issuer that does not follow it.
#[tokio::test]
async fn only_access_tokens_are_accepted_unless_configured() {
    bounded(async {
        let fixture = Fixture::default().await;
        let with_typ = |typ: Option<&str>| {
            let mut header = Header::new(Algorithm::ES256);
            header.kid = Some(fixture.es.kid().to_owned());
            header.typ = typ.map(str::to_owned);
            fixture.es.sign_with(header, &claims("tools:read"))
        };
        for typ in [Some("JWT"), None, Some("id+jwt")] {
            let refused = fixture.with_token(&with_typ(typ), LIST).await;
            assert_eq!(refused.status, 401, "{typ:?}: {refused:?}");
            assert!(
                refused
                    .challenge
                    .as_deref()
                    .unwrap()
                    .contains("not an access token"),
                "{refused:?}"
            );
        }
        for typ in ["at+jwt", "application/at+JWT"] {
            assert_eq!(
                fixture.with_token(&with_typ(Some(typ)), LIST).await.status,
                200,
                "{typ}"
            );
        }
        fixture.server.stop().await;

        let lenient = Fixture::start(
            |config| config.with_token_types(["at+jwt", "JWT"]),
            tool_mcp::HttpServer::stateless,
        )
        .await;
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(lenient.es.kid().to_owned());
        let jwt = lenient.es.sign_with(header.clone(), &claims("tools:read"));
        assert_eq!(
            lenient.with_token(&jwt, LIST).await.status,
            200,
            "typ JWT configured"
        );
        header.typ = None;
        let untyped = lenient.es.sign_with(header, &claims("tools:read"));
        assert_eq!(
            lenient.with_token(&untyped, LIST).await.status,
            401,
            "no typ"
        );
        lenient.server.stop().await;

        let any = Fixture::start(
            |config| config.with_any_token_type(),
            tool_mcp::HttpServer::stateless,
        )
        .await;
        assert_eq!(
            any.with_token(&untyped_for(&any), LIST).await.status,
            200,
            "any type"
        );
        any.server.stop().await;
    })
    .await;
}

fn untyped_for(fixture: &Fixture) -> String {
    let mut header = Header::new(Algorithm::ES256);
    header.kid = Some(fixture.es.kid().to_owned());
    header.typ = None;
    fixture.es.sign_with(header, &claims("tools:read"))
}

/// `scope` as a JSON array (some servers send one) is read as the string
/// form is, not a reason to refuse the whole token; a required claim is
/// checked before the scopes (a string equal to it, or an array holding
/// it), and a token without it is refused.
#[tokio::test]
async fn scopes_as_an_array_and_required_claims() {
    bounded(async {
        let fixture = Fixture::start(
            |config| {
                config
                    .with_required_claim("azp", "agent-7")
                    .with_required_claim("groups", "mcp-users")
            },
            tool_mcp::HttpServer::stateless,
        )
        .await;
        let mut token = claims("");
        token["scope"] = json!(["tools:read", "tools:write"]);
        token["azp"] = json!("agent-7");
        token["groups"] = json!(["staff", "mcp-users"]);
        let answer = fixture.with_token(&fixture.es.sign(&token), LIST).await;
        assert_eq!(answer.status, 200, "{answer:?}");
        assert_eq!(
            answer.tool_names(),
            ["change", "look"],
            "both scopes read from the array"
        );

        for (name, value) in [
            ("azp", json!("agent-8")),
            ("groups", json!(["staff"])),
            ("groups", json!("staff")),
            ("azp", json!(null)),
        ] {
            let mut lacking = token.clone();
            lacking[name] = value.clone();
            let refused = fixture.with_token(&fixture.es.sign(&lacking), LIST).await;
            assert_eq!(refused.status, 401, "{name}={value}: {refused:?}");
            assert!(
                refused
                    .challenge
                    .as_deref()
                    .unwrap()
                    .contains("the token lacks a claim this server requires"),
                "{refused:?}"
            );
        }
        fixture.server.stop().await;
    })
    .await;
}
