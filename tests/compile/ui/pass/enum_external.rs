//! An externally tagged enum (no attribute) with every kind of variant: a
//! unit variant is a string, the others `{"name": data}`. As a field, and
//! (without the unit variant, so every value is an object) as a tool's
//! whole parameters.
use serde_json::{Value, json};
use tool_core::{ToolParams, params::ParamValue};

#[derive(ToolParams, Debug, PartialEq)]
struct Point {
    x: i32,
    y: i32,
}

/// What to draw.
#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "snake_case")]
enum Shape {
    /// Nothing at all
    Empty,
    Dot(Point),
    Segment(Point, Point),
    #[param(rename = "circle", description = "A circle")]
    RoundThing {
        center: Point,
        radius: f64,
    },
}

#[derive(ToolParams, Debug, PartialEq)]
struct Draw {
    shape: Shape,
    extra: Option<Shape>,
}

/// A command as the whole arguments.
#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "kebab-case", rename_all_fields = "camelCase")]
enum Command {
    MoveTo(Point),
    Resize(u32, u32),
    SetTitle { new_title: String },
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    let point = json!({
        "type": "object",
        "properties": {
            "x": {"type": "integer", "minimum": -2147483648i64, "maximum": 2147483647},
            "y": {"type": "integer", "minimum": -2147483648i64, "maximum": 2147483647},
        },
        "required": ["x", "y"],
        "additionalProperties": false,
    });
    let shape = json!({
        "description": "What to draw.",
        "oneOf": [
            {"description": "Nothing at all", "type": "string", "const": "empty"},
            {
                "type": "object",
                "properties": {"dot": point},
                "required": ["dot"],
                "maxProperties": 1,
            },
            {
                "type": "object",
                "properties": {"segment": {
                    "type": "array",
                    "prefixItems": [point, point],
                    "items": false,
                    "minItems": 2,
                }},
                "required": ["segment"],
                "maxProperties": 1,
            },
            {
                "description": "A circle",
                "type": "object",
                "properties": {"circle": {
                    "type": "object",
                    "properties": {"center": point, "radius": {"type": "number"}},
                    "required": ["center", "radius"],
                    "additionalProperties": false,
                }},
                "required": ["circle"],
                "maxProperties": 1,
            },
        ],
    });
    assert_eq!(
        Draw::json_schema(),
        json!({
            "type": "object",
            "properties": {"shape": shape, "extra": shape},
            "required": ["shape"],
            "additionalProperties": false,
        })
    );

    let draw = Draw::parse(&json!({
        "shape": {"circle": {"center": {"x": 1, "y": -2}, "radius": 0.5}},
        "extra": "empty",
    }))
    .unwrap();
    assert_eq!(
        draw,
        Draw {
            shape: Shape::RoundThing {
                center: Point { x: 1, y: -2 },
                radius: 0.5
            },
            extra: Some(Shape::Empty),
        }
    );
    let shapes = [
        (json!("empty"), Shape::Empty),
        (
            json!({"dot": {"x": 0, "y": 1}}),
            Shape::Dot(Point { x: 0, y: 1 }),
        ),
        (
            json!({"segment": [{"x": 0, "y": 0}, {"x": 3, "y": 4}]}),
            Shape::Segment(Point { x: 0, y: 0 }, Point { x: 3, y: 4 }),
        ),
    ];
    for (value, expected) in shapes {
        let draw = Draw::parse(&json!({"shape": value})).unwrap();
        assert_eq!(draw.shape, expected);
        // Back to JSON, and round again.
        assert_eq!(draw.shape.to_json(), value);
        assert_eq!(draw.extra, None);
    }

    let errors = |value: Value| Draw::parse(&value).unwrap_err().to_string();
    assert_eq!(
        errors(json!({"shape": "dot"})),
        "shape: expected an object {\"dot\": ...} (the variant carries data), got string \"dot\""
    );
    assert_eq!(
        errors(json!({"shape": {"segment": [{"x": 0, "y": 0}]}})),
        "shape.segment: expected array of exactly 2 items, got 1"
    );
    assert_eq!(
        errors(json!({"shape": {"circel": {}}})),
        "shape: expected the only key to be one of \"empty\", \"dot\", \"segment\", \"circle\", got \"circel\": did you mean \"circle\"?"
    );
    assert_eq!(
        errors(json!({"shape": {"circle": {"center": {"x": 1}, "radius": "big"}}})),
        "shape.circle.center.y: missing required field\nshape.circle.radius: expected number, got string \"big\""
    );

    // The whole arguments: every alternative is an object.
    let schema = Command::json_schema();
    assert_eq!(schema["type"], "object");
    assert_eq!(
        schema["oneOf"][2],
        json!({
            "type": "object",
            "properties": {"set-title": {
                "type": "object",
                "properties": {"newTitle": {"type": "string"}},
                "required": ["newTitle"],
                "additionalProperties": false,
            }},
            "required": ["set-title"],
            "maxProperties": 1,
        })
    );
    assert_eq!(
        Command::parse(&json!({"move-to": {"x": 1, "y": 2}})).unwrap(),
        Command::MoveTo(Point { x: 1, y: 2 })
    );
    assert_eq!(
        Command::parse(&json!({"resize": [640, 480]})).unwrap(),
        Command::Resize(640, 480)
    );
    let command = Command::parse(&json!({"set-title": {"newTitle": "hi"}})).unwrap();
    assert_eq!(
        command,
        Command::SetTitle {
            new_title: "hi".into()
        }
    );
    assert_eq!(command.to_json(), json!({"set-title": {"newTitle": "hi"}}));
    assert_eq!(
        Command::parse(&json!({"resize": [1, 2], "move-to": {}}))
            .unwrap_err()
            .to_string(),
        "arguments: expected an object with exactly one key, the variant's name (one of \"move-to\", \"resize\", \"set-title\"), got 2 keys"
    );
}
