//! What a format dropped, said in the description the model reads (a
//! strict mode's subset, Gemini's OpenAPI one):
//! the model is the one who must respect a default, a bound or a format,
//! and a keyword the request no longer carries tells it nothing ("Default:
//! \"celsius\".", "From 1 to 20.", "A date, as YYYY-MM-DD."). Only what was
//! dropped at a node is said there, so a keyword that survives is never
//! repeated; parse still enforces every one of them.

use serde_json::{Map, Value};

/// The words for what `original` has and `converted` lost, in one
/// sentence each, or `None` when nothing the model must know was lost.
pub(crate) fn for_dropped(
    original: &Map<String, Value>,
    converted: &Map<String, Value>,
) -> Option<String> {
    // Dropped, or weakened (Anthropic writes a `minItems` above 1 as 1).
    let lost = |key: &str| {
        original
            .get(key)
            .filter(|value| converted.get(key) != Some(value))
    };
    let kind = original
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let mut sentences = Vec::new();
    if let Some(sentence) = range(
        bound(lost("minimum"), lost("exclusiveMinimum")),
        bound(lost("maximum"), lost("exclusiveMaximum")),
    ) {
        sentences.push(sentence);
    }
    let unit = match kind {
        "array" => "items",
        _ => "characters",
    };
    let (least, most) = match kind {
        "array" => (lost("minItems"), lost("maxItems")),
        _ => (lost("minLength"), lost("maxLength")),
    };
    if let Some(sentence) = count(least, most, unit) {
        sentences.push(sentence);
    }
    if let Some(step) = lost("multipleOf") {
        sentences.push(format!("A multiple of {step}."));
    }
    if lost("uniqueItems") == Some(&Value::Bool(true)) {
        sentences.push("No item twice.".to_owned());
    }
    if let Some(pattern) = lost("pattern").and_then(Value::as_str) {
        sentences.push(format!("Matches the regular expression /{pattern}/."));
    }
    if let Some(format) = lost("format").and_then(Value::as_str) {
        sentences.push(format_words(format));
    }
    if let Some(default) = lost("default") {
        sentences.push(format!("Default: {default}."));
    }
    (!sentences.is_empty()).then(|| sentences.join(" "))
}

/// Writes into `out` (the converted node) what it lost of `original` that
/// the model must know, after its description, and says so in a
/// diagnostic naming `what` (the subset that dropped it).
pub(crate) fn say_what_was_dropped(
    original: &Map<String, Value>,
    out: &mut Map<String, Value>,
    path: &str,
    what: &str,
    report: &mut crate::providers::diagnostic::Report<'_>,
) {
    let Some(words) = for_dropped(original, out) else {
        return;
    };
    let description = appended(out.get("description").and_then(Value::as_str), &words);
    report.push(
        &format!("{path}/description"),
        format!("changed: says what {what} dropped, for the model: \"{words}\""),
    );
    out.insert("description".into(), Value::String(description));
}

/// `description` with `words` after it, as one text.
pub(crate) fn appended(description: Option<&str>, words: &str) -> String {
    match description
        .map(str::trim_end)
        .filter(|text| !text.is_empty())
    {
        None => words.to_owned(),
        Some(text) if text.ends_with(['.', '!', '?', ':']) => format!("{text} {words}"),
        Some(text) => format!("{text}. {words}"),
    }
}

/// One side of a numeric range: `(value, exclusive)`.
type Bound = (String, bool);

fn bound(inclusive: Option<&Value>, exclusive: Option<&Value>) -> Option<Bound> {
    // A bound at a wide integer type's own range (a `u32`'s 4294967295)
    // says nothing a model would break: left unsaid.
    let said = |value: &&Value| {
        value
            .as_f64()
            .is_none_or(|bound| bound.abs() < f64::from(i32::MAX))
    };
    let (inclusive, exclusive) = (inclusive.filter(said), exclusive.filter(said));
    match (exclusive, inclusive) {
        (Some(value), _) => Some((value.to_string(), true)),
        (None, Some(value)) => Some((value.to_string(), false)),
        (None, None) => None,
    }
}

fn range(lower: Option<Bound>, upper: Option<Bound>) -> Option<String> {
    match (lower, upper) {
        (Some((low, false)), Some((high, false))) => Some(format!("From {low} to {high}.")),
        (lower, upper) => {
            let mut parts = Vec::new();
            match lower {
                Some((low, false)) => parts.push(format!("At least {low}.")),
                Some((low, true)) => parts.push(format!("More than {low}.")),
                None => {}
            }
            match upper {
                Some((high, false)) => parts.push(format!("At most {high}.")),
                Some((high, true)) => parts.push(format!("Less than {high}.")),
                None => {}
            }
            (!parts.is_empty()).then(|| parts.join(" "))
        }
    }
}

fn count(least: Option<&Value>, most: Option<&Value>, unit: &str) -> Option<String> {
    match (least, most) {
        (Some(least), Some(most)) if least == most => Some(format!("Exactly {least} {unit}.")),
        (Some(least), Some(most)) => Some(format!("{least} to {most} {unit}.")),
        (Some(least), None) => Some(format!("At least {least} {unit}.")),
        (None, Some(most)) => Some(format!("At most {most} {unit}.")),
        (None, None) => None,
    }
}

/// A string format, as a person would say it.
fn format_words(format: &str) -> String {
    match format {
        "date" => "A date, as YYYY-MM-DD.".to_owned(),
        "date-time" => "A date and time, as RFC 3339 (2026-12-07T20:00:00Z).".to_owned(),
        "time" => "A time, as HH:MM:SS.".to_owned(),
        "duration" => "An ISO 8601 duration (P3D, PT2H).".to_owned(),
        "email" => "An email address.".to_owned(),
        "uri" => "An absolute URI.".to_owned(),
        "uuid" => "A UUID.".to_owned(),
        "ipv4" => "An IPv4 address.".to_owned(),
        "ipv6" => "An IPv6 address.".to_owned(),
        "hostname" => "A host name.".to_owned(),
        other => format!("Format: {other}."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn words(original: Value, converted: Value) -> Option<String> {
        for_dropped(
            original.as_object().unwrap(),
            converted.as_object().unwrap(),
        )
    }

    #[test]
    fn each_dropped_keyword_is_a_sentence_and_a_kept_one_none() {
        assert_eq!(
            words(
                json!({"type": "integer", "minimum": 1, "maximum": 20, "default": 3}),
                json!({"type": "integer"})
            ),
            Some("From 1 to 20. Default: 3.".to_owned())
        );
        assert_eq!(
            words(
                json!({"type": "integer", "minimum": 1, "maximum": 20}),
                json!({"type": "integer", "minimum": 1, "maximum": 20})
            ),
            None
        );
        assert_eq!(
            words(
                json!({"type": "number", "exclusiveMinimum": 0}),
                json!({"type": "number"})
            ),
            Some("More than 0.".to_owned())
        );
        assert_eq!(
            words(
                json!({"type": "string", "maxLength": 80, "format": "date", "default": "celsius"}),
                json!({"type": "string"})
            ),
            Some("At most 80 characters. A date, as YYYY-MM-DD. Default: \"celsius\".".to_owned())
        );
        assert_eq!(
            words(
                json!({"type": "array", "minItems": 2, "maxItems": 2, "uniqueItems": true}),
                json!({"type": "array"})
            ),
            Some("Exactly 2 items. No item twice.".to_owned())
        );
    }

    #[test]
    fn words_follow_the_description() {
        assert_eq!(
            appended(Some("The unit"), "Default: \"c\"."),
            "The unit. Default: \"c\"."
        );
        assert_eq!(
            appended(Some("The unit."), "Default: 1."),
            "The unit. Default: 1."
        );
        assert_eq!(appended(None, "At most 3."), "At most 3.");
    }
}
