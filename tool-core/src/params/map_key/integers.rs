//! Integer keys (`BTreeMap<u8, V>`, `HashMap<NonZeroI64, V>`): the type's
//! range, in canonical decimal only, so that each integer has exactly one
//! key (`"7"`; not `"07"`, `"+7"`, `"7.0"`, nor `"-0"` for zero) and the
//! key's `pattern` can state the range exactly.

use super::{MapKey, refuse_key};
use crate::params::decimal_range::anchored;
use crate::params::{ParamPath, ParseContext};
use serde_json::{Value, json};
use std::fmt;
use std::num::{
    NonZeroI8, NonZeroI16, NonZeroI32, NonZeroI64, NonZeroIsize, NonZeroU8, NonZeroU16, NonZeroU32,
    NonZeroU64, NonZeroUsize,
};

/// The integer `key` is, if it is a canonical numeral in `min..=max` other
/// than zero when `non_zero`.
#[inline]
fn integer_key(key: &str, min: i128, max: i128, non_zero: bool) -> Option<i128> {
    let digits = key.strip_prefix('-').unwrap_or(key);
    let canonical = match digits.as_bytes() {
        // Zero is `0`, never `-0`.
        [b'0'] => digits.len() == key.len(),
        // No leading zero; at most 39 digits keeps the parse below in i128.
        [b'1'..=b'9', rest @ ..] => rest.len() < 39 && rest.iter().all(u8::is_ascii_digit),
        _ => false,
    };
    if !canonical {
        return None;
    }
    let integer: i128 = key.parse().ok()?;
    ((min..=max).contains(&integer) && !(non_zero && integer == 0)).then_some(integer)
}

/// What an integer key must be, for messages: `a key that is an integer
/// from 0 to 255, in plain decimal (no "+", no leading zeros)`.
struct Expected {
    min: i128,
    max: i128,
    non_zero: bool,
}

impl fmt::Display for Expected {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = if self.non_zero {
            "a non-zero integer"
        } else {
            "an integer"
        };
        let minus_zero = if self.min < 0 { ", no \"-0\"" } else { "" };
        write!(
            out,
            "a key that is {what} from {} to {}, in plain decimal (no \"+\"{minus_zero}, no leading zeros)",
            self.min, self.max
        )
    }
}

fn read(
    key: &str,
    min: i128,
    max: i128,
    non_zero: bool,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) -> Option<i128> {
    match integer_key(key, min, max, non_zero) {
        Some(integer) => Some(integer),
        None => refuse_key(Expected { min, max, non_zero }, key, path, errors),
    }
}

/// `{"pattern": ...}` matching exactly the numerals of `ranges`.
fn key_schema(ranges: &[(i128, i128)]) -> Value {
    json!({ "pattern": anchored(ranges) })
}

macro_rules! integer_key {
    ($($int:ty),*) => {$(
        impl MapKey for $int {
            fn key_schema() -> Option<Value> {
                Some(key_schema(&[(<$int>::MIN as i128, <$int>::MAX as i128)]))
            }

            #[inline]
            fn parse_key(key: &str, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
                let integer = read(key, <$int>::MIN as i128, <$int>::MAX as i128, false, path, errors)?;
                // In range, so the conversion cannot fail.
                <$int>::try_from(integer).ok()
            }

            fn to_key(&self) -> String {
                self.to_string()
            }
        }
    )*};
}

integer_key!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

macro_rules! non_zero_key {
    ($($non_zero:ty => $int:ty),* $(,)?) => {$(
        impl MapKey for $non_zero {
            fn key_schema() -> Option<Value> {
                let (min, max) = (<$int>::MIN as i128, <$int>::MAX as i128);
                Some(key_schema(&[(min, -1), (1, max)]))
            }

            fn parse_key(key: &str, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
                // An unsigned type's range is 1..=MAX; a signed one's has a
                // hole at zero.
                let min = if <$int>::MIN == 0 { 1 } else { <$int>::MIN as i128 };
                let max = <$int>::MAX as i128;
                let integer = read(key, min, max, min < 0, path, errors)?;
                <$int>::try_from(integer).ok().and_then(<$non_zero>::new)
            }

            fn to_key(&self) -> String {
                self.to_string()
            }
        }
    )*};
}

non_zero_key!(
    NonZeroI8 => i8,
    NonZeroI16 => i16,
    NonZeroI32 => i32,
    NonZeroI64 => i64,
    NonZeroIsize => isize,
    NonZeroU8 => u8,
    NonZeroU16 => u16,
    NonZeroU32 => u32,
    NonZeroU64 => u64,
    NonZeroUsize => usize,
);

#[cfg(test)]
mod tests {
    use super::*;

    fn read<K: MapKey>(key: &str) -> Result<K, String> {
        let mut errors = ParseContext::new();
        let root = ParamPath::root();
        let path = root.field("counts");
        let entry = path.key(key);
        K::parse_key(key, &entry, &mut errors).ok_or_else(|| errors.into_error().to_string())
    }

    /// The key schema's pattern, compiled as the validator compiles it
    /// (ECMA-262 translated by `jsonschema-regex`).
    fn key_regex<K: MapKey>() -> regex::Regex {
        let schema = K::key_schema().unwrap();
        let source = schema["pattern"].as_str().unwrap();
        let translated = jsonschema_regex::to_rust_regex(source).unwrap();
        regex::Regex::new(&translated).unwrap()
    }

    /// Parse and pattern agree on each of `keys`, and what parses writes
    /// back as it was.
    fn agree<K: MapKey + PartialEq + std::fmt::Debug>(keys: &[String]) {
        let regex = key_regex::<K>();
        for key in keys {
            let parsed = read::<K>(key);
            assert_eq!(parsed.is_ok(), regex.is_match(key), "{key:?}: {parsed:?}");
            if let Ok(parsed) = parsed {
                assert_eq!(&parsed.to_key(), key);
            }
        }
    }

    fn keys_near(bounds: &[i128]) -> Vec<String> {
        let mut keys = Vec::new();
        for &bound in bounds {
            for delta in -2..=2i128 {
                if let Some(n) = bound.checked_add(delta) {
                    keys.push(n.to_string());
                    keys.push(format!("+{n}"));
                    keys.push(format!("0{n}"));
                    keys.push(format!("{n}.0"));
                    keys.push(format!("{n} "));
                }
            }
        }
        keys.extend(["-0", "00", "", "-", "+", "1e2", "٣", "0x10", "--1"].map(String::from));
        keys
    }

    #[test]
    fn integer_keys_agree_with_their_pattern_near_every_bound() {
        macro_rules! each {
            ($($int:ty),*) => {$(
                agree::<$int>(&keys_near(&[<$int>::MIN as i128, <$int>::MAX as i128, 0, 10, -10]));
            )*};
        }
        each!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);
        macro_rules! each_non_zero {
            ($($non_zero:ty => $int:ty),* $(,)?) => {$(
                agree::<$non_zero>(&keys_near(&[<$int>::MIN as i128, <$int>::MAX as i128, 0, 10, -10]));
            )*};
        }
        each_non_zero!(
            NonZeroI8 => i8, NonZeroI16 => i16, NonZeroI32 => i32, NonZeroI64 => i64,
            NonZeroIsize => isize, NonZeroU8 => u8, NonZeroU16 => u16, NonZeroU32 => u32,
            NonZeroU64 => u64, NonZeroUsize => usize
        );
        let every_i8: Vec<String> = (i8::MIN..=i8::MAX).map(|n| n.to_string()).collect();
        agree::<i8>(&every_i8);
        agree::<NonZeroI8>(&every_i8);
    }

    #[test]
    fn a_bad_key_says_what_a_key_must_be() {
        assert_eq!(read::<u8>("255").unwrap(), 255);
        assert_eq!(read::<i64>("-9223372036854775808").unwrap(), i64::MIN);
        assert_eq!(
            read::<u8>("01").unwrap_err(),
            "counts.01: expected a key that is an integer from 0 to 255, in plain decimal (no \"+\", no leading zeros), got \"01\""
        );
        assert_eq!(
            read::<i8>("-0").unwrap_err(),
            "counts.-0: expected a key that is an integer from -128 to 127, in plain decimal (no \"+\", no \"-0\", no leading zeros), got \"-0\""
        );
        assert_eq!(
            read::<NonZeroI16>("0").unwrap_err(),
            "counts.0: expected a key that is a non-zero integer from -32768 to 32767, in plain decimal (no \"+\", no \"-0\", no leading zeros), got \"0\""
        );
        assert_eq!(
            read::<NonZeroU8>("0").unwrap_err(),
            "counts.0: expected a key that is an integer from 1 to 255, in plain decimal (no \"+\", no leading zeros), got \"0\""
        );
        let huge = "9".repeat(100_000);
        assert!(read::<u64>(&huge).unwrap_err().len() < 400);
    }
}
