//! The application's approval key: every secret approvals need is derived
//! from it (HMAC-SHA256 with a purpose), and a suspended batch's state is
//! sealed with the key derived for that, so that whoever holds the state
//! between suspend and resume (a browser, a queue, a database row) can
//! neither read it nor change it.

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::fmt;

type HmacSha256 = Hmac<Sha256>;

/// The shortest key accepted: HMAC-SHA256's own output size. A shorter
/// secret is guessable sooner than the derived keys are.
const MIN_KEY_BYTES: usize = 32;

/// XChaCha20-Poly1305's nonce: 192 bits, so a random one per seal never
/// repeats in practice (a 96-bit nonce would after about 2^32 seals).
const NONCE_BYTES: usize = 24;

/// What the sealing key is derived for.
const SEALING_PURPOSE: &str = "tool-core suspension sealing v2";

/// A secret key that seals and opens suspensions. Keep it like a
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
    /// use: HMAC-SHA256(secret, purpose), so that a key made for one
    /// purpose is useless for another, and the secret itself never leaves
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
        // HMAC takes a key of any length; only `new` builds one.
        let Ok(mut mac) = HmacSha256::new_from_slice(&self.secret) else {
            unreachable!("HMAC accepts keys of every length")
        };
        mac.update(b"tool-core derived key\0");
        mac.update(purpose.as_bytes());
        mac.finalize().into_bytes().into()
    }

    /// `message` encrypted and authenticated, `context` bound to it (it
    /// must be given again to open it): a random nonce, then the
    /// ciphertext with its tag. `None` when the system gives no
    /// randomness.
    pub(crate) fn seal(&self, message: &[u8], context: &[u8]) -> Option<Vec<u8>> {
        let mut nonce = [0u8; NONCE_BYTES];
        getrandom::fill(&mut nonce).ok()?;
        let payload = Payload {
            msg: message,
            aad: context,
        };
        // Encryption fails only for messages beyond the cipher's limit
        // (256 GiB), which no suspension reaches.
        let sealed = self.cipher().encrypt(&XNonce::from(nonce), payload).ok()?;
        let mut out = Vec::with_capacity(NONCE_BYTES + sealed.len());
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&sealed);
        Some(out)
    }

    /// The message [`seal`](Self::seal) sealed with this key and
    /// `context`; `None` for anything else (another key, another context,
    /// a changed byte), in constant time.
    pub(crate) fn open(&self, sealed: &[u8], context: &[u8]) -> Option<Vec<u8>> {
        if sealed.len() < NONCE_BYTES {
            return None;
        }
        let (nonce, ciphertext) = sealed.split_at(NONCE_BYTES);
        let nonce = XNonce::try_from(nonce).ok()?;
        let payload = Payload {
            msg: ciphertext,
            aad: context,
        };
        self.cipher().decrypt(&nonce, payload).ok()
    }

    /// The cipher under the key derived for sealing.
    fn cipher(&self) -> XChaCha20Poly1305 {
        XChaCha20Poly1305::new(&self.derive(SEALING_PURPOSE).into())
    }

    /// A name for this key that says nothing of it (a key derived for
    /// naming): the process's ledger is shared by every value holding the
    /// same key.
    pub(crate) fn fingerprint(&self) -> [u8; 32] {
        self.derive("tool-core key fingerprint")
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
    fn a_sealed_message_opens_only_with_its_key_and_context() {
        let sealed = key(1).seal(b"state", b"ctx").unwrap();
        assert_eq!(key(1).open(&sealed, b"ctx").unwrap(), b"state");
        assert!(key(2).open(&sealed, b"ctx").is_none());
        assert!(key(1).open(&sealed, b"other").is_none());
        for index in 0..sealed.len() {
            let mut changed = sealed.clone();
            changed[index] ^= 1;
            assert!(key(1).open(&changed, b"ctx").is_none(), "byte {index}");
        }
        assert!(key(1).open(&sealed[..10], b"ctx").is_none());
        assert!(key(1).open(&[], b"ctx").is_none());
    }

    #[test]
    fn the_message_is_not_readable_in_what_is_sealed() {
        let message = b"the other call's secret result";
        let sealed = key(1).seal(message, b"").unwrap();
        assert!(!sealed.windows(message.len()).any(|part| part == message));
        assert_ne!(key(1).seal(message, b"").unwrap(), sealed, "a new nonce");
    }

    #[test]
    fn derived_keys_differ_by_purpose_and_key() {
        assert_ne!(key(1).derive("a"), key(1).derive("b"));
        assert_ne!(key(1).derive("a"), key(2).derive("a"));
        assert_ne!(key(1).fingerprint(), key(2).fingerprint());
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
