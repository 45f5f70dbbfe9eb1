//! Schemas of recursive parameter types (`struct Node { children: Vec<Node> }`):
//! written inline once, with `{"$ref": "#/$defs/<type>"}` where the type
//! recurs and its definition under `$defs` in the outermost schema. Without
//! this, building such a schema would never end.

use crate::ParamValue;
use serde_json::{Map, Value, json};
use std::cell::RefCell;

/// Builds one type's schema (its `ParamValue::schema`).
type BuildSchema = fn() -> Value;

#[derive(Default)]
struct State {
    /// The types whose schemas are being built, outermost first.
    building: Vec<&'static str>,
    /// Recursive types met so far, and how to build each one's definition.
    wanted: Vec<(&'static str, BuildSchema)>,
    /// True while definitions are being built (they are not outermost).
    resolving: bool,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

/// Pops the type off the stack even if building its schema panics.
struct Building;

impl Drop for Building {
    fn drop(&mut self) {
        STATE.with(|state| state.borrow_mut().building.pop());
    }
}

/// The schema of `T`, built by `build`, with recursion turned into `$ref`s.
pub fn recursion_safe_schema<T: ParamValue>(build: impl FnOnce() -> Value) -> Value {
    let name = std::any::type_name::<T>();
    let (recurs, outermost) = STATE.with(|state| {
        let mut state = state.borrow_mut();
        if state.building.contains(&name) {
            if !state.wanted.iter().any(|(wanted, _)| *wanted == name) {
                state.wanted.push((name, T::schema));
            }
            return (true, false);
        }
        state.building.push(name);
        (false, state.building.len() == 1 && !state.resolving)
    });
    if recurs {
        return json!({ "$ref": format!("#/$defs/{}", definition_name(name)) });
    }
    let mut schema = {
        let _building = Building;
        build()
    };
    if outermost {
        let definitions = resolve_definitions();
        if !definitions.is_empty()
            && let Some(object) = schema.as_object_mut()
        {
            object.insert("$defs".into(), Value::Object(definitions));
        }
    }
    schema
}

/// Builds the definition of every recursive type met, including those met
/// while building the definitions themselves.
fn resolve_definitions() -> Map<String, Value> {
    let mut definitions = Map::new();
    loop {
        let next = STATE.with(|state| {
            state
                .borrow()
                .wanted
                .iter()
                .find(|(name, _)| !definitions.contains_key(&definition_name(name)))
                .copied()
        });
        let Some((name, build)) = next else {
            break;
        };
        STATE.with(|state| state.borrow_mut().resolving = true);
        let definition = build();
        STATE.with(|state| state.borrow_mut().resolving = false);
        definitions.insert(definition_name(name), definition);
    }
    STATE.with(|state| state.borrow_mut().wanted.clear());
    definitions
}

/// A type's name as a `$defs` key: its path, with `.` for `::` and `_` for
/// anything a JSON Pointer or a provider's validator might stumble on.
fn definition_name(type_name: &str) -> String {
    type_name
        .replace("::", ".")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}
