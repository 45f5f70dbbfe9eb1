//! The SHA-256 of a call's arguments, over one canonical JSON text (object
//! keys sorted, compact): the same arguments give the same digest
//! whatever order their keys came in, so a person's approval can be bound
//! to exactly what will run.

use serde_json::Value;
use sha2::{Digest, Sha256};
use std::io::{self, Write};

/// The arguments' digest as 64 lowercase hex digits.
///
/// ```
/// use serde_json::json;
/// use tool_core::approval::arguments_sha256;
///
/// assert_eq!(
///     arguments_sha256(&json!({"b": 1, "a": [true, null]})),
///     arguments_sha256(&json!({"a": [true, null], "b": 1})),
/// );
/// assert_eq!(
///     arguments_sha256(&json!({})),
///     "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a", // SHA-256 of `{}`
/// );
/// ```
pub fn arguments_sha256(arguments: &Value) -> String {
    let mut hashing = Hashing(Sha256::new());
    // Writing into a hasher cannot fail, nor can serializing a Value.
    let _ = write_canonical(&mut hashing, arguments);
    let digest = hashing.0.finalize();
    let mut hex = String::with_capacity(64);
    for byte in digest {
        hex.push(char::from(HEX[usize::from(byte >> 4)]));
        hex.push(char::from(HEX[usize::from(byte & 0x0f)]));
    }
    hex
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// The canonical JSON text of `value`, written into `out`.
fn write_canonical(out: &mut impl Write, value: &Value) -> io::Result<()> {
    match value {
        Value::Object(fields) => {
            let mut keys: Vec<&String> = fields.keys().collect();
            keys.sort_unstable();
            out.write_all(b"{")?;
            for (index, key) in keys.into_iter().enumerate() {
                if index > 0 {
                    out.write_all(b",")?;
                }
                serde_json::to_writer(&mut *out, key)?;
                out.write_all(b":")?;
                write_canonical(out, &fields[key])?;
            }
            out.write_all(b"}")
        }
        Value::Array(items) => {
            out.write_all(b"[")?;
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.write_all(b",")?;
                }
                write_canonical(out, item)?;
            }
            out.write_all(b"]")
        }
        scalar => serde_json::to_writer(out, scalar).map_err(io::Error::other),
    }
}

/// A hasher taking bytes as a writer.
struct Hashing(Sha256);

impl Write for Hashing {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_canonical_text_sorts_keys_at_every_depth() {
        let mut text = Vec::new();
        write_canonical(
            &mut text,
            &json!({"z": {"b": 1, "a": "x"}, "a": [{"d": 1, "c": 2}]}),
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(text).unwrap(),
            r#"{"a":[{"c":2,"d":1}],"z":{"a":"x","b":1}}"#
        );
    }

    #[test]
    fn different_arguments_differ() {
        assert_ne!(
            arguments_sha256(&json!({"path": "a"})),
            arguments_sha256(&json!({"path": "b"}))
        );
        assert_ne!(
            arguments_sha256(&json!([1, 2])),
            arguments_sha256(&json!([2, 1]))
        );
    }
}
