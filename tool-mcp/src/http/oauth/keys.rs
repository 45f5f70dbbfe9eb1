//! The authorization server's public keys, from a JWKS document (RFC 7517
//! section 5): each signing key with the algorithms it may verify. Keys
//! this server cannot or must not use (encryption keys, symmetric `oct`
//! keys, unknown types) are left out with a warning, so one odd key does
//! not stop the others from working.

use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, KeyAlgorithm, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};
use serde_json::Value;

/// One key: its `kid`, the key itself, and the algorithms it verifies.
pub(super) struct Key {
    pub kid: Option<String>,
    pub key: DecodingKey,
    pub algorithms: Vec<Algorithm>,
}

/// Every usable key of a JWKS document.
pub(super) struct KeySet {
    pub keys: Vec<Key>,
}

impl KeySet {
    /// Reads a JWKS document: at least one usable key, or an error saying
    /// why none is.
    /// The usable keys of a JWKS document; `None` for a set with no keys
    /// at all (the issuer's word that no key is good now: nothing is
    /// accepted), an error for a document that is not a key set or whose
    /// keys are all unusable (a mistake, not a revocation).
    pub(super) fn parse(bytes: &[u8]) -> Result<Option<KeySet>, String> {
        let document: Value = serde_json::from_slice(bytes)
            .map_err(|error| format!("not a JWKS document (not JSON: {error})"))?;
        let Some(entries) = document.get("keys").and_then(Value::as_array) else {
            return Err("not a JWKS document: no \"keys\" array".to_owned());
        };
        let mut keys = Vec::with_capacity(entries.len());
        let mut skipped = Vec::new();
        for (index, entry) in entries.iter().enumerate() {
            match usable(entry) {
                Ok(key) => keys.push(key),
                Err(why) => skipped.push(format!("keys[{index}]: {why}")),
            }
        }
        if entries.is_empty() {
            return Ok(None);
        }
        if keys.is_empty() {
            return Err(format!("no usable signing key ({})", skipped.join("; ")));
        }
        for why in skipped {
            tracing::warn!("JWKS key left out: {why}");
        }
        Ok(Some(KeySet { keys }))
    }
}

/// The key of one JWK entry, or why it is left out.
/// What an RSA key verifies: PKCS#1 v1.5 and PSS signatures.
pub(super) const RSA: [Algorithm; 6] = [
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
];

/// What an elliptic-curve key (P-256, P-384) or an Ed25519 key verifies.
pub(super) const CURVES: [Algorithm; 3] = [Algorithm::ES256, Algorithm::ES384, Algorithm::EdDSA];

fn usable(entry: &Value) -> Result<Key, String> {
    let jwk: Jwk = serde_json::from_value(entry.clone())
        .map_err(|error| format!("not a JWK this server reads ({error})"))?;
    let kid = jwk.common.key_id.clone();
    let named = |why: String| match &kid {
        Some(kid) => format!("kid {kid:?}: {why}"),
        None => why,
    };
    if let Some(PublicKeyUse::Encryption) = jwk.common.public_key_use {
        return Err(named("an encryption key (\"use\": \"enc\")".to_owned()));
    }
    let by_type: &[Algorithm] = match &jwk.algorithm {
        AlgorithmParameters::RSA(_) => &RSA,
        AlgorithmParameters::EllipticCurve(params) => match params.curve {
            EllipticCurve::P256 => &[Algorithm::ES256],
            EllipticCurve::P384 => &[Algorithm::ES384],
            _ => {
                return Err(named(
                    "an elliptic curve other than P-256 and P-384".to_owned(),
                ));
            }
        },
        AlgorithmParameters::OctetKeyPair(params) if params.curve == EllipticCurve::Ed25519 => {
            &[Algorithm::EdDSA]
        }
        AlgorithmParameters::OctetKeyPair(_) => {
            return Err(named("an OKP key not on Ed25519".to_owned()));
        }
        // A shared secret published with the public keys would let anyone
        // who reads the set sign tokens.
        AlgorithmParameters::OctetKey(_) => {
            return Err(named(
                "a symmetric (\"oct\") key: only public keys verify tokens here".to_owned(),
            ));
        }
        // jsonwebtoken 12 reads a JWK of any `kty` (`Other`), and may learn
        // more: none of them verifies a signature here.
        _ => {
            return Err(named(
                "a key type other than RSA, EC and OKP (\"kty\")".to_owned(),
            ));
        }
    };
    let algorithms = match jwk.common.key_algorithm {
        None => by_type.to_vec(),
        Some(declared) => match algorithm_of(declared) {
            Some(algorithm) if by_type.contains(&algorithm) => vec![algorithm],
            _ => {
                return Err(named(format!(
                    "\"alg\": {declared} is not a signature algorithm of this key's type"
                )));
            }
        },
    };
    let key = DecodingKey::from_jwk(&jwk).map_err(|error| named(format!("{error}")))?;
    Ok(Key {
        kid,
        key,
        algorithms,
    })
}

/// The JWS algorithm a JWK's `alg` names, when it is a signature one.
fn algorithm_of(declared: KeyAlgorithm) -> Option<Algorithm> {
    Some(match declared {
        KeyAlgorithm::RS256 => Algorithm::RS256,
        KeyAlgorithm::RS384 => Algorithm::RS384,
        KeyAlgorithm::RS512 => Algorithm::RS512,
        KeyAlgorithm::PS256 => Algorithm::PS256,
        KeyAlgorithm::PS384 => Algorithm::PS384,
        KeyAlgorithm::PS512 => Algorithm::PS512,
        KeyAlgorithm::ES256 => Algorithm::ES256,
        KeyAlgorithm::ES384 => Algorithm::ES384,
        KeyAlgorithm::EdDSA => Algorithm::EdDSA,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    // A P-256 point (RFC 7515 appendix A.3's key).
    fn ec(kid: &str) -> Value {
        json!({"kty": "EC", "crv": "P-256", "kid": kid,
               "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
               "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"})
    }

    #[test]
    fn each_key_verifies_the_algorithms_of_its_type_or_its_declared_one() {
        let mut declared = ec("b");
        declared["alg"] = json!("ES256");
        let set = json!({"keys": [ec("a"), declared]});
        let keys = KeySet::parse(set.to_string().as_bytes()).unwrap().unwrap();
        assert_eq!(keys.keys.len(), 2);
        assert_eq!(keys.keys[0].kid.as_deref(), Some("a"));
        assert_eq!(keys.keys[0].algorithms, [Algorithm::ES256]);
    }

    #[test]
    fn symmetric_encryption_and_mismatched_keys_are_left_out() {
        let mut mismatched = ec("rs");
        mismatched["alg"] = json!("RS256");
        let mut encryption = ec("enc");
        encryption["use"] = json!("enc");
        let set = json!({"keys": [
            {"kty": "oct", "k": "c2VjcmV0", "kid": "hmac"},
            mismatched,
            encryption,
            {"kty": "XYZ"},
            ec("good"),
        ]});
        let keys = KeySet::parse(set.to_string().as_bytes()).unwrap().unwrap();
        assert_eq!(keys.keys.len(), 1);
        assert_eq!(keys.keys[0].kid.as_deref(), Some("good"));

        let only_secret = json!({"keys": [{"kty": "oct", "k": "c2VjcmV0", "kid": "hmac"}]});
        let error = KeySet::parse(only_secret.to_string().as_bytes())
            .err()
            .unwrap();
        assert!(
            error.starts_with("no usable signing key (keys[0]: kid \"hmac\": a symmetric"),
            "{error}"
        );
    }

    #[test]
    fn a_document_that_is_not_a_key_set_says_so() {
        let not_json = KeySet::parse(b"{").err().unwrap();
        assert!(
            not_json.starts_with("not a JWKS document (not JSON"),
            "{not_json}"
        );
        let no_keys = KeySet::parse(b"{\"kid\": 1}").err().unwrap();
        assert_eq!(no_keys, "not a JWKS document: no \"keys\" array");
        // No keys at all: readable, and accepting nothing.
        assert!(KeySet::parse(b"{\"keys\": []}").unwrap().is_none());
    }
}
