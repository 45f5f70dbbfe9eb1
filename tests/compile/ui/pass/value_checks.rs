//! What the value checks let through, and what they leave to the schema's
//! build: bounds beyond the type are redundant (the type's own bound
//! stays), lengths count characters, `[^]` and `[]` are ECMA-262's any and
//! no character, and a default or list value the derive cannot evaluate is
//! checked when the schema is built.
use serde_json::json;
use tool_core::ToolParams;

#[derive(ToolParams, Debug)]
struct Loose {
    #[param(min = -5, max = 300)]
    level: u8,
    #[param(max_length = 4, default = "éééé")]
    code: String,
    #[param(one_of = [1, 2], default = 2)]
    stars: u8,
    #[param(pattern = "^[^]*$")]
    anything: String,
    #[param(pattern = "^(?:never[]|yes)$")]
    answer: String,
    #[param(min = 2.5, max = 3.5)]
    steps: i32,
}

#[derive(ToolParams, Debug)]
struct DefaultBelowMin {
    // `Default::default()` is 0, which the derive cannot see.
    #[param(default, min = 1)]
    #[allow(dead_code)]
    limit: u32,
}

#[derive(ToolParams, Debug)]
struct ListedNotEmail {
    #[param(format = "email", one_of = ["a@example.com", "nobody"])]
    #[allow(dead_code)]
    to: String,
}

fn panic_message(build: fn() -> serde_json::Value) -> String {
    std::panic::set_hook(Box::new(|_| {}));
    let payload = std::panic::catch_unwind(build).expect_err("the schema build should panic");
    let _ = std::panic::take_hook();
    payload
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default()
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    let schema = Loose::json_schema();
    let properties = &schema["properties"];
    assert_eq!(
        properties["level"],
        json!({"type": "integer", "minimum": 0, "maximum": 255})
    );
    assert_eq!(
        properties["code"],
        json!({"type": "string", "maxLength": 4, "default": "éééé"})
    );
    assert_eq!(
        properties["anything"],
        json!({"type": "string", "pattern": "^[^]*$"})
    );

    let loose = Loose::parse(&json!({
        "level": 255, "anything": "two\nlines", "answer": "yes", "steps": 3,
    }))
    .unwrap();
    assert_eq!(
        (loose.level, loose.code.as_str(), loose.stars),
        (255, "éééé", 2)
    );
    assert_eq!(
        (loose.anything.as_str(), loose.answer.as_str(), loose.steps),
        ("two\nlines", "yes", 3)
    );
    assert_eq!(
        Loose::parse(&json!({"level": 1, "anything": "", "answer": "never", "steps": 3}))
            .unwrap_err()
            .to_string(),
        "answer: expected a string matching \"^(?:never[]|yes)$\", got \"never\""
    );

    assert_eq!(
        panic_message(DefaultBelowMin::json_schema),
        "#[derive(ToolParams)]: the default 0 of field `limit` breaks the field's own attributes (limit: expected integer >= 1, got 0): a call that leaves the field out would get a value the schema forbids; change the default or the attribute"
    );
    assert!(panic_message(ListedNotEmail::json_schema).starts_with(
        "#[derive(ToolParams)]: the `one_of` list of field `to` holds a value the field's own attributes refuse (to: expected email string"
    ));
}
