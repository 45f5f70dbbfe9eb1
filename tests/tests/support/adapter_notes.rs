//! The diagnostics the provider formats write when they change a schema,
//! word for word, as more than one test of the formats expects them.

/// An optional field in a strict format.
pub(crate) const OPTIONAL_TO_NULLABLE: &str = "changed: optional, so made nullable and required (strict mode requires every property; null means absent)";
/// An object closed to undeclared keys, in Gemini's OpenAPI 3.0 dialect.
pub(crate) const LEGACY_CLOSED: &str = "dropped: OpenAPI 3.0 (Gemini) cannot close an object; parse drops undeclared keys, or refuses them where the type denies unknown fields";
/// An optional field, in Gemini's OpenAPI 3.0 dialect.
pub(crate) const LEGACY_OPTIONAL: &str =
    "changed: optional, so marked `\"nullable\": true` (null means absent)";
