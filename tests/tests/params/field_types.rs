//! The field types beyond scalars, lists and maps: sets, fixed arrays,
//! tuples, `char`, `Arc<T>`, `PathBuf`, IP addresses, and (behind
//! tool-core's features) `uuid::Uuid`, `url::Url`, `chrono::DateTime<Utc>`,
//! `chrono::NaiveDate`.

use crate::support::errors;
use serde_json::json;
use std::collections::{BTreeSet, HashSet};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::path::PathBuf;
use std::sync::Arc;
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
         point[3]: expected boolean, got number\n\
         letter: expected a string of exactly 1 character, got \"ab\"\n\
         shared: expected string, got number\n\
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
