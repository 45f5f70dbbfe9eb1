//! An authorization server in miniature: key pairs made for the test (RS256
//! with aws-lc-rs, the crypto already in the tree; ES256 too), their JWKS
//! written to a file, and access tokens signed with them, well or badly.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

pub(crate) const ISSUER: &str = "https://auth.example.com/realms/mcp";
pub(crate) const AUDIENCE: &str = "https://mcp.example.com/mcp";

/// A signing key and its public JWK.
pub(crate) struct SigningKey {
    pub alg: Algorithm,
    pub encoding: EncodingKey,
    pub jwk: Jwk,
}

impl SigningKey {
    /// A new P-256 key pair, known by `kid`.
    pub(crate) fn es256(kid: &str) -> SigningKey {
        use aws_lc_rs::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair};
        let pair = EcdsaKeyPair::generate(&ECDSA_P256_SHA256_FIXED_SIGNING).unwrap();
        let pkcs8 = pair.to_pkcs8v1().unwrap();
        Self::with(
            Algorithm::ES256,
            EncodingKey::from_ec_der(pkcs8.as_ref()),
            kid,
        )
    }

    /// A new RSA 2048 key pair, known by `kid`.
    pub(crate) fn rs256(kid: &str) -> SigningKey {
        use aws_lc_rs::encoding::AsDer;
        let pair = aws_lc_rs::rsa::KeyPair::generate(aws_lc_rs::rsa::KeySize::Rsa2048).unwrap();
        let pkcs8 = AsDer::<aws_lc_rs::encoding::Pkcs8V1Der>::as_der(&pair).unwrap();
        let pkcs1 = rsa_private_key_of(pkcs8.as_ref());
        Self::with(Algorithm::RS256, EncodingKey::from_rsa_der(pkcs1), kid)
    }

    fn with(alg: Algorithm, encoding: EncodingKey, kid: &str) -> SigningKey {
        let mut jwk = Jwk::from_encoding_key(&encoding, alg).unwrap();
        jwk.common.key_id = Some(kid.to_owned());
        SigningKey { alg, encoding, jwk }
    }

    pub(crate) fn kid(&self) -> &str {
        self.jwk.common.key_id.as_deref().unwrap()
    }

    /// `claims` signed as an access token (RFC 9068's `typ: at+jwt`), with
    /// this key's `kid` in the header.
    pub(crate) fn sign(&self, claims: &Value) -> String {
        let mut header = Header::new(self.alg);
        header.kid = Some(self.kid().to_owned());
        header.typ = Some("at+jwt".to_owned());
        self.sign_with(header, claims)
    }

    pub(crate) fn sign_with(&self, header: Header, claims: &Value) -> String {
        jsonwebtoken::encode(&header, claims, &self.encoding).unwrap()
    }
}

/// The `RSAPrivateKey` (PKCS #1) inside a PKCS #8 `PrivateKeyInfo`, which
/// jsonwebtoken signs with: SEQUENCE { INTEGER version, SEQUENCE algorithm,
/// OCTET STRING privateKey, ... }.
fn rsa_private_key_of(pkcs8: &[u8]) -> &[u8] {
    /// The tag, contents and rest of the DER element at the start of `der`.
    fn element(der: &[u8]) -> (u8, &[u8], &[u8]) {
        let tag = der[0];
        let (len, header) = match der[1] {
            short if short < 0x80 => (usize::from(short), 2),
            long => {
                let count = usize::from(long & 0x7f);
                let len = der[2..2 + count]
                    .iter()
                    .fold(0, |len, byte| len << 8 | usize::from(*byte));
                (len, 2 + count)
            }
        };
        (tag, &der[header..header + len], &der[header + len..])
    }
    let (tag, info, _) = element(pkcs8);
    assert_eq!(tag, 0x30, "a SEQUENCE");
    let (_version, _, rest) = element(info);
    let (_algorithm, _, rest) = element(rest);
    let (tag, key, _) = element(rest);
    assert_eq!(tag, 0x04, "an OCTET STRING");
    key
}

/// Seconds since the epoch, as JWTs count.
pub(crate) fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

/// Claims that pass every check, with `scope`.
pub(crate) fn claims(scope: &str) -> Value {
    json!({
        "iss": ISSUER,
        "aud": AUDIENCE,
        "sub": "alice",
        "client_id": "agent-7",
        "scope": scope,
        "iat": now(),
        "exp": now() + 300,
    })
}

/// A token with `header` as written, `claims`, and `signature`: for the
/// headers no library will sign (`alg: none`).
pub(crate) fn raw_token(header: &Value, claims: &Value, signature: &[u8]) -> String {
    format!(
        "{}.{}.{}",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        URL_SAFE_NO_PAD.encode(claims.to_string()),
        URL_SAFE_NO_PAD.encode(signature)
    )
}

/// Writes the public keys of `keys` as a JWKS document to `path`.
pub(crate) fn write_jwks(path: &Path, keys: &[&SigningKey]) {
    let set = JwkSet {
        keys: keys.iter().map(|key| key.jwk.clone()).collect(),
    };
    let text = serde_json::to_string_pretty(&set).unwrap();
    // Written whole, then renamed over the old file, as a secret manager
    // does: the server never reads half of it.
    let partial = path.with_extension("partial");
    std::fs::write(&partial, text).unwrap();
    std::fs::rename(&partial, path).unwrap();
}

/// A folder of the test's, removed when dropped.
pub(crate) struct TempDir(PathBuf);

impl TempDir {
    pub(crate) fn new(name: &str) -> TempDir {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("tool-mcp-oauth-{name}-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }

    pub(crate) fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
