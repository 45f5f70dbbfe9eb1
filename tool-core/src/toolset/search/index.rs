//! The searchable text of the deferred tools, indexed once: BM25F over
//! words, and the plain text for the regex mode.
//!
//! Each tool is one document of four fields: its name, its description,
//! its parameters (their names and descriptions, nested ones too: where
//! Anthropic's tool search looks,
//! <https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool>),
//! and the values its parameters allow (`enum`). A word is scored as BM25F
//! scores it (Robertson, Zaragoza and Taylor, "Simple BM25 extension to
//! multiple weighted fields", CIKM 2004): its count in each field, weighed
//! by the field and normalized by the field's length, summed into one
//! frequency that saturates once; the idf is Lucene's (Robertson–Spärck
//! Jones with `1 +` inside the logarithm, so a word in most tools still
//! scores a little, never below zero), over whole tools.
//!
//! Every part of a word's score but the query is known when the index is
//! built, so each posting holds its whole score (its impact): a search
//! adds numbers, as plain BM25 over one field would, and costs no more.
//!
//! The weights and the two constants were chosen on half of a labelled set
//! of real requests (`tool-core/benches/data/search_eval`, the Berkeley
//! Function Calling Leaderboard's), and checked on the other half, whose
//! requests ask for other tools (`cargo bench -p tool-core --features
//! schema-check --bench search_eval`).

use super::tokens::{joined_identifiers, words};
use crate::model::ToolDefinition;
use serde_json::Value;
use std::collections::HashMap;

/// Term-frequency saturation: below Lucene's 1.2, so a tool matching more
/// of a request's words beats one repeating a few of them (requests sent
/// to an agent are long, and a tool's text repeats its own words).
const K1: f32 = 0.6;
/// Length normalization, below Lucene's 0.75: a long description is more
/// often a thorough one than a padded one.
const B: f32 = 0.3;
/// How deep a schema is walked for parameter names: far enough for any
/// real tool, bounded for a hostile one.
const SCHEMA_DEPTH: usize = 8;

/// The fields of a tool, each weighed by [`WEIGHTS`].
#[derive(Clone, Copy)]
pub(super) enum Field {
    /// The tool's name: its words, and the whole name as one word.
    Name,
    /// The tool's description.
    Description,
    /// Each parameter's name and description.
    Parameters,
    /// The values a parameter allows (its `enum`).
    Values,
}

/// How many [`Field`]s a tool has.
const FIELDS: usize = 4;

/// A word in the name counts three times one in the description, which
/// counts twice one in a parameter: a name says what the tool is for, a
/// parameter's description says much that is true of many tools ("the
/// unique identifier of the ..."). A parameter's allowed values
/// (`celsius`, `fahrenheit`) are few and telling, weighed as the
/// description. Measured on the labelled requests (the share whose tool is
/// in the top five): 0.845 with these weights, 0.827 with all four at 1,
/// 0.813 without the allowed values.
const WEIGHTS: [f32; FIELDS] = [3.0, 1.0, 0.5, 1.0];

/// One tool's entry: a position in the index, and the text the regex mode
/// matches.
pub(crate) struct Document {
    pub(crate) name: String,
    pub(crate) text: String,
}

/// The index over a fixed list of tools (documents), in the order given.
pub(crate) struct Index {
    pub(crate) documents: Vec<Document>,
    /// Each word's documents, with the word's whole score in each (its
    /// impact), in document order.
    postings: HashMap<String, Box<[(u32, f32)]>>,
}

/// Each word's count in each field of one document, while the index is
/// built.
type FieldCounts = [u16; FIELDS];

impl Index {
    pub(crate) fn new<'a>(definitions: impl IntoIterator<Item = &'a ToolDefinition>) -> Self {
        let mut documents = Vec::new();
        let mut counts: HashMap<String, Vec<(u32, FieldCounts)>> = HashMap::new();
        let mut lengths: Vec<[u32; FIELDS]> = Vec::new();
        for definition in definitions {
            let document = u32::try_from(documents.len()).unwrap_or(u32::MAX);
            let mut own: HashMap<String, FieldCounts> = HashMap::new();
            let mut length = [0u32; FIELDS];
            let text = fields(definition, |field, text| {
                let mut count = |word: String| {
                    let slot = &mut own.entry(word).or_default()[field as usize];
                    *slot = slot.saturating_add(1);
                    length[field as usize] += 1;
                };
                words(text, &mut count);
                if matches!(field, Field::Name) {
                    joined_identifiers(text, &mut count);
                }
            });
            for (word, fields) in own {
                counts.entry(word).or_default().push((document, fields));
            }
            lengths.push(length);
            documents.push(Document {
                name: definition.name.clone(),
                text,
            });
        }
        let postings = impacts(counts, &lengths);
        Index {
            documents,
            postings,
        }
    }

    /// The documents `query` scores above zero that `keep` keeps, best
    /// first (ties in the documents' order), at most `limit`, with their
    /// scores. Kept before the limit is applied, so a caller who may see
    /// few of the tools still gets up to `limit` of those. The idf is the
    /// whole index's: only the order of the kept documents is shown, never
    /// a score.
    pub(crate) fn bm25(
        &self,
        query: &str,
        limit: usize,
        keep: impl Fn(usize) -> bool,
    ) -> Vec<(usize, f32)> {
        let mut terms = Vec::new();
        let mut add = |word: String| {
            if !terms.contains(&word) {
                terms.push(word);
            }
        };
        words(query, &mut add);
        joined_identifiers(query, &mut add);
        // One score per document, and the list of those a term touched: a
        // dense array is several times faster than a map at ten thousand
        // tools, and the list keeps the ranking's cost to the matches.
        let mut scores: Vec<f32> = vec![0.0; self.documents.len()];
        let mut touched: Vec<usize> = Vec::new();
        for term in &terms {
            let Some(postings) = self.postings.get(term) else {
                continue;
            };
            for &(document, impact) in postings.iter() {
                let document = document as usize;
                // Every impact is above zero: a score of zero is untouched.
                if scores[document] == 0.0 {
                    touched.push(document);
                }
                scores[document] += impact;
            }
        }
        let ranked: Vec<(usize, f32)> = touched
            .into_iter()
            .map(|document| (document, scores[document]))
            .collect();
        best_kept(ranked, limit, keep)
    }
}

/// Each word's postings with their impacts: BM25F's saturated, weighed
/// and normalized frequency times the word's idf.
fn impacts(
    counts: HashMap<String, Vec<(u32, FieldCounts)>>,
    lengths: &[[u32; FIELDS]],
) -> HashMap<String, Box<[(u32, f32)]>> {
    let documents = lengths.len() as f32;
    let mut averages = [0f32; FIELDS];
    for length in lengths {
        for (average, &length) in averages.iter_mut().zip(length) {
            *average += length as f32;
        }
    }
    for average in &mut averages {
        // A field no tool has never divides: no word has a count in it.
        *average = (*average / documents.max(1.0)).max(f32::MIN_POSITIVE);
    }
    counts
        .into_iter()
        .map(|(word, postings)| {
            let with_word = postings.len() as f32;
            let idf = (1.0 + (documents - with_word + 0.5) / (with_word + 0.5)).ln();
            let postings = postings
                .into_iter()
                .map(|(document, counts)| {
                    let length = &lengths[document as usize];
                    let mut frequency = 0.0;
                    for field in 0..FIELDS {
                        if counts[field] > 0 {
                            let norm = 1.0 - B + B * length[field] as f32 / averages[field];
                            frequency += WEIGHTS[field] * f32::from(counts[field]) / norm;
                        }
                    }
                    (document, idf * frequency * (K1 + 1.0) / (frequency + K1))
                })
                .collect();
            (word, postings)
        })
        .collect()
}

/// The `limit` best of `ranked` that `keep` keeps, best first (ties in
/// name order). `keep` is asked only of the best few: the top `limit` are
/// selected, then four times as many while some of them are not kept.
fn best_kept(
    mut ranked: Vec<(usize, f32)>,
    limit: usize,
    keep: impl Fn(usize) -> bool,
) -> Vec<(usize, f32)> {
    let by_rank = |a: &(usize, f32), b: &(usize, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
    if limit == 0 {
        return Vec::new();
    }
    let mut window = limit;
    loop {
        let whole = window >= ranked.len();
        if !whole {
            ranked.select_nth_unstable_by(window - 1, by_rank);
        }
        let end = window.min(ranked.len());
        let head = &mut ranked[..end];
        head.sort_unstable_by(by_rank);
        let kept: Vec<(usize, f32)> = head
            .iter()
            .copied()
            .filter(|&(document, _)| keep(document))
            .take(limit)
            .collect();
        if kept.len() == limit || whole {
            return kept;
        }
        window = window.saturating_mul(4);
    }
}

/// Gives `each` the text of every field of `definition`, in order, and
/// returns the text the regex mode matches: the name, the description,
/// and each parameter's `name: description` on a line, followed by a
/// line of its allowed values if it has some.
pub(super) fn fields(definition: &ToolDefinition, mut each: impl FnMut(Field, &str)) -> String {
    each(Field::Name, &definition.name);
    each(Field::Description, &definition.description);
    let mut text = format!("{}\n{}", definition.name, definition.description);
    schema_words(&definition.parameters, &mut text, &mut each, SCHEMA_DEPTH);
    text
}

fn schema_words(
    schema: &Value,
    text: &mut String,
    each: &mut impl FnMut(Field, &str),
    depth: usize,
) {
    let Some(schema) = schema.as_object() else {
        return;
    };
    if depth == 0 {
        return;
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        let line = values
            .iter()
            .filter_map(|value| match value {
                Value::String(value) => Some(value.clone()),
                Value::Number(value) => Some(value.to_string()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join(", ");
        if !line.is_empty() {
            each(Field::Values, &line);
            text.push('\n');
            text.push_str(&line);
        }
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            each(Field::Parameters, name);
            text.push('\n');
            text.push_str(name);
            if let Some(description) = property.get("description").and_then(Value::as_str) {
                each(Field::Parameters, description);
                text.push_str(": ");
                text.push_str(description);
            }
            schema_words(property, text, each, depth - 1);
        }
    }
    for nested in ["items", "additionalProperties"] {
        if let Some(inner) = schema.get(nested) {
            schema_words(inner, text, each, depth - 1);
        }
    }
    for list in ["anyOf", "oneOf", "allOf"] {
        for inner in schema
            .get(list)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            schema_words(inner, text, each, depth - 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_best_kept_are_found_past_the_first_window_and_keep_is_asked_of_few() {
        // 100 documents, document d scoring d: the best are 99, 98, ...
        let ranked: Vec<(usize, f32)> = (0..100).map(|d| (d, d as f32)).collect();
        let asked = std::cell::Cell::new(0);
        // The 10 best are not kept: the window of 3 grows to 12 (two kept),
        // then to 48, where the 13th best is the third kept.
        let kept = best_kept(ranked.clone(), 3, |d| {
            asked.set(asked.get() + 1);
            d < 90
        });
        assert_eq!(kept, [(89, 89.0), (88, 88.0), (87, 87.0)]);
        assert_eq!(asked.get(), 3 + 12 + 13, "asked of the windows' heads only");
        // Every document kept: asked of the first window alone.
        asked.set(0);
        let kept = best_kept(ranked.clone(), 2, |_| {
            asked.set(asked.get() + 1);
            true
        });
        assert_eq!(kept, [(99, 99.0), (98, 98.0)]);
        assert_eq!(asked.get(), 2);
        // Fewer kept than the limit: all of them, best first.
        assert_eq!(
            best_kept(ranked, 5, |d| d % 50 == 7),
            [(57, 57.0), (7, 7.0)]
        );
    }

    fn index() -> Index {
        let definitions = [
            ToolDefinition::new(
                "weather_get",
                "Get the current weather for a city",
                json!({"type": "object", "properties": {"city": {"type": "string", "description": "City name"}}}),
            ),
            ToolDefinition::new(
                "files_read",
                "Read a file from the workspace",
                json!({"type": "object"}),
            ),
            ToolDefinition::new(
                "calendar_create",
                "Create a calendar event",
                json!({"type": "object", "properties": {"when": {"type": "string", "description": "Start time, in the city's zone"}}}),
            ),
        ];
        Index::new(&definitions)
    }

    #[test]
    fn the_tool_whose_words_match_most_ranks_first() {
        let index = index();
        let found = index.bm25("weather in a city", 5, |_| true);
        let names: Vec<&str> = found
            .iter()
            .map(|&(document, _)| index.documents[document].name.as_str())
            .collect();
        // "city" is in the calendar's parameter description too, but weather has both words.
        assert_eq!(names, ["weather_get", "calendar_create"]);
        assert!(found[0].1 > found[1].1);
    }

    #[test]
    fn parameter_names_and_descriptions_are_searched() {
        let index = index();
        let found = index.bm25("zone", 5, |_| true);
        assert_eq!(found.len(), 1);
        assert_eq!(index.documents[found[0].0].name, "calendar_create");
    }

    #[test]
    fn no_match_and_a_zero_limit_find_nothing() {
        let index = index();
        assert!(index.bm25("spreadsheet", 5, |_| true).is_empty());
        assert!(index.bm25("weather", 0, |_| true).is_empty());
        assert!(index.bm25("", 5, |_| true).is_empty());
    }

    #[test]
    fn only_kept_documents_are_ranked_and_the_limit_counts_them_alone() {
        let index = index();
        // Weather ranks first for these words; left out, the limit of one
        // goes to the next kept document.
        let found = index.bm25("weather in a city", 1, |document| document != 0);
        assert_eq!(found.len(), 1);
        assert_eq!(index.documents[found[0].0].name, "calendar_create");
        assert!(index.bm25("weather", 5, |_| false).is_empty());
    }

    #[test]
    fn a_word_in_the_name_counts_more_than_in_a_parameter() {
        // "city" is in weather_get's parameter and the whole of city_info's
        // name: the name wins, though weather_get's text says it twice.
        let definitions = [
            ToolDefinition::new(
                "weather_get",
                "Get the current weather",
                json!({"type": "object", "properties": {"city": {"type": "string", "description": "City name"}}}),
            ),
            ToolDefinition::new(
                "city_info",
                "Facts about a place",
                json!({"type": "object"}),
            ),
        ];
        let index = Index::new(&definitions);
        let found = index.bm25("city", 5, |_| true);
        assert_eq!(found.len(), 2);
        assert_eq!(index.documents[found[0].0].name, "city_info");
    }

    #[test]
    fn allowed_values_plurals_and_whole_names_are_found() {
        let definitions = [
            ToolDefinition::new(
                "get_temperature",
                "Temperature at a place",
                json!({"type": "object", "properties": {"unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}}),
            ),
            ToolDefinition::new(
                "Movies_FindMovies",
                "Find films to watch",
                json!({"type": "object"}),
            ),
            ToolDefinition::new(
                "get_weather",
                "Current conditions",
                json!({"type": "object"}),
            ),
        ];
        let index = Index::new(&definitions);
        let first = |query: &str| {
            let found = index.bm25(query, 1, |_| true);
            found
                .first()
                .map(|&(document, _)| index.documents[document].name.clone())
        };
        assert_eq!(first("in fahrenheit").as_deref(), Some("get_temperature"));
        assert!(index.documents[0].text.ends_with("\ncelsius, fahrenheit"));
        assert_eq!(first("a movie").as_deref(), Some("Movies_FindMovies"));
        // The whole name, however it is spelled, or run together.
        assert_eq!(first("getWeather").as_deref(), Some("get_weather"));
        assert_eq!(first("getweather").as_deref(), Some("get_weather"));
    }

    #[test]
    fn a_limit_keeps_the_best_in_order() {
        let index = index();
        let found = index.bm25("read weather calendar", 2, |_| true);
        assert_eq!(found.len(), 2);
        assert!(found[0].1 >= found[1].1);
    }
}
