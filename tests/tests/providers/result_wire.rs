//! `ToolResultMessage::write_json` writes a result by hand, next to its
//! `Serialize` (serde's derive) that every other path uses. The two must
//! give the same bytes for every result, or `tool-examples call` would
//! answer differently from a program that serializes results itself.

use crate::support::generators::{float_json, string_of};
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use serde_json::{Map, Value};
use tool_core::{Content, FailureKind, ToolResultMessage, repair::Repair, repair::RepairRule};

fn short() -> BoxedStrategy<String> {
    string_of(0..=8)
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
    ]
    .boxed()
}

fn repair() -> BoxedStrategy<Repair> {
    let rules = RepairRule::ALL
        .into_iter()
        .chain([RepairRule::BeforeHook])
        .collect::<Vec<_>>();
    (short(), json(), json(), prop::sample::select(rules))
        .prop_map(|(path, sent, used, rule)| Repair {
            path,
            sent,
            used,
            rule,
        })
        .boxed()
}

fn failure_kind() -> impl Strategy<Value = Option<FailureKind>> {
    option::of(prop::sample::select(vec![
        FailureKind::Retry,
        FailureKind::Fatal,
        FailureKind::Internal,
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
        ToolResultMessage {
            tool_call_id,
            tool_name,
            content,
            details,
            is_error,
            failure_kind,
            repairs,
            timestamp,
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn write_json_writes_what_serde_writes(result in result()) {
        let mut written = b"kept".to_vec();
        result.write_json(&mut written).unwrap();
        let serde = serde_json::to_vec(&result).unwrap();
        prop_assert_eq!(&written[..4], b"kept", "it appends");
        prop_assert_eq!(
            String::from_utf8_lossy(&written[4..]),
            String::from_utf8_lossy(&serde)
        );
    }
}
