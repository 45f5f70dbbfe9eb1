use serde_json::json;
use tool_core::ToolParams;

/// Ignored: the `description` attribute wins over the doc comment.
#[derive(ToolParams, Debug)]
#[param(
    description = "Find pages",
    rename_all = "camelCase",
    deny_unknown_fields
)]
struct Find {
    page_size: u8,
    #[param(rename = "q")]
    search_query: String,
}

/// One field, `page_size`, under each of serde's case names.
macro_rules! cased {
    ($($name:ident = $rule:tt => $json:literal,)*) => {$(
        #[derive(ToolParams)]
        #[param(rename_all = $rule)]
        struct $name {
            #[allow(dead_code)]
            page_size: bool,
        }
        assert_eq!($name::json_schema()["required"], json!([$json]), $rule);
        assert!($name::parse(&json!({ $json: true })).is_ok(), $rule);
    )*};
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    assert_eq!(
        Find::json_schema(),
        json!({
            "description": "Find pages",
            "type": "object",
            "properties": {
                "pageSize": {"type": "integer", "minimum": 0, "maximum": 255},
                "q": {"type": "string"},
            },
            "required": ["pageSize", "q"],
            "additionalProperties": false,
        })
    );
    let find = Find::parse(&json!({"pageSize": 5, "q": "rust"})).unwrap();
    assert_eq!((find.page_size, find.search_query.as_str()), (5, "rust"));

    // deny_unknown_fields: an undeclared key is a problem, with a hint.
    let error =
        Find::parse(&json!({"pageSize": 5, "q": "rust", "page_size": 5, "extra": 1})).unwrap_err();
    assert_eq!(
        error.to_string(),
        "page_size: unknown field (did you mean \"pageSize\"?)\n\
         extra: unknown field (expected one of: pageSize, q)"
    );

    cased! {
        Lower = "lowercase" => "page_size",
        Upper = "UPPERCASE" => "PAGE_SIZE",
        Pascal = "PascalCase" => "PageSize",
        Camel = "camelCase" => "pageSize",
        Snake = "snake_case" => "page_size",
        ScreamingSnake = "SCREAMING_SNAKE_CASE" => "PAGE_SIZE",
        Kebab = "kebab-case" => "page-size",
        ScreamingKebab = "SCREAMING-KEBAB-CASE" => "PAGE-SIZE",
    }
}
