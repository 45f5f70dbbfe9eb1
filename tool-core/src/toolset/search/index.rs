//! The searchable text of the deferred tools, indexed once: BM25 over
//! words, and the plain text for the regex mode.
//!
//! BM25 as Lucene scores it (Robertson–Spärck Jones idf with `1 +` inside
//! the logarithm, so a word in most tools still scores a little, never
//! below zero), with Lucene's defaults k1 = 1.2 and b = 0.75. Each tool is
//! one document: its name, its description, and its parameters' names and
//! descriptions, where Anthropic's tool search looks too
//! (<https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool>).

use super::tokens::words;
use crate::model::ToolDefinition;
use serde_json::Value;
use std::collections::HashMap;

const K1: f32 = 1.2;
const B: f32 = 0.75;
/// How deep a schema is walked for parameter names: far enough for any
/// real tool, bounded for a hostile one.
const SCHEMA_DEPTH: usize = 8;

/// One tool's entry: a position in the index, and the text the regex mode
/// matches.
pub(crate) struct Document {
    pub(crate) name: String,
    pub(crate) text: String,
}

/// The index over a fixed list of tools (documents), in the order given.
pub(crate) struct Index {
    pub(crate) documents: Vec<Document>,
    postings: HashMap<String, Vec<(u32, u32)>>,
    lengths: Vec<u32>,
    average_length: f32,
}

impl Index {
    pub(crate) fn new<'a>(definitions: impl IntoIterator<Item = &'a ToolDefinition>) -> Self {
        let mut index = Index {
            documents: Vec::new(),
            postings: HashMap::new(),
            lengths: Vec::new(),
            average_length: 0.0,
        };
        for definition in definitions {
            index.add(definition);
        }
        let total: u64 = index.lengths.iter().map(|&length| u64::from(length)).sum();
        index.average_length = total as f32 / index.lengths.len().max(1) as f32;
        index
    }

    fn add(&mut self, definition: &ToolDefinition) {
        let document = u32::try_from(self.documents.len()).unwrap_or(u32::MAX);
        let text = searchable_text(definition);
        let mut counts: HashMap<String, u32> = HashMap::new();
        let mut length = 0u32;
        words(&text, |word| {
            *counts.entry(word).or_default() += 1;
            length += 1;
        });
        for (word, count) in counts {
            self.postings
                .entry(word)
                .or_default()
                .push((document, count));
        }
        self.lengths.push(length);
        self.documents.push(Document {
            name: definition.name.clone(),
            text,
        });
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
        words(query, |word| {
            if !terms.contains(&word) {
                terms.push(word);
            }
        });
        let count = self.documents.len() as f32;
        // One score per document, and the list of those a term touched: a
        // dense array is several times faster than a map at ten thousand
        // tools, and the list keeps the ranking's cost to the matches.
        let mut scores: Vec<f32> = vec![0.0; self.documents.len()];
        let mut touched: Vec<usize> = Vec::new();
        for term in &terms {
            let Some(postings) = self.postings.get(term) else {
                continue;
            };
            let with_term = postings.len() as f32;
            let idf = (1.0 + (count - with_term + 0.5) / (with_term + 0.5)).ln();
            for &(document, frequency) in postings {
                let document = document as usize;
                let frequency = frequency as f32;
                let length = self.lengths[document] as f32;
                let norm = K1 * (1.0 - B + B * length / self.average_length);
                if scores[document] == 0.0 {
                    touched.push(document);
                }
                scores[document] += idf * frequency * (K1 + 1.0) / (frequency + norm);
            }
        }
        let ranked: Vec<(usize, f32)> = touched
            .into_iter()
            .map(|document| (document, scores[document]))
            .collect();
        best_kept(ranked, limit, keep)
    }
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

/// Name, description, and every parameter's name and description, one per
/// line.
fn searchable_text(definition: &ToolDefinition) -> String {
    let mut text = format!("{}\n{}", definition.name, definition.description);
    schema_words(&definition.parameters, &mut text, SCHEMA_DEPTH);
    text
}

fn schema_words(schema: &Value, text: &mut String, depth: usize) {
    let Some(schema) = schema.as_object() else {
        return;
    };
    if depth == 0 {
        return;
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            text.push('\n');
            text.push_str(name);
            if let Some(description) = property.get("description").and_then(Value::as_str) {
                text.push_str(": ");
                text.push_str(description);
            }
            schema_words(property, text, depth - 1);
        }
    }
    for nested in ["items", "additionalProperties"] {
        if let Some(inner) = schema.get(nested) {
            schema_words(inner, text, depth - 1);
        }
    }
    for list in ["anyOf", "oneOf", "allOf"] {
        for inner in schema
            .get(list)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            schema_words(inner, text, depth - 1);
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
    fn a_limit_keeps_the_best_in_order() {
        let index = index();
        let found = index.bm25("read weather calendar", 2, |_| true);
        assert_eq!(found.len(), 2);
        assert!(found[0].1 >= found[1].1);
    }
}
