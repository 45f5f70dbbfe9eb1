//! The field types added with the new constructs: sets, fixed-size arrays,
//! tuples, `char`, `Arc<T>`, `PathBuf` and IP addresses; each one's schema,
//! parse, errors and JSON.
use serde_json::json;
use std::collections::{BTreeSet, HashSet};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::path::PathBuf;
use std::sync::Arc;
use tool_core::{ToolParams, params::ParamValue};

#[derive(ToolParams, Debug, PartialEq)]
struct Everything {
    tags: HashSet<String>,
    ids: BTreeSet<u8>,
    rgb: [u8; 3],
    pair: (String, bool),
    single: (i8,),
    separator: char,
    shared: Arc<String>,
    shared_list: Arc<Vec<bool>>,
    file: PathBuf,
    any_ip: IpAddr,
    v4: Ipv4Addr,
    v6: Option<Ipv6Addr>,
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    let u8_schema = json!({"type": "integer", "minimum": 0, "maximum": 255});
    assert_eq!(
        Everything::json_schema(),
        json!({
            "type": "object",
            "properties": {
                "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
                "ids": {"type": "array", "items": u8_schema, "uniqueItems": true},
                "rgb": {"type": "array", "items": u8_schema, "minItems": 3, "maxItems": 3},
                "pair": {
                    "type": "array",
                    "prefixItems": [{"type": "string"}, {"type": "boolean"}],
                    "items": false,
                    "minItems": 2,
                },
                "single": {
                    "type": "array",
                    "prefixItems": [{"type": "integer", "minimum": -128, "maximum": 127}],
                    "items": false,
                    "minItems": 1,
                },
                "separator": {"type": "string", "minLength": 1, "maxLength": 1},
                "shared": {"type": "string"},
                "shared_list": {"type": "array", "items": {"type": "boolean"}},
                "file": {"type": "string"},
                "any_ip": {"type": "string", "anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]},
                "v4": {"type": "string", "format": "ipv4"},
                "v6": {"type": "string", "format": "ipv6"},
            },
            "required": [
                "tags", "ids", "rgb", "pair", "single", "separator", "shared",
                "shared_list", "file", "any_ip", "v4",
            ],
            "additionalProperties": false,
        })
    );

    let arguments = json!({
        "tags": ["b", "a"],
        "ids": [3, 1, 2],
        "rgb": [255, 0, 128],
        "pair": ["x", true],
        "single": [-5],
        "separator": "é",
        "shared": "s",
        "shared_list": [true, false],
        "file": "dir/file.txt",
        "any_ip": "2001:db8::1",
        "v4": "192.0.2.1",
        "v6": "::1",
    });
    let parsed = Everything::parse(&arguments).unwrap();
    assert_eq!(
        parsed,
        Everything {
            tags: HashSet::from(["a".to_owned(), "b".to_owned()]),
            ids: BTreeSet::from([1, 2, 3]),
            rgb: [255, 0, 128],
            pair: ("x".into(), true),
            single: (-5,),
            separator: 'é',
            shared: Arc::new("s".into()),
            shared_list: Arc::new(vec![true, false]),
            file: PathBuf::from("dir/file.txt"),
            any_ip: IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1)),
            v4: Ipv4Addr::new(192, 0, 2, 1),
            v6: Some(Ipv6Addr::LOCALHOST),
        }
    );
    // Back to JSON: a HashSet is sorted by its items' JSON text, a BTreeSet
    // by the items, and the absent option is left out.
    let mut expected = arguments.clone();
    expected["tags"] = json!(["a", "b"]);
    expected["ids"] = json!([1, 2, 3]);
    assert_eq!(parsed.to_json(), expected);
    let without_v6 = json!({"v6": null});
    let mut arguments_v6_null = arguments.clone();
    arguments_v6_null["v6"] = without_v6["v6"].clone();
    assert_eq!(Everything::parse(&arguments_v6_null).unwrap().v6, None);

    let mut wrong = arguments.clone();
    wrong["tags"] = json!(["a", "a"]);
    wrong["ids"] = json!([1, 1.0]);
    wrong["rgb"] = json!([1, 2]);
    wrong["pair"] = json!(["x", 1]);
    wrong["single"] = json!([1, 2]);
    wrong["separator"] = json!("ab");
    wrong["shared"] = json!(1);
    wrong["file"] = json!(null);
    wrong["any_ip"] = json!("localhost");
    wrong["v4"] = json!("256.0.0.1");
    wrong["v6"] = json!("1.2.3.4");
    assert_eq!(
        Everything::parse(&wrong).unwrap_err().to_string(),
        "tags[1]: repeats item 0: the items must be unique\n\
         ids[1]: repeats item 0: the items must be unique\n\
         rgb: expected array of exactly 3 items, got 2\n\
         pair[1]: expected boolean, got number 1\n\
         single: expected array of exactly 1 item, got 2\n\
         separator: expected a string of exactly 1 character, got \"ab\"\n\
         shared: expected string, got number 1\n\
         file: expected string, got null\n\
         any_ip: expected an ipv4 or ipv6 address such as \"192.0.2.1\" or \"2001:db8::1\", got \"localhost\"\n\
         v4: expected ipv4 string such as \"192.0.2.1\", got \"256.0.0.1\"\n\
         v6: expected ipv6 string such as \"2001:db8::1\", got \"1.2.3.4\""
    );
}
