//! `flatten`, `skip` and `deprecated` (both `#[param(deprecated)]` and
//! Rust's `#[deprecated]`) together, under `#![deny(warnings)]`: the
//! generated code must not warn, not even about reading a deprecated field.
#![deny(warnings)]

use serde_json::json;
use tool_core::{ToolParams, params::ParamValue};

#[derive(ToolParams, Debug, PartialEq, Default)]
#[param(rename_all = "camelCase")]
struct Paging {
    page_size: u32,
    #[param(default)]
    page: u32,
}

#[derive(ToolParams, Debug, PartialEq)]
struct Filters {
    #[param(flatten)]
    paging: Paging,
    language: Option<String>,
}

/// A search, paged.
#[derive(ToolParams, Debug, PartialEq)]
#[param(deny_unknown_fields)]
struct Search {
    query: String,
    #[param(flatten)]
    filters: Filters,
    #[param(skip)]
    cache_hits: u32,
    #[param(skip, default = String::from("local"))]
    backend: String,
    /// Whether to match case.
    #[deprecated(note = "use `mode`")]
    case_sensitive: Option<bool>,
    #[param(deprecated, description = "Old name of `query`")]
    q: Option<String>,
}

#[allow(deprecated)]
fn deprecated_field(search: &Search) -> Option<bool> {
    search.case_sensitive
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    assert_eq!(
        Search::json_schema(),
        json!({
            "description": "A search, paged.",
            "type": "object",
            "properties": {
                "query": {"type": "string"},
                "pageSize": {"type": "integer", "minimum": 0, "maximum": 4294967295u32},
                "page": {"type": "integer", "minimum": 0, "maximum": 4294967295u32, "default": 0},
                "language": {"type": "string"},
                "case_sensitive": {"description": "Whether to match case.", "type": "boolean", "deprecated": true},
                "q": {"description": "Old name of `query`", "type": "string", "deprecated": true},
            },
            "required": ["query", "pageSize"],
            "additionalProperties": false,
        })
    );

    let search = Search::parse(&json!({
        "query": "rust",
        "pageSize": 20,
        "language": "en",
        "case_sensitive": true,
    }))
    .unwrap();
    assert_eq!(search.query, "rust");
    assert_eq!(
        search.filters.paging,
        Paging {
            page_size: 20,
            page: 0
        }
    );
    assert_eq!(search.filters.language.as_deref(), Some("en"));
    assert_eq!(search.cache_hits, 0);
    assert_eq!(search.backend, "local");
    assert_eq!(deprecated_field(&search), Some(true));
    assert_eq!(search.q, None);
    // Flattened fields are written back beside the others; skipped ones not.
    assert_eq!(
        search.to_json(),
        json!({"query": "rust", "pageSize": 20, "page": 0, "language": "en", "case_sensitive": true})
    );

    // deny_unknown_fields knows the flattened names; a skipped field is
    // not one of the arguments.
    assert_eq!(
        Search::parse(&json!({"query": "a", "pageSize": 1, "pagesize": 2, "cache_hits": 3}))
            .unwrap_err()
            .to_string(),
        "pagesize: unknown field (did you mean \"pageSize\"?)\n\
         cache_hits: unknown field (expected one of: query, case_sensitive, q, language, pageSize, page)"
    );
    // A flattened field's problems are reported at its own name.
    assert_eq!(
        Search::parse(&json!({"query": "a", "page": "two"}))
            .unwrap_err()
            .to_string(),
        "pageSize: missing required field\npage: expected integer, got string \"two\""
    );
}
