//! IP addresses: strings in the `ipv4` and `ipv6` formats, parsed by std
//! (which is what the formats' checks are).

use crate::params::Format;
use crate::params::constraints::report_format;
use crate::params::describe::Excerpt;
use crate::params::impls::scalars::expected;
use crate::params::{ParamPath, ParamValue, ParseContext};
use serde_json::{Value, json};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

/// A string in `format` parsed with `T`'s `FromStr`.
fn parse_formatted<T: FromStr>(
    value: &Value,
    format: Format,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) -> Option<T> {
    let Value::String(text) = value else {
        return expected(path, "string", value, errors);
    };
    let parsed = text.parse().ok();
    if parsed.is_none() {
        report_format(format, value, path, errors);
    }
    parsed
}

macro_rules! address_param {
    ($($address:ty => $format:ident, $name:literal;)*) => {$(
        impl ParamValue for $address {
            fn schema() -> Value {
                json!({"type": "string", "format": $name})
            }

            fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
                parse_formatted(value, Format::$format, path, errors)
            }

            fn to_json(&self) -> Value {
                Value::String(self.to_string())
            }
        }
    )*};
}

address_param! {
    Ipv4Addr => Ipv4, "ipv4";
    Ipv6Addr => Ipv6, "ipv6";
}

impl ParamValue for IpAddr {
    fn schema() -> Value {
        json!({"type": "string", "anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]})
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        let Value::String(text) = value else {
            return expected(path, "string", value, errors);
        };
        let parsed = text.parse().ok();
        if parsed.is_none() {
            errors.push(
                path,
                format_args!(
                    "expected an ipv4 or ipv6 address such as \"192.0.2.1\" or \"2001:db8::1\", got {}",
                    Excerpt(value)
                ),
            );
        }
        parsed
    }

    fn to_json(&self) -> Value {
        Value::String(self.to_string())
    }
}
