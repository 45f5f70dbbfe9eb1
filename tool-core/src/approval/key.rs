//! The application's signing key: a suspended batch's state is sealed
//! with HMAC-SHA256, so that whoever holds it between suspend and resume
//! (a browser, a queue, a database row) can read it but not approve a
//! call on their own or change its arguments.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use std::fmt;

type HmacSha256 = Hmac<Sha256>;

/// The shortest key accepted: HMAC-SHA256's own output size. A shorter
/// secret is guessable sooner than the signature is.
const MIN_KEY_BYTES: usize = 32;

/// A secret key that signs and checks suspensions. Keep it like a
/// password: every process that resumes a batch needs the same key, and
/// anyone with it can approve anything.
///
/// ```
/// use tool_core::approval::ApprovalKey;
///
/// let key = ApprovalKey::new(*b"0123456789abcdef0123456789abcdef").unwrap();
/// assert!(ApprovalKey::new(b"short".to_vec()).is_err());
/// # let _ = key;
/// ```
#[derive(Clone)]
pub struct ApprovalKey {
    secret: Vec<u8>,
}

impl ApprovalKey {
    /// A key from secret bytes (at least 32; read them from a secret
    /// store or a file, never from source code).
    pub fn new(secret: impl Into<Vec<u8>>) -> Result<Self, KeyTooShort> {
        let secret = secret.into();
        if secret.len() < MIN_KEY_BYTES {
            return Err(KeyTooShort { len: secret.len() });
        }
        Ok(ApprovalKey { secret })
    }

    /// A 32-byte key for another use of this secret, `purpose` naming the
    /// use: HMAC-SHA256(secret, purpose), so that a signature made for one
    /// purpose never checks for another, and the secret itself never leaves
    /// this value. `tool-mcp` signs its MCP approval state with the key for
    /// `"tool-mcp approval requestState"`, so one key serves both.
    ///
    /// ```
    /// use tool_core::approval::ApprovalKey;
    ///
    /// let key = ApprovalKey::new(*b"0123456789abcdef0123456789abcdef").unwrap();
    /// assert_eq!(key.derive("a use"), key.derive("a use"));
    /// assert_ne!(key.derive("a use"), key.derive("another use"));
    /// ```
    pub fn derive(&self, purpose: &str) -> [u8; 32] {
        let mut mac = self.mac();
        mac.update(b"tool-core derived key\0");
        mac.update(purpose.as_bytes());
        mac.finalize().into_bytes().into()
    }

    /// The signature of `message`.
    pub(crate) fn sign(&self, message: &[u8]) -> Vec<u8> {
        let mut mac = self.mac();
        mac.update(message);
        mac.finalize().into_bytes().to_vec()
    }

    /// Whether `signature` is `message`'s, compared in constant time.
    pub(crate) fn verify(&self, message: &[u8], signature: &[u8]) -> bool {
        let mut mac = self.mac();
        mac.update(message);
        mac.verify_slice(signature).is_ok()
    }

    fn mac(&self) -> HmacSha256 {
        // HMAC takes a key of any length; only `new` builds one.
        match HmacSha256::new_from_slice(&self.secret) {
            Ok(mac) => mac,
            Err(_) => unreachable!("HMAC accepts keys of every length"),
        }
    }
}

impl fmt::Debug for ApprovalKey {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.write_str("ApprovalKey(..)")
    }
}

/// A key shorter than 32 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyTooShort {
    len: usize,
}

impl fmt::Display for KeyTooShort {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            out,
            "an approval key needs at least {MIN_KEY_BYTES} secret bytes, got {}",
            self.len
        )
    }
}

impl std::error::Error for KeyTooShort {}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(byte: u8) -> ApprovalKey {
        ApprovalKey::new(vec![byte; 32]).unwrap()
    }

    #[test]
    fn a_signature_checks_only_for_its_message_and_key() {
        let signature = key(1).sign(b"state");
        assert!(key(1).verify(b"state", &signature));
        assert!(!key(1).verify(b"state!", &signature));
        assert!(!key(2).verify(b"state", &signature));
        assert!(!key(1).verify(b"state", &signature[..31]));
    }

    #[test]
    fn a_derived_key_is_not_a_signature_of_the_purpose() {
        let derived = key(1).derive("state");
        assert_ne!(derived.to_vec(), key(1).sign(b"state"));
        assert_ne!(derived, key(2).derive("state"));
    }

    #[test]
    fn short_keys_are_refused_with_their_length() {
        let refused = ApprovalKey::new(vec![0; 31]).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "an approval key needs at least 32 secret bytes, got 31"
        );
    }
}
