//! OpenAI's strict mode, as [`Rules`] for the shared converter: every
//! object closed and every property listed as required. An optional field
//! becomes `{"anyOf":[<schema>,{"type":"null"}]}` (parse already reads
//! `null` as absent), keywords outside the subset are dropped or
//! rewritten, and what cannot be strict at all (a map, a value of any
//! type) makes the tool non-strict.
//!
//! The subset, from <https://developers.openai.com/api/docs/guides/structured-outputs>
//! ("Supported schemas"): types, `enum`, `anyOf`, `pattern`, the formats of
//! [`FORMATS`], number bounds and `multipleOf`, `minItems`/`maxItems`,
//! `$ref`/`$defs` (recursion included). Beyond it: `oneOf` is refused
//! ("'oneOf' is not permitted", openai/openai-node#2602), so is a format
//! outside the list ("'uri' is not a valid format", can1357/oh-my-pi#206)
//! and a schema without a type ("schema must have a 'type' key",
//! can1357/oh-my-pi#211); `$ref` must stand alone ("$ref cannot have
//! keywords {'description'}", vectorize-io/hindsight#3944); `uniqueItems`
//! and `prefixItems` are refused by the SDK's strict helper, and `const`,
//! not on the list, is written as a one-value `enum`.

use crate::providers::strict::Rules;

/// The string formats strict mode accepts; any other is dropped.
const FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// OpenAI's strict mode, for both APIs.
pub(super) const RULES: Rules = Rules {
    kept: &[
        "type",
        "description",
        "enum",
        "pattern",
        "multipleOf",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minItems",
        "maxItems",
        "$ref",
    ],
    formats: FORMATS,
    every_property_required: true,
    min_items_at_most: None,
    recursion: true,
    ref_alone: Some("strict mode refuses them: \"$ref cannot have keywords\""),
    typed: "strict mode wants a type in every schema: \"schema must have a 'type' key\"",
    pattern: |_| Vec::new(),
};
