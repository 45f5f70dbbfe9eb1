//! Keys that are addresses or identifiers: IP addresses, in the formats
//! `ipv4` and `ipv6` as their fields are; and `uuid::Uuid` (feature
//! `uuid`), lowercase hyphenated only.
//!
//! An IPv4 address has one spelling (std refuses leading zeros, as the
//! format does), a UUID key one by its pattern; an IPv6 address has many
//! (`::1`, `0::1`, `0:0:0:0:0:0:0:1`), and the canonical one (RFC 5952) is
//! beyond a regular expression of reasonable size, so any spelling is a
//! key and the map refuses a second key of the same address, naming the
//! first.

use super::{MapKey, refuse_key};
use crate::params::{ParamPath, ParseContext};
use serde_json::{Value, json};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

macro_rules! address_key {
    ($($address:ty => $schema:expr, $what:literal;)*) => {$(
        impl MapKey for $address {
            fn key_schema() -> Option<Value> {
                Some($schema)
            }

            fn parse_key(key: &str, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
                match key.parse() {
                    Ok(address) => Some(address),
                    Err(_) => refuse_key($what, key, path, errors),
                }
            }

            /// std's spelling: dotted quad; RFC 5952 for IPv6.
            fn to_key(&self) -> String {
                self.to_string()
            }
        }
    )*};
}

address_key! {
    Ipv4Addr => json!({"format": "ipv4"}), "a key that is an ipv4 address such as \"192.0.2.1\"";
    Ipv6Addr => json!({"format": "ipv6"}), "a key that is an ipv6 address such as \"2001:db8::1\"";
    IpAddr => json!({"anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]}),
        "a key that is an ipv4 or ipv6 address such as \"192.0.2.1\" or \"2001:db8::1\"";
}

/// A UUID key: lowercase hyphenated only, so that each UUID has one key
/// (the `uuid` format also takes uppercase digits).
#[cfg(feature = "uuid")]
#[cfg_attr(docsrs, doc(cfg(feature = "uuid")))]
impl MapKey for uuid::Uuid {
    fn key_schema() -> Option<Value> {
        Some(json!({
            "pattern": "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
        }))
    }

    fn parse_key(key: &str, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        let bytes = key.as_bytes();
        let shaped = bytes.len() == 36
            && bytes.iter().enumerate().all(|(at, &byte)| match at {
                8 | 13 | 18 | 23 => byte == b'-',
                _ => matches!(byte, b'0'..=b'9' | b'a'..=b'f'),
            });
        match shaped.then(|| uuid::Uuid::parse_str(key).ok()).flatten() {
            Some(uuid) => Some(uuid),
            None => refuse_key(
                "a key that is a lowercase hyphenated uuid such as \"123e4567-e89b-12d3-a456-426614174000\"",
                key,
                path,
                errors,
            ),
        }
    }

    fn to_key(&self) -> String {
        self.hyphenated().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read<K: MapKey>(key: &str) -> Result<K, String> {
        let mut errors = ParseContext::new();
        let root = ParamPath::root();
        let path = root.field("hosts");
        let entry = path.key(key);
        K::parse_key(key, &entry, &mut errors).ok_or_else(|| errors.into_error().to_string())
    }

    #[test]
    fn addresses_are_keys_in_their_format() {
        assert_eq!(
            read::<Ipv4Addr>("192.0.2.1").unwrap(),
            Ipv4Addr::new(192, 0, 2, 1)
        );
        // One spelling per IPv4 address: std refuses leading zeros.
        assert_eq!(
            read::<Ipv4Addr>("192.0.2.01").unwrap_err(),
            "hosts[\"192.0.2.01\"]: expected a key that is an ipv4 address such as \"192.0.2.1\", got \"192.0.2.01\""
        );
        assert_eq!(read::<Ipv6Addr>("0::1").unwrap(), Ipv6Addr::LOCALHOST);
        assert_eq!(Ipv6Addr::LOCALHOST.to_key(), "::1");
        assert_eq!(
            read::<IpAddr>("::1").unwrap(),
            IpAddr::V6(Ipv6Addr::LOCALHOST)
        );
        assert!(read::<IpAddr>("localhost").is_err());
    }

    #[cfg(feature = "uuid")]
    #[test]
    fn uuid_keys_are_lowercase_hyphenated() {
        let text = "123e4567-e89b-12d3-a456-426614174000";
        let uuid = read::<uuid::Uuid>(text).unwrap();
        assert_eq!(uuid.to_key(), text);
        for other in [
            "123E4567-E89B-12D3-A456-426614174000",
            "123e4567e89b12d3a456426614174000",
            "{123e4567-e89b-12d3-a456-426614174000}",
            "123e4567-e89b-12d3-a456-42661417400",
        ] {
            assert!(read::<uuid::Uuid>(other).is_err(), "{other}");
        }
    }
}
