//! A result's JSON text is written by hand (`tool-core`'s
//! `message/result_wire.rs`): by `write_json`, and by its `Serialize` when
//! the serializer is serde_json's compact one over a byte vector
//! (`to_string`, `to_vec`, `to_writer` into a `&mut Vec<u8>`). Every other
//! serializer is given the fields as serde's derive gives them. Each path
//! must give what the derive of the wire shape (`Reference` below) gives the
//! same serializer, for every result, or `tool-examples call` and programs
//! that serialize results themselves would disagree.

use crate::support::generators::{float_json, string_of};
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use serde::Serialize;
use serde_json::{Map, Value};
use std::io::Cursor;
use tool_core::{
    Content, EmbeddedResource, FailureKind, ToolCall, ToolResultMessage, repair::Repair,
    repair::RepairRule,
};

/// Strings of the characters JSON escapes and the ones it leaves (the
/// shared set), or of any characters at all (control characters, DEL,
/// U+2028, astral planes); up to 8 characters, or up to 40 (past the
/// 8-byte words the writer scans text in).
fn short() -> BoxedStrategy<String> {
    prop_oneof![
        3 => string_of(0..=8),
        1 => string_of(9..=40),
        1 => any::<String>().prop_map(|text| text.chars().take(8).collect()),
        1 => any::<String>().prop_map(|text| text.chars().take(40).collect()),
    ]
    .boxed()
}

fn json() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(float_json),
        short().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..4).prop_map(Value::Array),
            vec((short(), inner), 0..4)
                .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>())),
        ]
    })
    .boxed()
}

fn content() -> BoxedStrategy<Content> {
    prop_oneof![
        3 => short().prop_map(Content::text),
        1 => (vec(any::<u8>(), 0..12), short()).prop_map(|(bytes, mime)| Content::image(bytes, mime)),
        1 => (vec(any::<u8>(), 0..12), short()).prop_map(|(bytes, mime)| Content::audio(bytes, mime)),
        1 => (short(), short(), option::of(short()), option::of(short())).prop_map(
            |(uri, name, description, mime_type)| match Content::resource_link(uri, name) {
                Content::ResourceLink { uri, name, .. } => Content::ResourceLink {
                    uri,
                    name,
                    description,
                    mime_type,
                },
                other => other,
            }
        ),
        // Every combination of the optional fields, text and bytes.
        1 => (short(), option::of(short()), option::of(short()), option::of(short())).prop_map(
            |(uri, mime_type, text, blob)| Content::Resource {
                resource: EmbeddedResource { uri, mime_type, text, blob },
            }
        ),
    ]
    .boxed()
}

fn repair() -> BoxedStrategy<Repair> {
    let rules = RepairRule::ALL
        .into_iter()
        .chain([RepairRule::BeforeHook])
        .collect::<Vec<_>>();
    (
        short(),
        json(),
        json(),
        prop::sample::select(rules),
        option::of(any::<u64>()),
        option::of(any::<u64>()),
    )
        .prop_map(|(path, sent, used, rule, sent_bytes, used_bytes)| {
            // Every field as it may be on the wire, excerpt sizes included
            // (set after `new`, which would keep these short values whole).
            let mut repair = Repair::new(path, &sent, &used, rule);
            repair.sent_bytes = sent_bytes;
            repair.used_bytes = used_bytes;
            repair
        })
        .boxed()
}

fn failure_kind() -> impl Strategy<Value = Option<FailureKind>> {
    option::of(prop::sample::select(vec![
        FailureKind::Retry,
        FailureKind::Fatal,
        FailureKind::Internal,
        FailureKind::Denied,
    ]))
}

prop_compose! {
    fn result()(
        tool_call_id in short(),
        tool_name in short(),
        content in vec(content(), 0..4),
        details in option::of(json()),
        is_error in any::<bool>(),
        failure_kind in failure_kind(),
        repairs in vec(repair(), 0..3),
        timestamp in any::<u64>(),
    ) -> ToolResultMessage {
        let mut result = ToolResultMessage::new(&ToolCall::new(tool_call_id, tool_name, Value::Null), content);
        result.details = details;
        result.is_error = is_error;
        result.failure_kind = failure_kind;
        result.repairs = repairs;
        result.timestamp = timestamp;
        result
    }
}

/// The wire shape as serde's derive writes it: the attributes
/// `ToolResultMessage` is specified with (the result line of docs/wire-format.md).
#[derive(Serialize)]
#[serde(tag = "role", rename = "toolResult", rename_all = "camelCase")]
struct Reference<'a> {
    tool_call_id: &'a str,
    tool_name: &'a str,
    content: &'a [Content],
    #[serde(skip_serializing_if = "Option::is_none")]
    details: &'a Option<Value>,
    is_error: bool,
    #[serde(rename = "failure", skip_serializing_if = "retry_or_none")]
    failure_kind: &'a Option<FailureKind>,
    #[serde(skip_serializing_if = "<[Repair]>::is_empty")]
    repairs: &'a [Repair],
    timestamp: u64,
}

fn retry_or_none(failure: &&Option<FailureKind>) -> bool {
    matches!(failure, None | Some(FailureKind::Retry))
}

fn reference(result: &ToolResultMessage) -> Reference<'_> {
    Reference {
        tool_call_id: &result.tool_call_id,
        tool_name: &result.tool_name,
        content: &result.content,
        details: &result.details,
        is_error: result.is_error,
        failure_kind: &result.failure_kind,
        repairs: &result.repairs,
        timestamp: result.timestamp,
    }
}

fn cbor<T: Serialize>(value: &T) -> Vec<u8> {
    let mut out = Vec::new();
    ciborium::into_writer(value, &mut out).unwrap();
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn write_json_writes_what_serde_writes(result in result()) {
        let mut written = b"kept".to_vec();
        result.write_json(&mut written).unwrap();
        let serde = serde_json::to_vec(&reference(&result)).unwrap();
        prop_assert_eq!(&written[..4], b"kept", "it appends");
        prop_assert_eq!(
            String::from_utf8_lossy(&written[4..]),
            String::from_utf8_lossy(&serde)
        );
    }

    #[test]
    fn serde_json_writes_what_the_derive_writes(result in result()) {
        let derived = reference(&result);
        let compact = serde_json::to_string(&derived).unwrap();
        prop_assert_eq!(&serde_json::to_string(&result).unwrap(), &compact);
        prop_assert_eq!(
            String::from_utf8(serde_json::to_vec(&result).unwrap()).unwrap(),
            compact.as_str()
        );
        let mut written = b"kept".to_vec();
        serde_json::to_writer(&mut written, &result).unwrap();
        prop_assert_eq!(String::from_utf8_lossy(&written[4..]), compact.as_str());
        prop_assert_eq!(&written[..4], b"kept", "it appends");
        // A serializer that owns its vector, and one over another writer
        // (given the fields, not the text).
        let mut owning = serde_json::Serializer::new(Vec::new());
        result.serialize(&mut owning).unwrap();
        prop_assert_eq!(String::from_utf8(owning.into_inner()).unwrap(), compact.as_str());
        let mut cursor = Cursor::new(Vec::new());
        serde_json::to_writer(&mut cursor, &result).unwrap();
        prop_assert_eq!(String::from_utf8(cursor.into_inner()).unwrap(), compact.as_str());
        // Inside other values: a list, and a field of a struct.
        let pair = [result.clone(), result.clone()];
        prop_assert_eq!(
            serde_json::to_string(&pair).unwrap(),
            serde_json::to_string(&[reference(&result), reference(&result)]).unwrap()
        );
        prop_assert_eq!(
            serde_json::to_string(&Wrapped { before: 1, result: &result, after: "x" }).unwrap(),
            serde_json::to_string(&Wrapped { before: 1, result: &derived, after: "x" }).unwrap()
        );
    }

    #[test]
    fn other_serializers_see_what_the_derive_shows(result in result()) {
        let derived = reference(&result);
        prop_assert_eq!(
            serde_json::to_string_pretty(&result).unwrap(),
            serde_json::to_string_pretty(&derived).unwrap()
        );
        prop_assert_eq!(
            serde_json::to_value(&result).unwrap(),
            serde_json::to_value(&derived).unwrap()
        );
        prop_assert_eq!(cbor(&result), cbor(&derived));
        prop_assert_eq!(
            cbor(&Wrapped { before: 1, result: &result, after: "x" }),
            cbor(&Wrapped { before: 1, result: &derived, after: "x" })
        );
    }
}

#[derive(Serialize)]
struct Wrapped<'a, T> {
    before: u8,
    result: &'a T,
    after: &'a str,
}
