//! Parameters: what `#[derive(ToolParams)]` parses, the schema it writes,
//! the errors a model reads, and hostile input. One test binary for the
//! layer (each binary links the whole dependency tree, and CI builds them on
//! two cores).
//!
//! - [`parse`]: what parse accepts and how it words what it refuses.
//! - [`field_types`], [`field_rules`], [`enums`]: field types, field
//!   attributes, enums with data.
//! - [`schema_meaning`]: parse reads a value as the schema a provider sent
//!   means it (strict providers' nulls, untagged preference).
//! - [`serde_parity`]: serde's attributes with serde's meanings (alias,
//!   newtypes, transparent, flattened tagged enums).
//! - [`formats`]: `Format::is_valid` against the `jsonschema` crate.
//! - [`agreement`]: parse and the derived schema agree (property test).
//! - [`provider_agreement`]: parse agrees with the schema each provider
//!   format sends (property test).
//! - [`fuzz_properties`]: the `parse` fuzz target's properties.
//! - [`hostile`], [`hostile_enums`]: deep nesting, huge values, recursive
//!   enums (a test that could overflow the stack runs in a child process,
//!   `support::child_process`).

mod agreement;
mod default_literals;
mod enums;
mod field_rules;
mod field_types;
mod formats;
mod fuzz_properties;
mod hostile;
mod hostile_enums;
mod parse;
mod provider_agreement;
mod schema_meaning;
mod serde_parity;
// Shared by every test binary here: one copy, beside the binaries.
#[path = "../support/mod.rs"]
mod support;
