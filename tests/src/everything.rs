//! [`Everything`]: one parameter struct that uses every field type of SPEC's
//! table and every field attribute, shared by the parse/schema agreement
//! test (tests/params/agreement.rs), the fuzz properties
//! (tests/params/fuzz_properties.rs) and the `parse` fuzz target
//! (fuzz/fuzz_targets/parse.rs, which includes this file by path), so all
//! three test the same struct.
//!
//! Types covered: `String`, `bool`, `i8`..`i64`, `isize`, `u8`..`u64`,
//! `usize`, `NonZeroU8`..`NonZeroU64`, `NonZeroUsize`, `f32`, `f64`,
//! `Option<T>` (of a scalar, of a struct, of an enum), `Vec<T>` (of strings,
//! of structs, and `Vec<Option<u8>>`, whose items may be null),
//! `BTreeMap<String, T>` and `HashMap<String, T>` (of integers, of structs,
//! of nullable values), `serde_json::Value`, `Box<T>` (of a struct and of an
//! `Option`), a nested struct and a unit-only enum with `rename_all`.
//! Attributes: `min`/`max` (integer and float bounds, on integer and float
//! fields), `min_length`/`max_length` (on a string and an array), `default`
//! and `default = expr`, `rename`, `description` (doc comments), container
//! `rename_all` and `description`.
//!
//! Issue 9's constructs, in [`More`] (a field of `Everything`): enums with
//! data in all four representations ([`Action`] internally tagged with
//! struct, newtype, and unit variants;
//! [`Shape`] adjacently tagged with unit, newtype, tuple and struct
//! variants; [`Event`] externally tagged with all four kinds of variant and
//! `rename_all_fields`; [`Query`] untagged), nested in `Option`, `Vec`,
//! maps and each other; value lists (`one_of`) of integers, floats and
//! strings; `pattern`; every `format`; `HashSet`/`BTreeSet`; `[T; N]`;
//! tuples; `char`; `Arc<T>`; `PathBuf`; `IpAddr`/`Ipv4Addr`/`Ipv6Addr`;
//! `flatten`; `skip`; `example`; `deprecated`; `items(...)`; a generic
//! struct ([`Page`]). [`Action`] is also parsed at the root by the
//! agreement test.
//!
//! Issue 21's field types, in [`WiderTypes`] (parsed on its own, by the
//! agreement test, the fuzz properties' twin [`check_parse_wider`] and the
//! `parse` fuzz target): `NonZeroI8`..`NonZeroIsize`, `Box<str>`,
//! `Rc<str>`, `Arc<str>`, `Cow<'static, str>`, `Cow<'static, [T]>`,
//! `Rc<T>`, `Duration`, and maps keyed by every integer, non-zero integer,
//! `bool`, `char`, `uuid::Uuid`, IP address type, and [`Cell`] (a key type
//! of the user's own).

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::num::{NonZeroU8, NonZeroU16, NonZeroU32, NonZeroU64, NonZeroUsize};
use std::path::PathBuf;
use std::sync::Arc;
use tool_core::{ToolParams, params::MAX_PROBLEMS};

/// A unit-only enum whose JSON names are kebab-case.
#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "kebab-case")]
pub enum Mode {
    /// `"fast-path"`
    FastPath,
    /// `"slow-path"`
    SlowPath,
    /// `"off"`
    Off,
}

/// One field of every integer type.
#[derive(ToolParams, Debug, PartialEq)]
#[allow(missing_docs)]
pub struct Integers {
    pub i8: i8,
    pub i16: i16,
    pub i32: i32,
    pub i64: i64,
    pub isize: isize,
    pub u8: u8,
    pub u16: u16,
    pub u32: u32,
    pub u64: u64,
    pub usize: usize,
}

/// One field of every non-zero integer type.
#[derive(ToolParams, Debug, PartialEq)]
#[allow(missing_docs)]
pub struct NonZeros {
    pub u8: NonZeroU8,
    pub u16: NonZeroU16,
    pub u32: NonZeroU32,
    pub u64: NonZeroU64,
    pub usize: NonZeroUsize,
}

/// A nested struct with camelCase names, bounds and optional fields.
#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Inner {
    #[param(min_length = 1)]
    pub display_name: String,
    // optional
    #[param(min = 1, max = 10)]
    pub weight: Option<u16>,
    // optional
    pub mode: Option<Mode>,
}

/// Every supported field type and attribute (see the module's comment).
#[derive(ToolParams, Debug, PartialEq)]
#[param(description = "Every supported field type")]
#[allow(missing_docs)]
pub struct Everything {
    /// Free text
    pub text: String,
    pub flag: bool,
    pub ints: Integers,
    pub non_zero: Box<NonZeros>,
    pub f32: f32,
    pub f64: f64,
    #[param(min = -5, max = 5)]
    pub small: i32,
    #[param(min = 0.5, max = 10.0)]
    pub ratio: f64,
    #[param(min = 0, max = 100)]
    pub percent: f32,
    #[param(min = -1e18, max = 1e18)]
    pub big: i64,
    #[param(min_length = 2, max_length = 4)]
    pub code: String,
    #[param(min_length = 1, max_length = 3)]
    pub tags: Vec<String>,
    // optional
    #[param(max_length = 5)]
    pub label: Option<String>,
    // optional
    #[param(max = 1000)]
    pub limit: Option<NonZeroU32>,
    pub bytes: Vec<Option<u8>>,
    pub inners: Vec<Inner>,
    pub counts: BTreeMap<String, i32>,
    pub lookup: HashMap<String, Inner>,
    pub sparse: HashMap<String, Option<bool>>,
    pub raw: Value,
    pub inner: Inner,
    // optional
    pub maybe_inner: Option<Inner>,
    // optional
    pub maybe_boxed: Box<Option<u32>>,
    #[param(rename = "type")]
    pub kind: Mode,
    // optional (has a default)
    #[param(default = 3)]
    pub retries: u8,
    // optional (has a default)
    #[param(default)]
    pub verbose: bool,
    /// Issue 9's constructs
    pub more: More,
}

/// Where to wait, for [`Action::Wait`]: a newtype variant's struct, whose
/// fields sit beside the tag.
#[derive(ToolParams, Debug, PartialEq)]
#[allow(missing_docs)]
pub struct Wait {
    #[param(min = 1, max = 60)]
    pub seconds: u8,
    // optional
    pub reason: Option<String>,
}

/// One step of a UI script: internally tagged.
#[derive(ToolParams, Debug, PartialEq)]
#[param(tag = "action", rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum Action {
    /// Click at a point
    Click {
        #[param(max = 4000)]
        x: u32,
        #[param(max = 4000)]
        y: u32,
        #[param(default)]
        double: bool,
    },
    /// Type some text
    TypeText {
        #[param(min_length = 1)]
        text: String,
        // optional
        delay_ms: Option<u16>,
    },
    /// Wait
    Wait(Wait),
    /// Take a screenshot
    Screenshot,
}

/// A shape: adjacently tagged, with every kind of variant.
#[derive(ToolParams, Debug, PartialEq)]
#[param(tag = "kind", content = "data")]
#[allow(missing_docs)]
pub enum Shape {
    Dot,
    Circle(f64),
    Segment(i8, i8),
    Rect {
        #[param(min = 0)]
        width: f32,
        #[param(min = 0)]
        height: f32,
        label: Option<Mode>,
    },
}

/// An event: externally tagged, with every kind of variant.
#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "lowercase", rename_all_fields = "camelCase")]
#[allow(missing_docs)]
pub enum Event {
    /// `"tick"`
    Tick,
    /// `{"key": "a"}`
    Key(char),
    /// `{"move": [1, -2]}`
    Move(i16, i16),
    /// `{"resize": {"newWidth": 1, "newHeight": 2}}`
    Resize { new_width: u16, new_height: u16 },
    /// `{"nested": {"action": ...}}`
    Nested(Box<Action>),
}

/// A lookup: untagged; the first variant that parses wins.
#[derive(ToolParams, Debug, PartialEq)]
#[param(untagged)]
#[allow(missing_docs)]
pub enum Query {
    ById {
        #[param(min = 1)]
        id: u32,
    },
    ByName {
        #[param(pattern = "^[a-z]+$", example = "abc")]
        name: String,
        exact: bool,
    },
    Text(String),
    Range(u8, u8),
    Nothing,
}

/// A page of anything: a generic struct, flattened into [`More`].
#[derive(ToolParams, Debug, PartialEq)]
#[allow(missing_docs)]
pub struct Page<T> {
    #[param(max_length = 3)]
    pub page_items: Vec<T>,
    // optional (has a default)
    #[param(default = 1, min = 1)]
    pub page: u32,
}

/// Issue 9's constructs, in four groups, each small enough for the
/// agreement test to fault every field often when it is the root.
#[derive(ToolParams, Debug, PartialEq)]
#[allow(missing_docs)]
pub struct More {
    pub enums: EnumFields,
    pub strings: StringRules,
    pub collections: Collections,
    #[param(flatten)]
    pub layout: Layout,
}

/// Enums of every representation, nested in options, lists, maps.
#[derive(ToolParams, Debug, PartialEq)]
#[allow(missing_docs)]
pub struct EnumFields {
    pub action: Action,
    pub actions: Vec<Action>,
    // optional
    pub maybe_shape: Option<Shape>,
    pub shapes: BTreeMap<String, Shape>,
    pub event: Event,
    pub query: Query,
    pub queries: Vec<Query>,
}

/// Value lists, patterns and formats.
#[derive(ToolParams, Debug, PartialEq)]
#[allow(missing_docs)]
pub struct StringRules {
    #[param(one_of = [1, 3, 5])]
    pub stars: u8,
    #[param(one_of = [0.5, 1, 2.5])]
    pub scale: f64,
    #[param(one_of = ["low", "high"])]
    pub level: String,
    // optional
    #[param(one_of = ["a", "b"])]
    pub grade: Option<String>,
    #[param(pattern = "^[a-z0-9-]+$", example = "main")]
    pub branch: String,
    #[param(pattern = "[0-9]", example = "a1")]
    pub has_digit: String,
    #[param(format = "date-time")]
    pub when: String,
    #[param(format = "date")]
    pub day: String,
    #[param(format = "time")]
    pub at: String,
    #[param(format = "duration")]
    pub span: String,
    #[param(format = "email")]
    pub email: String,
    #[param(format = "hostname")]
    pub host: String,
    #[param(format = "ipv4")]
    pub ip4_text: String,
    #[param(format = "ipv6")]
    pub ip6_text: String,
    #[param(format = "uuid")]
    pub id: String,
    #[param(format = "uri")]
    pub link: String,
    pub ip: IpAddr,
    pub ip4: Ipv4Addr,
    pub ip6: Ipv6Addr,
}

/// Sets, fixed arrays, tuples, and constraints on each item.
#[derive(ToolParams, Debug, PartialEq)]
#[allow(missing_docs)]
pub struct Collections {
    pub tags: HashSet<String>,
    #[param(max_length = 4)]
    pub small_set: BTreeSet<u8>,
    pub rgb: [u8; 3],
    pub pair: (String, u8),
    pub triple: (bool, Option<i8>, Mode),
    #[param(items(min = 1, max = 9), max_length = 4)]
    pub digits: Vec<u8>,
    #[param(items(pattern = "^[a-z]+$", max_length = 3))]
    pub words: BTreeSet<String>,
    #[param(items(one_of = ["x", "y"]))]
    pub axes: Vec<Option<String>>,
}

/// How fields sit in the object: flattened (twice over), skipped, with
/// examples, deprecated; and `char`, `Arc<T>`, `PathBuf`.
#[derive(ToolParams, Debug, PartialEq)]
#[allow(missing_docs, deprecated)]
pub struct Layout {
    pub letter: char,
    pub shared: Arc<String>,
    pub path: PathBuf,
    #[param(flatten)]
    pub page: Page<u8>,
    #[param(skip)]
    pub hidden: u32,
    #[param(skip, default = 7)]
    pub hidden_seven: u8,
    #[param(example = 3, example = 4)]
    pub with_examples: u8,
    #[deprecated]
    // optional (has a default)
    #[param(default)]
    pub old: bool,
    #[param(deprecated)]
    // optional
    pub older: Option<bool>,
}

fn inner_in_bounds(inner: &Inner) -> bool {
    inner.display_name.chars().count() >= 1
        && inner.weight.is_none_or(|weight| (1..=10).contains(&weight))
}

fn action_in_bounds(action: &Action) -> bool {
    match action {
        Action::Click { x, y, .. } => *x <= 4000 && *y <= 4000,
        Action::TypeText { text, .. } => !text.is_empty(),
        Action::Wait(wait) => (1..=60).contains(&wait.seconds),
        Action::Screenshot => true,
    }
}

fn shape_in_bounds(shape: &Shape) -> bool {
    match shape {
        Shape::Rect { width, height, .. } => *width >= 0.0 && *height >= 0.0,
        Shape::Circle(radius) => radius.is_finite(),
        Shape::Dot | Shape::Segment(..) => true,
    }
}

/// Whether parsed enums keep their bounds.
pub fn enums_in_bounds(e: &EnumFields) -> bool {
    action_in_bounds(&e.action)
        && e.actions.iter().all(action_in_bounds)
        && e.maybe_shape.as_ref().is_none_or(shape_in_bounds)
        && e.shapes.values().all(shape_in_bounds)
        && match &e.event {
            Event::Nested(action) => action_in_bounds(action),
            _ => true,
        }
        && e.query_ok()
}

impl EnumFields {
    fn query_ok(&self) -> bool {
        let ok = |query: &Query| match query {
            Query::ById { id } => *id >= 1,
            Query::ByName { name, .. } => {
                !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase())
            }
            Query::Text(_) | Query::Range(..) | Query::Nothing => true,
        };
        ok(&self.query) && self.queries.iter().all(ok)
    }
}

/// Whether parsed strings keep their value lists and patterns.
pub fn strings_in_bounds(s: &StringRules) -> bool {
    let branch_chars = |text: &str| {
        !text.is_empty()
            && text
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    };
    [1, 3, 5].contains(&s.stars)
        && [0.5, 1.0, 2.5].contains(&s.scale)
        && ["low", "high"].contains(&s.level.as_str())
        && s.grade.as_deref().is_none_or(|g| ["a", "b"].contains(&g))
        && branch_chars(&s.branch)
        && s.has_digit.chars().any(|c| c.is_ascii_digit())
}

/// Whether parsed collections keep their bounds.
pub fn collections_in_bounds(c: &Collections) -> bool {
    c.small_set.len() <= 4
        && c.digits.len() <= 4
        && c.digits.iter().all(|d| (1..=9).contains(d))
        && c.words.iter().all(|w| {
            !w.is_empty() && w.chars().count() <= 3 && w.chars().all(|c| c.is_ascii_lowercase())
        })
        && c.axes
            .iter()
            .all(|axis| axis.as_deref().is_none_or(|a| ["x", "y"].contains(&a)))
}

/// Whether a parsed layout keeps its bounds and its skipped defaults.
pub fn layout_in_bounds(l: &Layout) -> bool {
    l.page.page_items.len() <= 3 && l.page.page >= 1 && l.hidden == 0 && l.hidden_seven == 7
}

fn more_in_bounds(more: &More) -> bool {
    enums_in_bounds(&more.enums)
        && strings_in_bounds(&more.strings)
        && collections_in_bounds(&more.collections)
        && layout_in_bounds(&more.layout)
}

/// Whether a parsed value keeps the bounds its attributes declare.
pub fn in_bounds(v: &Everything) -> bool {
    (-5..=5).contains(&v.small)
        && (0.5..=10.0).contains(&v.ratio)
        && (0.0..=100.0).contains(&v.percent)
        // Exactly: `1e18 + 1` as an `f64` would round back into range.
        && (-1_000_000_000_000_000_000..=1_000_000_000_000_000_000).contains(&v.big)
        && (2..=4).contains(&v.code.chars().count())
        && (1..=3).contains(&v.tags.len())
        && v.label
            .as_ref()
            .is_none_or(|label| label.chars().count() <= 5)
        && v.limit.is_none_or(|limit| limit.get() <= 1000)
        && v.f32.is_finite()
        && v.f64.is_finite()
        && inner_in_bounds(&v.inner)
        && v.inners.iter().all(inner_in_bounds)
        && v.lookup.values().all(inner_in_bounds)
        && v.maybe_inner.as_ref().is_none_or(inner_in_bounds)
        && more_in_bounds(&v.more)
}

/// The properties of `Everything::parse(arguments)`, the ones the fuzz
/// target and its proptest twin check: `Ok(true)` when it parsed, `Ok(false)`
/// when it was refused as it should be, `Err` naming the broken property.
///
/// - `Ok(v)`: `v` keeps its declared bounds, and `v.to_json()` parses back
///   to an equal struct whose `to_json()` is the same JSON (floats compare
///   through their JSON, so `-0.0` and `0.0` differ);
/// - `Err(e)`: at least one problem, at most `MAX_PROBLEMS` kept, each with a
///   non-empty path and message, and `e.to_string()` is one line per kept
///   problem (plus `... and N more problems` when some were only counted).
pub fn check_parse(arguments: &Value) -> Result<bool, String> {
    check_parse_of::<Everything>(arguments, in_bounds)
}

// ---------------------------------------------------------------------------
// `deny_unknown_fields`, for the agreement tests: parse refuses undeclared
// keys where the type says so and drops them elsewhere, while the schema
// says `"additionalProperties": false` either way. Each representation, at
// the root and nested, next to types that do not deny. The agreement tests
// list, beside each of these, the schema locations that deny.

/// A small struct that refuses undeclared keys.
#[derive(ToolParams, Debug, PartialEq)]
#[param(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct ClosedLeaf {
    #[param(min = 1, max = 9)]
    pub n: u8,
    // optional
    #[param(max_length = 4)]
    pub note: Option<String>,
}

/// A struct that refuses undeclared keys, holding one that does too
/// ([`ClosedLeaf`]), one that does not ([`Inner`]), and a flattened one
/// that does not ([`Page`]): the outer struct decides for its flattened
/// fields' keys.
#[derive(ToolParams, Debug, PartialEq)]
#[param(deny_unknown_fields, rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Closed {
    #[param(min_length = 1, max_length = 8)]
    pub display_name: String,
    // optional
    pub leaf: Option<ClosedLeaf>,
    pub inner: Inner,
    #[param(flatten)]
    pub page: Page<u8>,
}

/// Internally tagged, refusing undeclared keys beside the tag: struct,
/// unit and newtype variants (the newtype's struct, [`Wait`], does not
/// deny by itself; the enum's attribute covers it).
#[derive(ToolParams, Debug, PartialEq)]
#[param(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
#[allow(missing_docs)]
pub enum ClosedInternal {
    Move {
        dx: i8,
        #[param(default)]
        dy: i8,
    },
    Stop,
    Pause(Wait),
}

/// Internally tagged, not denying, with a newtype variant of a struct that
/// does ([`ClosedLeaf`]): that variant refuses undeclared keys, the others
/// drop them.
#[derive(ToolParams, Debug, PartialEq)]
#[param(tag = "op", rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum OpenInternal {
    Go {
        #[param(max = 9)]
        speed: u8,
    },
    Hold(ClosedLeaf),
    Halt,
}

/// Adjacently tagged, refusing undeclared keys beside the tag and the
/// content, and inside a struct variant's content: newtype, tuple and
/// struct variants (the unit variant is in [`ClosedAdjacentUnit`]).
#[derive(ToolParams, Debug, PartialEq)]
#[param(
    tag = "t",
    content = "c",
    rename_all = "lowercase",
    deny_unknown_fields
)]
#[allow(missing_docs)]
pub enum ClosedAdjacent {
    Num(f64),
    Pair(i8, i8),
    Rect {
        w: u8,
        // optional
        h: Option<u8>,
    },
}

/// Adjacently tagged and denying, with a unit variant: `{"t":"dot"}`.
#[derive(ToolParams, Debug, PartialEq)]
#[param(
    tag = "t",
    content = "c",
    rename_all = "lowercase",
    deny_unknown_fields
)]
#[allow(missing_docs)]
pub enum ClosedAdjacentUnit {
    Dot,
    Num(f64),
}

/// Externally tagged, refusing undeclared keys in a struct variant's
/// object (not in the newtype variant's [`Inner`], which does not deny).
#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "snake_case", deny_unknown_fields)]
#[allow(missing_docs)]
pub enum ClosedExternal {
    Reset,
    Search {
        query: String,
        // optional
        limit: Option<u8>,
    },
    Fetch(Inner),
    Pair(u8, u8),
}

/// Externally tagged and denying, without a unit variant: every value is
/// an object, so it can be a tool's whole arguments.
#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "snake_case", deny_unknown_fields)]
#[allow(missing_docs)]
pub enum ClosedCommand {
    Search {
        query: String,
        // optional
        limit: Option<u8>,
    },
    Pair(u8, u8),
}

/// Untagged, each struct variant refusing undeclared keys, so a value
/// with a key of another variant matches none.
#[derive(ToolParams, Debug, PartialEq)]
#[param(untagged, deny_unknown_fields)]
#[allow(missing_docs)]
pub enum ClosedUntagged {
    ById {
        #[param(min = 1)]
        id: u32,
    },
    ByName {
        name: String,
        #[param(default)]
        exact: bool,
    },
    Text(String),
}

/// Untagged and denying, of struct variants only: a tool's whole
/// arguments.
#[derive(ToolParams, Debug, PartialEq)]
#[param(untagged, deny_unknown_fields)]
#[allow(missing_docs)]
pub enum ClosedLookup {
    ByName { name: String },
    ById { id: u64 },
}

/// Every type above nested in a struct that does not deny: in a list, a
/// map, an option, a nullable list item.
#[derive(ToolParams, Debug, PartialEq)]
#[allow(missing_docs)]
pub struct DenyFields {
    pub closed: Closed,
    #[param(max_length = 2)]
    pub leaves: Vec<ClosedLeaf>,
    pub by_key: BTreeMap<String, ClosedLeaf>,
    // optional
    pub maybe_leaf: Option<ClosedLeaf>,
    #[param(max_length = 2)]
    pub nullable_leaves: Vec<Option<ClosedLeaf>>,
    pub internal: ClosedInternal,
    pub open_internal: OpenInternal,
    pub adjacent: ClosedAdjacent,
    pub external: ClosedExternal,
    pub untagged: ClosedUntagged,
}

/// Internally tagged and denying, as issue 21 states it: the arguments of a
/// computer-use tool. A strict model sends every field of the merged
/// object, `null` for the other variants' (`{"action":"click","x":1,"y":2,
/// "text":null,"dx":null,"dy":null,"keys":null}`).
#[derive(ToolParams, Debug, PartialEq)]
#[param(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
#[allow(missing_docs)]
pub enum Computer {
    Click { x: i32, y: i32 },
    Type { text: String },
    Scroll { dx: i32, dy: i32 },
    Key { keys: Vec<String> },
}

/// Untagged, not denying, whose first variant takes any object (its one
/// field is optional and undeclared keys are dropped): `{"id":5}` means
/// `Get`, whose closed schema admits it as sent.
#[derive(ToolParams, Debug, PartialEq)]
#[param(untagged)]
#[allow(missing_docs)]
pub enum Greedy {
    List {
        // optional
        filter: Option<String>,
    },
    Get {
        id: u64,
    },
}

// ---------------------------------------------------------------------------
// Issue 21's field types, in a struct of their own (parsed as a tool's
// arguments by the agreement test and the `parse` fuzz target).

/// A cell of an 8 x 8 grid such as `e4`: a map key of the user's own,
/// through [`MapKey`](tool_core::params::MapKey).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    /// `a`..`h`.
    pub column: u8,
    /// `1`..`8`.
    pub row: u8,
}

impl tool_core::params::MapKey for Cell {
    fn key_schema() -> Option<Value> {
        Some(serde_json::json!({"pattern": "^[a-h][1-8]$"}))
    }

    fn parse_key(
        key: &str,
        path: &tool_core::params::ParamPath<'_>,
        errors: &mut tool_core::params::ParseContext,
    ) -> Option<Self> {
        match key.as_bytes() {
            [column @ b'a'..=b'h', row @ b'1'..=b'8'] => Some(Cell {
                column: *column,
                row: *row,
            }),
            _ => {
                // At most 20 characters of the key are echoed.
                let shown: String = key.chars().take(20).collect();
                errors.push(
                    path,
                    format_args!("expected a key that is a cell such as \"e4\", got {shown:?}"),
                );
                None
            }
        }
    }

    fn to_key(&self) -> String {
        format!("{}{}", char::from(self.column), char::from(self.row))
    }
}

/// Every field type issue 21 added: signed non-zero integers, the other
/// owners of a string or a list, `Rc<T>`, `Duration`, and maps whose keys
/// are integers, non-zero integers, `bool`, `char`, `uuid::Uuid`, IP
/// addresses or a type of the user's own ([`Cell`]); each at the field
/// level and inside `Option`, `Vec` and maps.
#[derive(ToolParams, Debug, PartialEq)]
#[allow(missing_docs)]
pub struct WiderTypes {
    pub step_i8: std::num::NonZeroI8,
    pub step_i16: std::num::NonZeroI16,
    pub step_i32: std::num::NonZeroI32,
    pub step_i64: std::num::NonZeroI64,
    pub step_isize: std::num::NonZeroIsize,
    // optional
    pub maybe_step: Option<std::num::NonZeroI32>,
    pub steps: Vec<std::num::NonZeroI16>,
    pub boxed: Box<str>,
    pub rc: std::rc::Rc<str>,
    pub arc: Arc<str>,
    pub cow: std::borrow::Cow<'static, str>,
    pub cow_list: std::borrow::Cow<'static, [u8]>,
    pub rc_value: std::rc::Rc<u16>,
    // optional
    pub maybe_name: Option<Box<str>>,
    pub names: Vec<Arc<str>>,
    pub wait: std::time::Duration,
    // optional
    pub maybe_wait: Option<std::time::Duration>,
    pub waits: Vec<Option<std::time::Duration>>,
    pub by_u8: BTreeMap<u8, std::time::Duration>,
    pub by_i8: HashMap<i8, std::num::NonZeroI8>,
    pub by_u16: BTreeMap<u16, bool>,
    pub by_i16: BTreeMap<i16, bool>,
    pub by_u32: BTreeMap<u32, bool>,
    pub by_i32: HashMap<i32, Option<bool>>,
    pub by_u64: BTreeMap<u64, Box<str>>,
    pub by_i64: BTreeMap<i64, u8>,
    pub by_usize: BTreeMap<usize, u8>,
    pub by_isize: BTreeMap<isize, u8>,
    pub by_non_zero_u8: BTreeMap<NonZeroU8, u8>,
    pub by_non_zero_i64: BTreeMap<std::num::NonZeroI64, u8>,
    pub by_bool: BTreeMap<bool, Option<std::time::Duration>>,
    pub by_char: HashMap<char, u8>,
    pub by_uuid: BTreeMap<uuid::Uuid, u8>,
    pub by_ip: BTreeMap<IpAddr, u8>,
    pub by_ip4: HashMap<Ipv4Addr, u8>,
    pub by_ip6: BTreeMap<Ipv6Addr, u8>,
    pub by_cell: BTreeMap<Cell, std::num::NonZeroI8>,
}

/// Whether a parsed [`WiderTypes`] keeps what its types promise beyond
/// Rust's own: every `Duration` is whole seconds (the `duration` format
/// has no fractions).
pub fn wider_in_bounds(w: &WiderTypes) -> bool {
    let whole = |d: &std::time::Duration| d.subsec_nanos() == 0;
    whole(&w.wait)
        && w.maybe_wait.as_ref().is_none_or(whole)
        && w.waits.iter().flatten().all(whole)
        && w.by_u8.values().all(whole)
        && w.by_bool.values().flatten().all(whole)
}

/// [`check_parse`]'s properties for [`WiderTypes`]: `Ok(true)` when it
/// parsed (within bounds, and `to_json()` parses back to an equal value
/// with the same JSON), `Ok(false)` when it was refused with a well-formed
/// error, `Err` naming the broken property.
pub fn check_parse_wider(arguments: &Value) -> Result<bool, String> {
    check_parse_of::<WiderTypes>(arguments, wider_in_bounds)
}

/// [`check_parse`]'s properties for any `T`, with `in_bounds` for what its
/// attributes declare.
pub fn check_parse_of<T: ToolParams + PartialEq + std::fmt::Debug>(
    arguments: &Value,
    in_bounds: fn(&T) -> bool,
) -> Result<bool, String> {
    match T::parse(arguments) {
        Ok(parsed) => {
            if !in_bounds(&parsed) {
                return Err(format!("out of bounds: {parsed:?}"));
            }
            let json = parsed.to_json();
            let again = T::parse(&json)
                .map_err(|error| format!("to_json does not parse back: {error}\n{json}"))?;
            if again != parsed {
                return Err(format!(
                    "to_json parses back to another value: {again:?} vs {parsed:?}"
                ));
            }
            if again.to_json() != json {
                return Err(format!("to_json differs after a round trip: {json}"));
            }
            Ok(true)
        }
        Err(error) => {
            let problems = error.problems();
            if problems.is_empty() {
                return Err("an error without problems".into());
            }
            if problems.len() > MAX_PROBLEMS || error.count() < problems.len() {
                return Err(format!(
                    "{} problems kept, {} counted, at most {MAX_PROBLEMS} allowed",
                    problems.len(),
                    error.count()
                ));
            }
            if let Some(problem) = problems
                .iter()
                .find(|p| p.path().is_empty() || p.message().is_empty())
            {
                return Err(format!("empty path or message: {problem:?}"));
            }
            let text = error.to_string();
            let expected = problems.len() + usize::from(error.count() > problems.len());
            if text.split('\n').count() != expected {
                return Err(format!("not one line per problem: {text:?}"));
            }
            Ok(false)
        }
    }
}

// ---------------------------------------------------------------------------
// Issue 21's serde words, in a struct of their own (parsed as a tool's
// arguments by the agreement tests and the `parse` fuzz target): a
// flattened internally tagged enum (so the root is a `oneOf`), `alias`,
// newtypes with constraints on their field, a `transparent` struct, and
// an adjacently tagged enum with a unit variant and attributes on the
// fields of tuple and newtype variants.

/// serde's words, each where a user reaches for it.
#[derive(ToolParams, Debug, PartialEq)]
pub struct SerdeWords {
    /// Which step (flattened: its tag and fields sit beside these)
    #[param(flatten)]
    pub step: Step,
    /// Who asks
    #[param(alias = "who")]
    pub user: UserId,
    /// Their share
    pub share: Option<Percent>,
    /// Labels to attach
    pub labels: Labels,
    /// Where to mark
    pub mark: Mark,
}

/// One step, flattened beside the other fields.
#[derive(ToolParams, Debug, PartialEq)]
#[param(tag = "step", rename_all = "snake_case")]
pub enum Step {
    /// Move sideways
    Move {
        /// How far
        #[param(min = -10, max = 10)]
        dx: i32,
    },
    /// Say something
    Say {
        /// What to say
        #[param(alias = "message", max_length = 20)]
        text: String,
    },
    /// Wait
    #[param(alias = "pause")]
    Wait,
}

/// A user id
#[derive(ToolParams, Debug, PartialEq)]
pub struct UserId(
    #[param(pattern = "^u[0-9]+$", max_length = 8, example = "u42", example = "u7")] pub String,
);

/// A percentage
#[derive(ToolParams, Debug, PartialEq)]
pub struct Percent(#[param(max = 100)] pub u8);

/// One to three labels
#[derive(ToolParams, Debug, PartialEq)]
#[param(transparent)]
pub struct Labels {
    /// The labels
    #[param(min_length = 1, max_length = 3)]
    pub labels: Vec<String>,
}

/// A mark on a 10 x 10 grid
#[derive(ToolParams, Debug, PartialEq)]
#[param(tag = "kind", content = "at", rename_all = "lowercase")]
pub enum Mark {
    /// Anywhere
    Dot,
    /// At a point
    Point(#[param(max = 9)] u8, #[param(max = 9)] u8),
    /// At a label
    Label(#[param(min_length = 1)] String),
}

fn serde_words_in_bounds(words: &SerdeWords) -> bool {
    let step = match &words.step {
        Step::Move { dx } => (-10..=10).contains(dx),
        Step::Say { text } => text.chars().count() <= 20,
        Step::Wait => true,
    };
    let user = words.user.0.starts_with('u') && words.user.0.chars().count() <= 8;
    let share = words.share.as_ref().is_none_or(|share| share.0 <= 100);
    let labels = (1..=3).contains(&words.labels.labels.len());
    let mark = match &words.mark {
        Mark::Dot => true,
        Mark::Point(x, y) => *x <= 9 && *y <= 9,
        Mark::Label(text) => !text.is_empty(),
    };
    step && user && share && labels && mark
}

/// [`check_parse`]'s properties for [`SerdeWords`].
pub fn check_parse_serde_words(arguments: &Value) -> Result<bool, String> {
    check_parse_of::<SerdeWords>(arguments, serde_words_in_bounds)
}
