//! The "what each format costs" table of `docs/providers.md`, made from
//! the real conversions: one row per construct the derive writes (each a
//! one-field struct, or the whole parameters), one column per format, each
//! cell a summary of that format's diagnostics for the construct (what a
//! field of a plain `String` costs already is subtracted). The test fails
//! when the committed table differs;
//! `UPDATE_README=1 cargo test -p tests --test providers cost_table`
//! rewrites it.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::net::IpAddr;
use std::path::Path;
use tests::wire::definition;
use tool_core::ToolParams;
use tool_core::providers::gemini::Dialect;
use tool_core::providers::{Diagnostic, ProviderFormat, Strict};

const START: &str = "<!-- cost-table:start -->";
const END: &str = "<!-- cost-table:end -->";
const REGENERATE: &str = "UPDATE_README=1 cargo test -p tests --test providers cost_table";

/// The columns, in order.
const COLUMNS: [ProviderFormat; 5] = [
    ProviderFormat::OpenAiChat(Strict::Off),
    ProviderFormat::OpenAiChat(Strict::On),
    ProviderFormat::Anthropic(Strict::On),
    ProviderFormat::Gemini(Dialect::JsonSchema),
    ProviderFormat::Gemini(Dialect::OpenApi),
];

// ---------------------------------------------------------------------------
// The constructs
// ---------------------------------------------------------------------------

/// A field of a plain string: what every row's struct costs anyway.
#[derive(ToolParams)]
struct Plain {
    f: String,
}

/// Declares a one-field struct per construct.
macro_rules! field {
    ($name:ident, $($field:tt)*) => {
        #[derive(ToolParams)]
        #[allow(dead_code, deprecated)]
        struct $name {
            $($field)*
        }
    };
}

field!(Bounds, #[param(min = 1, max = 10)] f: u8,);
field!(Lengths, #[param(min_length = 1, max_length = 10)] f: String,);
field!(ListLengths, #[param(min_length = 2, max_length = 5)] f: Vec<bool>,);
field!(Pattern, #[param(pattern = "^[a-z]+$")] f: String,);
field!(DateTime, #[param(format = "date-time")] f: String,);
field!(Date, #[param(format = "date")] f: String,);
field!(Time, #[param(format = "time")] f: String,);
field!(Duration, #[param(format = "duration")] f: String,);
field!(Email, #[param(format = "email")] f: String,);
field!(Hostname, #[param(format = "hostname")] f: String,);
field!(Ipv4, #[param(format = "ipv4")] f: String,);
field!(Ipv6, #[param(format = "ipv6")] f: String,);
field!(Uuid, #[param(format = "uuid")] f: String,);
field!(Uri, #[param(format = "uri")] f: String,);
field!(Optional, f: Option<String>,);
field!(Defaulted, #[param(default)] f: bool,);
field!(OneOf, #[param(one_of = ["low", "high"])] f: String,);
field!(UnitEnum, f: Level,);
field!(Map, f: BTreeMap<String, bool>,);
field!(AnyValue, f: Value,);
field!(Tuple, f: (bool, String),);
field!(FixedArray, f: [bool; 3],);
field!(Set, f: BTreeSet<String>,);
field!(Ip, f: IpAddr,);
field!(Hints, #[param(example = "a", deprecated)] f: String,);
field!(NestedTagged, f: Tagged,);
field!(NestedExternal, f: External,);
field!(NestedUntagged, f: Untagged,);

#[derive(ToolParams)]
#[param(rename_all = "lowercase")]
enum Level {
    Low,
    High,
}

#[derive(ToolParams)]
#[param(tag = "kind", rename_all = "snake_case")]
#[allow(dead_code)]
enum Tagged {
    Text { text: String },
    Flag { on: bool },
}

#[derive(ToolParams)]
#[param(rename_all = "snake_case")]
#[allow(dead_code)]
enum External {
    Text(String),
    Flag { on: bool },
}

#[derive(ToolParams)]
#[param(untagged)]
#[allow(dead_code)]
enum Untagged {
    Text { text: String },
    Flag { on: bool },
}

/// A linked list: recursion through `$ref`.
#[derive(ToolParams)]
#[allow(dead_code)]
struct Node {
    label: String,
    next: Option<Box<Node>>,
}

/// Each row: its label and its tool's parameters.
fn rows() -> Vec<(&'static str, Value)> {
    vec![
        ("number bounds (`min`, `max`)", Bounds::json_schema()),
        (
            "string length (`min_length`, `max_length`)",
            Lengths::json_schema(),
        ),
        (
            "list length (`min_length = 2`, `max_length`)",
            ListLengths::json_schema(),
        ),
        ("`pattern`", Pattern::json_schema()),
        ("`format = \"date-time\"`", DateTime::json_schema()),
        ("`format = \"date\"`", Date::json_schema()),
        ("`format = \"time\"`", Time::json_schema()),
        ("`format = \"duration\"`", Duration::json_schema()),
        ("`format = \"email\"`", Email::json_schema()),
        ("`format = \"hostname\"`", Hostname::json_schema()),
        ("`format = \"ipv4\"`", Ipv4::json_schema()),
        ("`format = \"ipv6\"`", Ipv6::json_schema()),
        ("`format = \"uuid\"`", Uuid::json_schema()),
        ("`format = \"uri\"`", Uri::json_schema()),
        ("optional field (`Option<T>`)", Optional::json_schema()),
        ("`default`", Defaulted::json_schema()),
        ("value list (`one_of`)", OneOf::json_schema()),
        ("unit-only enum", UnitEnum::json_schema()),
        ("map (`BTreeMap<String, T>`)", Map::json_schema()),
        ("`serde_json::Value`", AnyValue::json_schema()),
        ("tuple (`prefixItems`)", Tuple::json_schema()),
        ("`[T; N]`", FixedArray::json_schema()),
        ("set (`uniqueItems`)", Set::json_schema()),
        ("`IpAddr` (`anyOf` of formats)", Ip::json_schema()),
        ("`example`, `deprecated`", Hints::json_schema()),
        (
            "tagged enum, nested (`oneOf`, `const` tags)",
            NestedTagged::json_schema(),
        ),
        (
            "external enum, nested (`maxProperties: 1`)",
            NestedExternal::json_schema(),
        ),
        (
            "untagged enum, nested (`anyOf`)",
            NestedUntagged::json_schema(),
        ),
        ("recursion (`$ref`)", Node::json_schema()),
        ("tagged enum at the root", Tagged::json_schema()),
        ("external enum at the root", External::json_schema()),
        ("untagged enum at the root", Untagged::json_schema()),
    ]
}

// ---------------------------------------------------------------------------
// The cells
// ---------------------------------------------------------------------------

/// The diagnostics of `format` for `parameters`, less those a plain string
/// field costs too, and whether a strict format sent it strict.
fn costs(format: ProviderFormat, parameters: &Value) -> (Vec<Diagnostic>, bool) {
    let tools = [definition("t", "T", parameters.clone())];
    let baseline = format
        .definitions(&[definition("t", "T", Plain::json_schema())])
        .diagnostics;
    let converted = format.definitions(&tools);
    let entry = match format {
        ProviderFormat::Gemini(_) => &converted.value["functionDeclarations"][0],
        _ => &converted.value[0],
    };
    let strict = match format {
        ProviderFormat::OpenAiChat(Strict::On) => entry["function"]["strict"] == true,
        ProviderFormat::OpenAiResponses(Strict::On) | ProviderFormat::Anthropic(Strict::On) => {
            entry["strict"] == true
        }
        _ => true,
    };
    let diagnostics = converted
        .diagnostics
        .into_iter()
        .filter(|diagnostic| !baseline.contains(diagnostic))
        .collect();
    (diagnostics, strict)
}

/// The short name of a change, from its diagnostic's message.
fn change(message: &str) -> String {
    let named: [(&str, &str); 13] = [
        ("`const` written as a one-value `enum`", "`const` → `enum`"),
        ("`oneOf` written as `anyOf`", "`oneOf` → `anyOf`"),
        (
            "optional, so made nullable and required",
            "nullable, required",
        ),
        ("optional, so marked `\"nullable\": true`", "`nullable`"),
        ("\"or null\" written as", "null → `nullable`"),
        ("a tuple of", "tuple → array"),
        (
            "written as 1 (strict mode accepts 1 at most",
            "`minItems` → 1",
        ),
        ("`type` written into each choice", "`type` into each choice"),
        ("the keywords beside `$ref`", "`$ref` wrapped in `anyOf`"),
        ("`examples` written as `example`", "`examples` → `example`"),
        ("a type array written as one type", "type array → one type"),
        (
            "`maxProperties` of 1 ask for exactly one",
            "one object, `maxProperties: 1`",
        ),
        ("written as one object", "one object"),
    ];
    named
        .iter()
        .find(|(found, _)| message.contains(found))
        .map_or_else(|| message.to_owned(), |(_, name)| (*name).to_owned())
}

/// What made a strict format send the tool non-strict, from the reason's
/// message: "a map (an object with any keys) cannot be strict: .." is
/// "a map".
fn reason(message: &str) -> String {
    let subject = message.split(" cannot be strict").next().unwrap_or(message);
    subject.split(" (").next().unwrap_or(subject).to_owned()
}

/// The JSON Pointer's last keyword: `/properties/f/maxLength` is `maxLength`.
fn keyword(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// One cell: "kept", or the changes, the dropped keywords, whether a
/// strict mode said what it dropped in the description the model reads,
/// and whether parse enforces what was lost; "**not strict**" and why, for
/// a strict format that sent the tool without it.
fn cell(diagnostics: &[Diagnostic], strict: bool) -> String {
    if !strict {
        let reasons: BTreeSet<String> = diagnostics
            .iter()
            .filter(|d| d.message.contains("cannot be strict:"))
            .map(|d| reason(&d.message))
            .collect();
        let reasons: Vec<String> = reasons.into_iter().collect();
        return format!("**not strict**: {}", reasons.join(", "));
    }
    let mut changes: Vec<String> = Vec::new();
    let mut dropped: Vec<String> = Vec::new();
    let mut other: Vec<String> = Vec::new();
    let mut parse_enforces = false;
    let mut said = false;
    for diagnostic in diagnostics {
        let message = diagnostic.message.as_str();
        parse_enforces |= message.contains("parse still");
        if message.starts_with("changed: says what ")
            && message.contains(" dropped, for the model: ")
        {
            said = true;
            continue;
        }
        let (list, entry) = if let Some(rest) = message.strip_prefix("changed: ") {
            (&mut changes, change(rest))
        } else if message.starts_with("dropped: ") {
            (&mut dropped, format!("`{}`", keyword(&diagnostic.path)))
        } else if message.starts_with("left as it is") {
            (&mut other, "left as it is (likely refused)".to_owned())
        } else if message.starts_with("Gemini refuses an object without properties") {
            (&mut other, "**refused by Gemini**".to_owned())
        } else if message.starts_with("a value of any type has no OpenAPI form") {
            (&mut other, "no type".to_owned())
        } else {
            (&mut other, message.to_owned())
        };
        if !list.contains(&entry) {
            list.push(entry);
        }
    }
    let mut parts = other;
    parts.extend(changes);
    if !dropped.is_empty() {
        parts.push(format!("dropped {}", dropped.join(", ")));
    }
    if said {
        parts.push("said in `description`".to_owned());
    }
    if parts.is_empty() {
        return "kept".to_owned();
    }
    let mut cell = parts.join("; ");
    if parse_enforces {
        cell.push_str(" (parse enforces)");
    }
    cell
}

/// The table, markers included.
fn table() -> String {
    let mut out = format!("{START}\n<!-- Generated from the conversions by {REGENERATE} -->\n\n");
    out.push_str("| construct |");
    for format in COLUMNS {
        out.push_str(&format!(" `{format}` |"));
    }
    out.push_str("\n| --- |");
    out.push_str(&" --- |".repeat(COLUMNS.len()));
    out.push('\n');
    for (label, parameters) in rows() {
        out.push_str(&format!("| {label} |"));
        for format in COLUMNS {
            let (diagnostics, strict) = costs(format, &parameters);
            out.push_str(&format!(" {} |", cell(&diagnostics, strict)));
        }
        out.push('\n');
    }
    out.push('\n');
    out.push_str(END);
    out
}

/// README's short form: what each strict mode costs, on the constructs
/// where the two differ from the neutral schema most.
const README_ROWS: [&str; 12] = [
    "number bounds (`min`, `max`)",
    "string length (`min_length`, `max_length`)",
    "optional field (`Option<T>`)",
    "map (`BTreeMap<String, T>`)",
    "`serde_json::Value`",
    "tuple (`prefixItems`)",
    "set (`uniqueItems`)",
    "recursion (`$ref`)",
    "tagged enum, nested (`oneOf`, `const` tags)",
    "tagged enum at the root",
    "external enum at the root",
    "untagged enum at the root",
];
const README_COLUMNS: [ProviderFormat; 2] = [
    ProviderFormat::OpenAiChat(Strict::On),
    ProviderFormat::Anthropic(Strict::On),
];
const README_START: &str = "<!-- strict-cost:start -->";
const README_END: &str = "<!-- strict-cost:end -->";

/// The short table, markers included.
fn readme_table() -> String {
    let mut out =
        format!("{README_START}\n<!-- Generated from the conversions by {REGENERATE} -->\n\n");
    out.push_str("| construct |");
    for format in README_COLUMNS {
        out.push_str(&format!(" `{format}` |"));
    }
    out.push_str("\n| --- |");
    out.push_str(&" --- |".repeat(README_COLUMNS.len()));
    out.push('\n');
    let rows = rows();
    for label in README_ROWS {
        let (_, parameters) = rows
            .iter()
            .find(|(row, _)| *row == label)
            .unwrap_or_else(|| panic!("README_ROWS names no row {label:?}"));
        out.push_str(&format!("| {label} |"));
        for format in README_COLUMNS {
            let (diagnostics, strict) = costs(format, parameters);
            out.push_str(&format!(" {} |", cell(&diagnostics, strict)));
        }
        out.push('\n');
    }
    out.push('\n');
    out.push_str(README_END);
    out
}

/// Replaces what lies between `start` and `end` in the file at `path` by
/// `expected` under `UPDATE_README`, or fails when it differs.
fn check_generated(path: &Path, start: &str, end: &str, expected: &str) {
    let name = path.display();
    let doc = std::fs::read_to_string(path).unwrap();
    let (before, rest) = doc
        .split_once(start)
        .unwrap_or_else(|| panic!("{name} has no {start} marker"));
    let (_, after) = rest
        .split_once(end)
        .unwrap_or_else(|| panic!("{name} has no {end} marker after {start}"));
    if doc.contains(expected) {
        return;
    }
    if std::env::var_os("UPDATE_README").is_some() {
        std::fs::write(path, format!("{before}{expected}{after}")).unwrap();
        return;
    }
    panic!("{name}'s generated table is out of date; regenerate it with: {REGENERATE}");
}

// ---------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------

/// The columns left out say nothing the table does not: `neutral` and
/// `mcp` keep every construct; the Responses API costs what Chat
/// Completions costs; non-strict Anthropic changes only an enum at the
/// root (written as one object).
#[test]
fn cost_table_leaves_out_only_what_it_says() {
    for (label, parameters) in rows() {
        for format in [ProviderFormat::Neutral, ProviderFormat::Mcp] {
            assert_eq!(costs(format, &parameters).0, vec![], "{format} {label}");
        }
        for strict in [Strict::Off, Strict::On] {
            assert_eq!(
                costs(ProviderFormat::OpenAiResponses(strict), &parameters),
                costs(ProviderFormat::OpenAiChat(strict), &parameters),
                "{label}"
            );
        }
        let (anthropic, _) = costs(ProviderFormat::Anthropic(Strict::Off), &parameters);
        let at_root = label.ends_with("at the root");
        assert_eq!(anthropic.is_empty(), !at_root, "{label}: {anthropic:?}");
        assert!(anthropic.iter().all(|d| d.message.contains("one object")));
    }
}

/// A row is attributed its own construct only: the cells of the plain
/// string are all "kept", and every row costs something somewhere.
#[test]
fn cost_table_rows_are_what_they_say() {
    for format in COLUMNS {
        let (diagnostics, strict) = costs(format, &Plain::json_schema());
        assert_eq!(cell(&diagnostics, strict), "kept", "{format}");
    }
    for (label, parameters) in rows() {
        let cells: Vec<String> = COLUMNS
            .iter()
            .map(|format| {
                let (diagnostics, strict) = costs(*format, &parameters);
                cell(&diagnostics, strict)
            })
            .collect();
        let costs_somewhere = cells.iter().any(|cell| cell != "kept");
        let kept_everywhere = [
            "`pattern`",
            "`format = \"date-time\"`",
            "value list (`one_of`)",
            "unit-only enum",
        ];
        assert_eq!(
            costs_somewhere,
            !kept_everywhere.contains(&label),
            "{label}: {cells:?}"
        );
    }
}

#[test]
fn cost_table_in_providers_md_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/providers.md");
    check_generated(&path, START, END, &table());
}

#[test]
fn strict_cost_table_in_readme_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md");
    check_generated(&path, README_START, README_END, &readme_table());
}
