//! Schemas of recursive parameter types (`struct Node { children: Vec<Node> }`):
//! written inline once, with `{"$ref": "#/$defs/<type>"}` where the type
//! recurs and its definition under `$defs` in the outermost schema. Without
//! this, building such a schema would never end.

use crate::params::ParamValue;
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

/// Forgets what one outermost schema collected when it is done, even if a
/// schema panics while being built, so the next one on this thread starts
/// clean.
struct Outermost;

impl Drop for Outermost {
    fn drop(&mut self) {
        STATE.with(|state| {
            let mut state = state.borrow_mut();
            state.wanted.clear();
            state.resolving = false;
        });
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
    let _outermost = outermost.then_some(Outermost);
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

#[cfg(test)]
mod tests {
    use crate::ToolParams;
    use serde_json::json;

    /// A recursive type whose schema panics the first time it is built.
    #[derive(crate::ToolParams)]
    #[allow(dead_code)]
    struct Tree {
        children: Vec<Tree>,
        fragile: Fragile,
    }

    #[allow(dead_code)]
    struct Fragile;

    thread_local! {
        static PANIC_NEXT: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
    }

    impl crate::params::ParamValue for Fragile {
        fn schema() -> serde_json::Value {
            if PANIC_NEXT.with(|next| next.replace(false)) {
                panic!("a user's schema failed");
            }
            json!({"type": "string"})
        }

        fn parse_value(
            _: &serde_json::Value,
            _: &crate::params::ParamPath<'_>,
            _: &mut crate::params::ParseContext,
        ) -> Option<Self> {
            Some(Fragile)
        }

        fn to_json(&self) -> serde_json::Value {
            json!("")
        }
    }

    #[derive(crate::ToolParams)]
    #[allow(dead_code)]
    struct Plain {
        name: String,
    }

    #[test]
    fn a_panicking_schema_leaves_nothing_behind_for_the_next() {
        let panicked = std::panic::catch_unwind(Tree::json_schema);
        assert!(panicked.is_err());
        // Nothing of `Tree` leaks into an unrelated schema built next.
        assert_eq!(
            Plain::json_schema(),
            json!({
                "type": "object",
                "properties": {"name": {"type": "string"}},
                "required": ["name"],
                "additionalProperties": false,
            })
        );
        let tree = Tree::json_schema();
        assert_eq!(
            tree["properties"]["children"]["items"]["$ref"],
            json!("#/$defs/tool_core.params.schema_refs.tests.Tree")
        );
        assert!(
            tree["$defs"]
                .as_object()
                .is_some_and(|defs| defs.len() == 1)
        );
    }
}
