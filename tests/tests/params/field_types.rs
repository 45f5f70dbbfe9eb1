//! The field types beyond scalars, lists and maps: sets, fixed arrays,
//! tuples, `char`, `Arc<T>`, `PathBuf`, IP addresses, and (behind
//! tool-core's features) `uuid::Uuid`, `url::Url`, `chrono::DateTime<Utc>`,
//! `chrono::NaiveDate`; and issue 21's: signed non-zero integers, `Box<str>`
//! and the other owners of a string or a list, `Rc<T>`, `Duration`, and
//! maps whose keys are not strings.

use crate::support::errors;
use serde_json::json;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::num::{NonZeroI8, NonZeroI16, NonZeroI32, NonZeroI64, NonZeroIsize};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;
use tool_core::{ToolParams, params::ParamValue};

#[derive(ToolParams, Debug, PartialEq)]
struct Sets {
    tags: HashSet<String>,
    #[param(min_length = 1)]
    ids: BTreeSet<u32>,
}

#[test]
fn sets_refuse_repeats_at_their_index() {
    let schema = Sets::json_schema();
    assert_eq!(
        schema["properties"]["tags"],
        json!({"type": "array", "items": {"type": "string"}, "uniqueItems": true})
    );
    assert_eq!(schema["properties"]["ids"]["minItems"], json!(1));
    let sets = Sets::parse(&json!({"tags": ["b", "a"], "ids": [3, 1]})).unwrap();
    assert_eq!(sets.ids.into_iter().collect::<Vec<_>>(), [1, 3]);
    assert_eq!(
        errors::<Sets>(json!({"tags": ["a", "b", "a"], "ids": [1, 1.0]})),
        "tags[2]: repeats item 0: the items must be unique\nids[1]: repeats item 0: the items must be unique"
    );
    // The same set always writes the same JSON, sorted.
    let sets = Sets::parse(&json!({"tags": ["z", "a", "m"], "ids": [2]})).unwrap();
    assert_eq!(sets.to_json()["tags"], json!(["a", "m", "z"]));
}

#[derive(ToolParams, Debug, PartialEq)]
struct Shapes {
    rgb: [u8; 3],
    pair: (String, u8),
    point: (f64, f64, Option<i8>, bool),
    letter: char,
    shared: Arc<String>,
    path: PathBuf,
}

#[test]
fn arrays_tuples_and_single_characters() {
    let schema = Shapes::json_schema();
    assert_eq!(schema["properties"]["rgb"]["minItems"], json!(3));
    assert_eq!(schema["properties"]["rgb"]["maxItems"], json!(3));
    assert_eq!(
        schema["properties"]["pair"]["prefixItems"][0],
        json!({"type": "string"})
    );
    assert_eq!(schema["properties"]["pair"]["items"], json!(false));
    assert_eq!(
        schema["properties"]["letter"],
        json!({"type": "string", "minLength": 1, "maxLength": 1})
    );
    assert_eq!(schema["properties"]["path"], json!({"type": "string"}));
    let parsed = Shapes::parse(&json!({
        "rgb": [1, 2, 3], "pair": ["a", 1], "point": [0.5, 1, null, true],
        "letter": "é", "shared": "s", "path": "a/b.txt",
    }))
    .unwrap();
    assert_eq!(parsed.letter, 'é');
    assert_eq!(parsed.point, (0.5, 1.0, None, true));
    assert_eq!(parsed.path, PathBuf::from("a/b.txt"));
    assert_eq!(Shapes::parse(&parsed.to_json()).unwrap(), parsed);
    assert_eq!(
        errors::<Shapes>(json!({
            "rgb": [1, 2], "pair": ["a"], "point": [0, 0, 300, 1],
            "letter": "ab", "shared": 1, "path": null,
        })),
        "rgb: expected array of exactly 3 items, got 2\n\
         pair: expected array of exactly 2 items, got 1\n\
         point[2]: expected integer <= 127, got 300\n\
         point[3]: expected boolean, got number 1\n\
         letter: expected a string of exactly 1 character, got \"ab\"\n\
         shared: expected string, got number 1\n\
         path: expected string, got null"
    );
}

#[derive(ToolParams, Debug, PartialEq)]
struct Hosts {
    any: IpAddr,
    v4: Ipv4Addr,
    v6: Ipv6Addr,
}

#[test]
fn ip_addresses_are_strings_in_their_format() {
    let schema = Hosts::json_schema();
    assert_eq!(
        schema["properties"]["v4"],
        json!({"type": "string", "format": "ipv4"})
    );
    assert_eq!(
        schema["properties"]["any"],
        json!({"type": "string", "anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]})
    );
    let hosts =
        Hosts::parse(&json!({"any": "::1", "v4": "192.0.2.1", "v6": "2001:db8::1"})).unwrap();
    assert_eq!(hosts.any, IpAddr::V6(Ipv6Addr::LOCALHOST));
    assert_eq!(
        errors::<Hosts>(json!({"any": "localhost", "v4": "01.2.3.4", "v6": "::g"})),
        "any: expected an ipv4 or ipv6 address such as \"192.0.2.1\" or \"2001:db8::1\", got \"localhost\"\n\
         v4: expected ipv4 string such as \"192.0.2.1\", got \"01.2.3.4\"\n\
         v6: expected ipv6 string such as \"2001:db8::1\", got \"::g\""
    );
}

#[derive(ToolParams, Debug, PartialEq)]
struct Foreign {
    id: uuid::Uuid,
    link: url::Url,
    at: chrono::DateTime<chrono::Utc>,
    day: chrono::NaiveDate,
}

#[test]
fn foreign_types_check_their_format_first() {
    let schema = Foreign::json_schema();
    assert_eq!(
        schema["properties"]["id"],
        json!({"type": "string", "format": "uuid"})
    );
    assert_eq!(
        schema["properties"]["link"],
        json!({"type": "string", "format": "uri"})
    );
    assert_eq!(
        schema["properties"]["at"],
        json!({"type": "string", "format": "date-time"})
    );
    assert_eq!(
        schema["properties"]["day"],
        json!({"type": "string", "format": "date"})
    );
    let parsed = Foreign::parse(&json!({
        "id": "123E4567-E89B-12D3-A456-426614174000",
        "link": "https://example.com/a?b#c",
        "at": "2026-11-30T17:43:18+01:00",
        "day": "2024-02-29",
    }))
    .unwrap();
    assert_eq!(
        parsed.to_json(),
        json!({
            "id": "123e4567-e89b-12d3-a456-426614174000",
            "link": "https://example.com/a?b#c",
            "at": "2026-11-30T16:43:18Z",
            "day": "2024-02-29",
        })
    );
    assert_eq!(Foreign::parse(&parsed.to_json()).unwrap(), parsed);
    // uuid's own parser takes forms the format does not (no hyphens, braces).
    assert_eq!(
        errors::<Foreign>(json!({
            "id": "123e4567e89b12d3a456426614174000",
            "link": "example.com",
            "at": "2026-11-30",
            "day": "2023-02-29",
        })),
        "id: expected uuid string such as \"123e4567-e89b-12d3-a456-426614174000\", got \"123e4567e89b12d3a456426614174000\"\n\
         link: expected uri string such as \"https://example.com/a?b#c\", got \"example.com\"\n\
         at: expected date-time string such as \"2026-11-30T16:43:18Z\", got \"2026-11-30\"\n\
         day: expected date string such as \"2026-11-30\", got \"2023-02-29\""
    );
}

#[test]
fn options_of_new_types_are_nullable_items() {
    assert_eq!(
        <Vec<Option<char>> as ParamValue>::schema(),
        json!({"type": "array", "items": {"anyOf": [{"type": "string", "minLength": 1, "maxLength": 1}, {"type": "null"}]}})
    );
}

#[derive(ToolParams, Debug, PartialEq)]
struct Steps {
    tiny: NonZeroI8,
    big: NonZeroI64,
    size: NonZeroIsize,
    // optional
    maybe: Option<NonZeroI32>,
    #[param(items(min = -10, max = 10))]
    list: Vec<NonZeroI16>,
}

#[test]
fn signed_non_zero_integers_have_a_hole_at_zero() {
    let schema = Steps::json_schema();
    assert_eq!(
        schema["properties"]["tiny"],
        json!({"type": "integer", "anyOf": [{"minimum": -128, "maximum": -1}, {"minimum": 1, "maximum": 127}]})
    );
    assert_eq!(
        schema["properties"]["big"]["anyOf"],
        json!([{"minimum": i64::MIN, "maximum": -1}, {"minimum": 1, "maximum": i64::MAX}])
    );
    assert_eq!(schema["required"], json!(["tiny", "big", "size", "list"]));
    let steps = Steps::parse(&json!({
        "tiny": -128, "big": i64::MAX, "size": -1, "maybe": 2.0, "list": [-10, 10],
    }))
    .unwrap();
    assert_eq!(steps.tiny.get(), -128);
    assert_eq!(steps.maybe, NonZeroI32::new(2));
    assert_eq!(Steps::parse(&steps.to_json()).unwrap(), steps);
    assert_eq!(
        errors::<Steps>(json!({
            "tiny": 0, "big": -0.0, "size": 1.5, "maybe": 0, "list": [1, -11],
        })),
        "tiny: expected a non-zero integer, got 0\n\
         big: expected a non-zero integer, got -0.0\n\
         size: expected integer, got number 1.5\n\
         maybe: expected a non-zero integer, got 0\n\
         list[1]: expected integer >= -10, got -11"
    );
    assert_eq!(
        errors::<Steps>(json!({"tiny": 128, "big": 1, "size": 1, "list": [2, 0]})),
        "tiny: expected integer <= 127, got 128\n\
         list[1]: expected a non-zero integer, got 0"
    );
}

#[derive(ToolParams, Debug, PartialEq)]
struct Owners {
    boxed: Box<str>,
    rc: Rc<str>,
    #[param(max_length = 3)]
    arc: Arc<str>,
    #[param(pattern = "^[a-z]+$")]
    cow: Cow<'static, str>,
    #[param(items(min = 1), max_length = 2)]
    cow_list: Cow<'static, [u8]>,
    #[param(min = 1)]
    counter: Rc<u16>,
    // optional
    maybe: Option<Box<str>>,
}

#[test]
fn other_owners_of_strings_and_lists() {
    let schema = Owners::json_schema();
    for name in ["boxed", "rc", "maybe"] {
        assert_eq!(
            schema["properties"][name],
            json!({"type": "string"}),
            "{name}"
        );
    }
    assert_eq!(
        schema["properties"]["arc"],
        json!({"type": "string", "maxLength": 3})
    );
    assert_eq!(
        schema["properties"]["cow_list"],
        json!({"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 255}, "maxItems": 2})
    );
    assert_eq!(
        schema["properties"]["counter"],
        json!({"type": "integer", "minimum": 1, "maximum": 65535})
    );
    let owners = Owners::parse(&json!({
        "boxed": "b", "rc": "r", "arc": "abc", "cow": "cow", "cow_list": [1, 2], "counter": 7,
    }))
    .unwrap();
    assert_eq!(
        (&*owners.boxed, &*owners.rc, &*owners.arc),
        ("b", "r", "abc")
    );
    assert!(matches!(owners.cow, Cow::Owned(ref cow) if cow == "cow"));
    assert_eq!(*owners.counter, 7);
    assert_eq!(Owners::parse(&owners.to_json()).unwrap(), owners);
    assert_eq!(
        errors::<Owners>(json!({
            "boxed": 1, "rc": null, "arc": "abcd", "cow": "Cow", "cow_list": [0, 1, 2], "counter": 0,
            "maybe": [],
        })),
        "boxed: expected string, got number 1\n\
         rc: expected string, got null\n\
         arc: expected string of at most 3 characters, got 4\n\
         cow: expected a string matching \"^[a-z]+$\", got \"Cow\"\n\
         cow_list: expected array of at most 2 items, got 3\n\
         cow_list[0]: expected integer >= 1, got 0\n\
         counter: expected integer >= 1, got 0\n\
         maybe: expected string, got array []"
    );
}

#[derive(ToolParams, Debug, PartialEq)]
struct Timing {
    wait: Duration,
    // optional
    maybe: Option<Duration>,
    // optional (has a default)
    #[param(default = Duration::from_secs(90))]
    timeout: Duration,
    waits: Vec<Duration>,
}

#[test]
fn durations_are_iso_8601_in_fixed_units() {
    let schema = Timing::json_schema();
    let wait = &schema["properties"]["wait"];
    assert_eq!(wait["type"], "string");
    assert_eq!(wait["format"], "duration");
    assert!(
        wait["pattern"]
            .as_str()
            .unwrap()
            .starts_with("^P(?:0*[0-9]{1,13}W|")
    );
    assert_eq!(schema["properties"]["timeout"]["default"], "PT1M30S");
    let timing = Timing::parse(&json!({
        "wait": "PT90M", "maybe": "P1DT2H", "waits": ["P2W", "PT0S", "PT18446744073709551615S"],
    }))
    .unwrap();
    assert_eq!(timing.wait, Duration::from_secs(90 * 60));
    assert_eq!(timing.maybe, Some(Duration::from_secs(26 * 3600)));
    assert_eq!(timing.timeout, Duration::from_secs(90));
    assert_eq!(timing.waits[2], Duration::from_secs(u64::MAX));
    assert_eq!(
        timing.to_json(),
        json!({
            "wait": "PT1H30M", "maybe": "P1DT2H", "timeout": "PT1M30S",
            "waits": ["P14D", "PT0S", "PT18446744073709551615S"],
        })
    );
    assert_eq!(Timing::parse(&timing.to_json()).unwrap(), timing);
    assert_eq!(
        errors::<Timing>(json!({
            "wait": "P1M", "maybe": "PT1.5S", "timeout": 90,
            "waits": ["P1Y", "P10000000000000D", "PT18446744073709551616S"],
        })),
        "wait: expected a duration in weeks, days, hours, minutes and seconds such as \"P1DT2H\", got \"P1M\": years and months have no fixed length\n\
         maybe: expected duration string such as \"P1DT2H\", got \"PT1.5S\"\n\
         timeout: expected string, got number 90\n\
         waits[0]: expected a duration in weeks, days, hours, minutes and seconds such as \"P1DT2H\", got \"P1Y\": years and months have no fixed length\n\
         waits[1]: expected a duration whose numbers have at most 13 digits (seconds alone at most 18446744073709551615), got \"P10000000000000D\"\n\
         waits[2]: expected a duration whose numbers have at most 13 digits (seconds alone at most 18446744073709551615), got \"PT18446744073709551616S\""
    );
    // A sub-second part is rounded up: the format has no fractions.
    assert_eq!(Duration::from_millis(1500).to_json(), json!("PT2S"));
}

#[derive(ToolParams, Debug, PartialEq)]
struct Keyed {
    by_u8: BTreeMap<u8, bool>,
    by_i32: HashMap<i32, u8>,
    by_step: BTreeMap<NonZeroI8, u8>,
    by_flag: BTreeMap<bool, u8>,
    by_letter: HashMap<char, u8>,
    by_id: BTreeMap<uuid::Uuid, u8>,
    by_host: BTreeMap<IpAddr, u8>,
    by_v6: BTreeMap<Ipv6Addr, u8>,
    names: BTreeMap<String, u8>,
}

#[test]
fn maps_with_keys_that_are_not_strings() {
    let schema = Keyed::json_schema();
    assert_eq!(
        schema["properties"]["by_u8"],
        json!({
            "type": "object",
            "additionalProperties": {"type": "boolean"},
            "propertyNames": {"pattern": "^(?:0|[1-9][0-9]?|1[0-9]{2}|2(?:[0-4][0-9]|5[0-5]))$"},
        })
    );
    assert_eq!(
        schema["properties"]["by_step"]["propertyNames"],
        json!({"pattern": "^(?:-(?:[1-9][0-9]?|1(?:[01][0-9]|2[0-8]))|[1-9][0-9]?|1(?:[01][0-9]|2[0-7]))$"})
    );
    assert_eq!(
        schema["properties"]["by_flag"]["propertyNames"],
        json!({"enum": ["true", "false"]})
    );
    assert_eq!(
        schema["properties"]["by_letter"]["propertyNames"],
        json!({"minLength": 1, "maxLength": 1})
    );
    assert_eq!(
        schema["properties"]["by_host"]["propertyNames"],
        json!({"anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]})
    );
    // String keys: today's schema exactly, no `propertyNames`.
    assert_eq!(
        schema["properties"]["names"],
        json!({"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 255}})
    );
    let keyed = Keyed::parse(&json!({
        "by_u8": {"0": true, "255": false},
        "by_i32": {"-2147483648": 1, "7": 2},
        "by_step": {"-128": 1, "127": 2},
        "by_flag": {"true": 1, "false": 0},
        "by_letter": {"é": 1},
        "by_id": {"123e4567-e89b-12d3-a456-426614174000": 1},
        "by_host": {"192.0.2.1": 1, "::ffff:192.0.2.1": 2},
        "by_v6": {"0:0:0:0:0:0:0:1": 1},
        "names": {"any key": 1},
    }))
    .unwrap();
    assert_eq!(keyed.by_i32[&i32::MIN], 1);
    assert_eq!(keyed.by_step[&NonZeroI8::new(-128).unwrap()], 1);
    // Two addresses, not one: an IPv4 address and an IPv4-mapped IPv6 one.
    assert_eq!(keyed.by_host.len(), 2);
    let written = keyed.to_json();
    // Keys are written back in their canonical form.
    assert_eq!(written["by_v6"], json!({"::1": 1}));
    assert_eq!(written["by_u8"], json!({"0": true, "255": false}));
    assert_eq!(Keyed::parse(&written).unwrap(), keyed);
    assert_eq!(
        errors::<Keyed>(json!({
            "by_u8": {"01": true, "256": false, "+1": true},
            "by_i32": {"-0": 1, "2147483648": 2},
            "by_step": {"0": 1},
            "by_flag": {"yes": 1},
            "by_letter": {"ab": 1},
            "by_id": {"123E4567-E89B-12D3-A456-426614174000": 1},
            "by_host": {"localhost": 1},
            "by_v6": {"::1": 1, "0::1": 2},
            "names": {},
        })),
        "by_u8.01: expected a key that is an integer from 0 to 255, in plain decimal (no \"+\", no leading zeros), got \"01\"\n\
         by_u8.256: expected a key that is an integer from 0 to 255, in plain decimal (no \"+\", no leading zeros), got \"256\"\n\
         by_u8[\"+1\"]: expected a key that is an integer from 0 to 255, in plain decimal (no \"+\", no leading zeros), got \"+1\"\n\
         by_i32.-0: expected a key that is an integer from -2147483648 to 2147483647, in plain decimal (no \"+\", no \"-0\", no leading zeros), got \"-0\"\n\
         by_i32.2147483648: expected a key that is an integer from -2147483648 to 2147483647, in plain decimal (no \"+\", no \"-0\", no leading zeros), got \"2147483648\"\n\
         by_step.0: expected a key that is a non-zero integer from -128 to 127, in plain decimal (no \"+\", no \"-0\", no leading zeros), got \"0\"\n\
         by_flag.yes: expected a key that is \"true\" or \"false\", got \"yes\"\n\
         by_letter.ab: expected a key of exactly 1 character, got \"ab\"\n\
         by_id.123E4567-E89B-12D3-A456-426614174000: expected a key that is a lowercase hyphenated uuid such as \"123e4567-e89b-12d3-a456-426614174000\", got \"123E4567-E89B-12D3-A456-426614174000\"\n\
         by_host.localhost: expected a key that is an ipv4 or ipv6 address such as \"192.0.2.1\" or \"2001:db8::1\", got \"localhost\"\n\
         by_v6[\"0::1\"]: repeats the key \"::1\" (the same value written another way): the keys must be unique"
    );
}

/// The one place parse is stricter than a map's schema: two spellings of
/// one IPv6 address are two keys to JSON Schema (`propertyNames` judges
/// each key alone) and one to the map, so parse refuses the second.
#[test]
fn a_repeated_address_is_the_one_refusal_the_schema_cannot_state() {
    let schema = <BTreeMap<Ipv6Addr, u8> as ParamValue>::schema();
    let validator = crate::support::validator_for(&schema);
    let twice = json!({"::1": 1, "0:0::1": 2});
    assert!(validator.is_valid(&twice));
    let mut cx = tool_core::params::ParseContext::new();
    let parsed = <BTreeMap<Ipv6Addr, u8>>::parse_value(
        &twice,
        &tool_core::params::ParamPath::root(),
        &mut cx,
    );
    assert_eq!(parsed, None);
    assert_eq!(
        cx.into_error().to_string(),
        "arguments[\"0:0::1\"]: repeats the key \"::1\" (the same value written another way): the keys must be unique"
    );
}

#[derive(ToolParams, Debug)]
#[allow(dead_code)]
struct ForProviders {
    step: NonZeroI8,
    wait: Duration,
    by_u8: BTreeMap<u8, bool>,
}

/// What each provider's format makes of the new schemas: a signed
/// non-zero integer's `anyOf` of two ranges is kept (typed in each choice
/// where a format wants a type everywhere), and what a format drops
/// (`propertyNames`, the `duration` format) is said to be still enforced
/// by parse.
#[test]
fn the_new_schemas_in_every_provider_format() {
    use tool_core::ToolDefinition;
    use tool_core::providers::ProviderFormat;
    let definitions = [ToolDefinition::new("t", "d", ForProviders::json_schema())];
    let mut dropped = Vec::new();
    for format in ProviderFormat::ALL {
        let converted = format.definitions(&definitions);
        for diagnostic in &converted.diagnostics {
            let path = diagnostic.path.as_str();
            if path.ends_with("/propertyNames") || path.ends_with("/format") {
                assert!(
                    diagnostic.message.starts_with("dropped:")
                        && diagnostic.message.ends_with("(parse still enforces it)"),
                    "{format}: {diagnostic:?}"
                );
                dropped.push(format!("{format} {path}"));
            }
            if path == "/properties/step" {
                assert!(
                    diagnostic.message.ends_with("the same values pass"),
                    "{format}: {diagnostic:?}"
                );
            }
        }
    }
    assert_eq!(
        dropped,
        [
            "gemini-legacy /properties/wait/format",
            "gemini-legacy /properties/by_u8/propertyNames"
        ]
    );
}
