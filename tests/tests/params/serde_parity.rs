//! serde's words with serde's meanings: what a serde user reaches for
//! works on `#[derive(ToolParams)]` too, and the schema says the same.

use crate::support::errors;
use serde_json::json;
use tool_core::ToolParams;
use tool_core::params::{ParamPath, ParamValue, ParseContext};

/// `T` parsed from `value` anywhere (not as a tool's arguments).
fn value_parse<T: ParamValue>(value: serde_json::Value) -> T {
    let mut cx = ParseContext::new();
    let parsed = T::parse_value(&value, &ParamPath::root(), &mut cx);
    assert!(cx.is_empty(), "{}", cx.into_error());
    parsed.unwrap()
}

/// Attributes on the fields of tuple and newtype variants.
#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "snake_case")]
enum Shape {
    Point(
        /// Horizontal
        #[param(min = -100, max = 100)]
        i32,
        #[param(min = -100, max = 100)] i32,
    ),
    Label(#[param(min_length = 1, max_length = 8)] String),
}

#[test]
fn tuple_and_newtype_variant_fields_take_constraints_and_descriptions() {
    let schema = <Shape as ParamValue>::schema();
    let point = &schema["oneOf"][0]["properties"]["point"];
    assert_eq!(point["prefixItems"][0]["description"], "Horizontal");
    assert_eq!(point["prefixItems"][0]["minimum"], -100);
    assert_eq!(point["prefixItems"][1]["maximum"], 100);
    let label = &schema["oneOf"][1]["properties"]["label"];
    assert_eq!(label["minLength"], 1);
    assert_eq!(label["maxLength"], 8);

    assert_eq!(
        Shape::parse(&json!({"point": [3, -4]})).unwrap(),
        Shape::Point(3, -4)
    );
    assert_eq!(
        errors::<Shape>(json!({"point": [3, 400]})),
        "point[1]: expected integer <= 100, got 400"
    );
    assert_eq!(
        errors::<Shape>(json!({"label": ""})),
        "label: expected string of at least 1 character, got 0"
    );
}

#[derive(ToolParams, Debug, PartialEq)]
#[param(deny_unknown_fields)]
struct Search {
    /// What to look for
    #[param(alias = "q", alias = "search")]
    query: String,
    #[param(rename = "maxResults", alias = "max_results", alias = "limit")]
    max_results: Option<u32>,
}

#[derive(ToolParams, Debug, PartialEq)]
#[param(tag = "op", rename_all = "snake_case")]
enum Edit {
    #[param(alias = "add", alias = "append")]
    Insert { text: String },
    #[param(alias = "remove")]
    Delete,
}

#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "lowercase")]
enum Level {
    #[param(alias = "warn")]
    Warning,
    Error,
}

#[test]
fn aliases_are_read_and_the_schema_shows_the_main_name() {
    let schema = Search::json_schema();
    assert_eq!(
        schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["query", "maxResults"]
    );
    assert_eq!(schema["required"], json!(["query"]));
    let expected = Search {
        query: "rust".into(),
        max_results: Some(3),
    };
    assert_eq!(
        Search::parse(&json!({"q": "rust", "limit": 3})).unwrap(),
        expected
    );
    assert_eq!(
        Search::parse(&json!({"search": "rust", "max_results": 3})).unwrap(),
        expected
    );
    assert_eq!(
        Search::parse(&json!({"query": "rust", "maxResults": 3})).unwrap(),
        expected
    );
    // Written back under the main names.
    assert_eq!(
        expected.to_json(),
        json!({"query": "rust", "maxResults": 3})
    );
    // Sent under two of its names: refused, as serde refuses a duplicate.
    assert_eq!(
        errors::<Search>(json!({"query": "a", "q": "b"})),
        "q: names the field \"query\", which was already sent under another of its names: send it once"
    );
    // Unknown keys are still refused, and the list shows main names only.
    assert_eq!(
        errors::<Search>(json!({"query": "a", "sort": 1})),
        "sort: unknown field (expected one of: query, maxResults)"
    );

    assert_eq!(
        Edit::parse(&json!({"op": "append", "text": "x"})).unwrap(),
        Edit::Insert { text: "x".into() }
    );
    assert_eq!(Edit::parse(&json!({"op": "remove"})).unwrap(), Edit::Delete);
    assert_eq!(
        Edit::json_schema()["oneOf"][0]["properties"]["op"]["const"],
        "insert"
    );
    assert_eq!(
        errors::<Edit>(json!({"op": "erase"})),
        "op: expected one of \"insert\", \"delete\", got \"erase\""
    );
    assert_eq!(
        Edit::Insert { text: "x".into() }.to_json(),
        json!({"op": "insert", "text": "x"})
    );

    assert_eq!(
        <Level as ParamValue>::schema()["enum"],
        json!(["warning", "error"])
    );
    assert_eq!(value_parse::<Level>(json!("warn")), Level::Warning);
}

/// A user's id, as the account service writes it
#[derive(ToolParams, Debug, PartialEq, Clone)]
struct UserId(#[param(pattern = "^u[0-9]+$", max_length = 12)] String);

#[derive(ToolParams, Debug, PartialEq)]
struct Percent(#[param(max = 100)] u8);

#[derive(ToolParams, Debug, PartialEq)]
#[param(transparent)]
struct Tags {
    #[param(min_length = 1)]
    tags: Vec<String>,
    #[param(skip, default = 7)]
    revision: u32,
}

#[derive(ToolParams, Debug, PartialEq)]
struct Grant {
    /// Who gets it
    user: UserId,
    share: Option<Percent>,
    #[param(max_length = 2)]
    tags: Tags,
    #[param(one_of = ["u1", "u2"])]
    admin: Option<UserId>,
}

#[test]
fn newtypes_and_transparent_structs_are_the_value_they_wrap() {
    let schema = Grant::json_schema();
    assert_eq!(
        schema["properties"]["user"],
        json!({"description": "Who gets it", "type": "string", "pattern": "^u[0-9]+$", "maxLength": 12})
    );
    assert_eq!(
        schema["properties"]["share"],
        json!({"type": "integer", "minimum": 0, "maximum": 100})
    );
    assert_eq!(schema["properties"]["tags"]["minItems"], 1);
    assert_eq!(schema["properties"]["tags"]["maxItems"], 2);
    assert_eq!(schema["required"], json!(["user", "tags"]));
    // The newtype's own doc comment describes it where the field does not.
    assert_eq!(
        <UserId as ParamValue>::schema()["description"],
        "A user's id, as the account service writes it"
    );

    let grant =
        Grant::parse(&json!({"user": "u7", "share": 40, "tags": ["a"], "admin": "u1"})).unwrap();
    assert_eq!(grant.user, UserId("u7".into()));
    assert_eq!(grant.share, Some(Percent(40)));
    assert_eq!(
        grant.tags,
        Tags {
            tags: vec!["a".into()],
            revision: 7
        }
    );
    assert_eq!(
        grant.to_json(),
        json!({"user": "u7", "share": 40, "tags": ["a"], "admin": "u1"})
    );
    assert_eq!(
        errors::<Grant>(json!({"user": "x7", "share": 200, "tags": [], "admin": "u3"})),
        "user: expected a string matching \"^u[0-9]+$\", got \"x7\"\n\
         share: expected integer <= 100, got 200\n\
         tags: expected array of at least 1 item, got 0\n\
         admin: expected one of \"u1\", \"u2\", got \"u3\""
    );
}

/// One of several actions, as a tool's whole arguments beside its own.
#[derive(ToolParams, Debug, PartialEq)]
#[param(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Act {
    /// Click at a point
    Click { x: i32, y: i32 },
    /// Type some text
    Type { text: String },
    /// Take a screenshot
    Screenshot,
}

#[derive(ToolParams, Debug, PartialEq)]
#[param(deny_unknown_fields)]
struct Computer {
    #[param(flatten)]
    act: Act,
    /// Which display
    display: Option<u8>,
}

#[derive(ToolParams, Debug, PartialEq)]
#[param(tag = "kind", content = "data", rename_all = "lowercase")]
enum Payload {
    Text(String),
    Empty,
}

#[derive(ToolParams, Debug, PartialEq)]
struct Message {
    to: String,
    #[param(flatten)]
    payload: Payload,
}

#[test]
fn a_flattened_tagged_enum_makes_the_object_a_choice() {
    let schema = Computer::json_schema();
    assert_eq!(schema["type"], "object");
    assert!(schema.get("properties").is_none());
    let shapes = schema["oneOf"].as_array().unwrap();
    assert_eq!(shapes.len(), 3);
    assert_eq!(
        shapes[0],
        json!({
            "description": "Click at a point",
            "type": "object",
            "properties": {
                "display": {"description": "Which display", "type": "integer", "minimum": 0, "maximum": 255},
                "action": {"type": "string", "const": "click"},
                "x": {"type": "integer", "minimum": i32::MIN, "maximum": i32::MAX},
                "y": {"type": "integer", "minimum": i32::MIN, "maximum": i32::MAX},
            },
            "required": ["action", "x", "y"],
            "additionalProperties": false,
        })
    );

    let click = Computer::parse(&json!({"action": "click", "x": 1, "y": 2, "display": 1})).unwrap();
    assert_eq!(
        click,
        Computer {
            act: Act::Click { x: 1, y: 2 },
            display: Some(1)
        }
    );
    assert_eq!(
        click.to_json(),
        json!({"action": "click", "x": 1, "y": 2, "display": 1})
    );
    assert_eq!(
        Computer::parse(&json!({"action": "screenshot"}))
            .unwrap()
            .act,
        Act::Screenshot
    );
    // The struct's fields are not the enum's unknown keys, and another
    // variant's value is refused (a strict model's `null` is not).
    assert_eq!(
        errors::<Computer>(json!({"action": "click", "x": 1, "y": 2, "text": "hi"})),
        "text: unknown field (expected one of: action, x, y)"
    );
    assert_eq!(
        Computer::parse(
            &json!({"action": "type", "text": "hi", "x": null, "y": null, "display": null})
        )
        .unwrap()
        .act,
        Act::Type { text: "hi".into() }
    );
    assert_eq!(
        errors::<Computer>(json!({"action": "type", "text": "hi", "zoom": 2})),
        "zoom: unknown field (expected one of: display, action, x, y, text)"
    );

    let schema = Message::json_schema();
    assert_eq!(
        schema["oneOf"][0]["required"],
        json!(["to", "kind", "data"])
    );
    assert_eq!(schema["oneOf"][1]["required"], json!(["to", "kind"]));
    let message = Message::parse(&json!({"to": "ann", "kind": "text", "data": "hi"})).unwrap();
    assert_eq!(message.payload, Payload::Text("hi".into()));
    assert_eq!(
        message.to_json(),
        json!({"to": "ann", "kind": "text", "data": "hi"})
    );
}

#[test]
fn every_provider_format_takes_a_flattened_enum_as_a_root_enum() {
    use tool_core::ToolDefinition;
    use tool_core::providers::ProviderFormat;
    let definitions = [ToolDefinition::new(
        "computer",
        "Use it",
        Computer::json_schema(),
    )];
    for format in ProviderFormat::ALL {
        let converted = format.definitions(&definitions);
        let text = converted.value.to_string();
        match format {
            ProviderFormat::Neutral | ProviderFormat::Mcp => assert!(text.contains("oneOf")),
            _ => assert!(
                !text.contains("oneOf") && text.contains("\"action\""),
                "{format}: {text}"
            ),
        }
    }
}

/// Use the computer.
#[tool_core::tool]
async fn use_computer(#[param(flatten)] act: Act, display: Option<u8>) -> String {
    format!("{act:?} on {}", display.unwrap_or(0))
}

#[tokio::test]
async fn a_tool_function_takes_a_tagged_enum_as_its_whole_arguments() {
    use tool_core::{RunOptions, ToolCall, ToolRegistry, execute_tool_call};
    let mut tools = ToolRegistry::new();
    tools.register(UseComputerTool).unwrap();
    let definitions = tools.definitions();
    assert_eq!(
        definitions[0].parameters["oneOf"].as_array().map(Vec::len),
        Some(3)
    );
    let call = ToolCall::new(
        "c1",
        "use_computer",
        json!({"action": "click", "x": 3, "y": 4}),
    );
    let result = execute_tool_call(&call, &tools, RunOptions::default()).await;
    assert_eq!(
        crate::support::text_of(&result),
        "Click { x: 3, y: 4 } on 0"
    );
}
