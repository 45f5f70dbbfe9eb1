//! Words of a tool's text, as the search compares them: `readFile`,
//! `read_file` and `read-file` all give `read` and `file`, so a query
//! finds a tool however its author spelled the name. English words too
//! common to tell tools apart ("a", "the", "could", "my") are left out:
//! in a description they match almost every tool, and in a request
//! written to an agent ("could you tell me what my ...") they are most of
//! the words. A plural counts as its singular (`movies` finds `movie`).
//!
//! What each choice is worth was measured on real requests
//! (`cargo bench -p tool-core --features schema-check --bench search_eval`,
//! over the Berkeley Function Calling Leaderboard's requests and
//! functions).

/// Left out of both tools and requests: the English stop words of the
/// Snowball project's list (pronouns, articles, auxiliaries, question
/// words, conjunctions, and the pieces contractions split into: `i'm`
/// gives `i` and `m`), but for the words that say what a tool does to a
/// thing (`up`, `down`, `off`, `before`, `all`, `not`, ...: `turn_off`
/// must not look like `turn_on`), and `won`, a word of its own.
/// Sorted, for a binary search.
const STOP_WORDS: [&str; 113] = [
    "a",
    "about",
    "am",
    "an",
    "and",
    "are",
    "aren",
    "as",
    "at",
    "be",
    "because",
    "been",
    "being",
    "but",
    "by",
    "can",
    "cannot",
    "could",
    "couldn",
    "d",
    "did",
    "didn",
    "do",
    "does",
    "doesn",
    "doing",
    "don",
    "for",
    "from",
    "had",
    "hadn",
    "has",
    "hasn",
    "have",
    "haven",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "isn",
    "it",
    "its",
    "itself",
    "let",
    "ll",
    "m",
    "me",
    "mustn",
    "my",
    "myself",
    "of",
    "on",
    "or",
    "ought",
    "our",
    "ours",
    "ourselves",
    "re",
    "s",
    "shan",
    "she",
    "should",
    "shouldn",
    "so",
    "such",
    "t",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "to",
    "until",
    "ve",
    "was",
    "wasn",
    "we",
    "were",
    "weren",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "with",
    "would",
    "wouldn",
    "you",
    "your",
    "yours",
    "yourself",
    "yourselves",
];

/// The words of `text` the search indexes and looks up: [`raw_words`]
/// without the stop words, each reduced by [`stem`].
pub(crate) fn words(text: &str, mut each: impl FnMut(String)) {
    raw_words(text, |word| {
        if STOP_WORDS.binary_search(&word).is_err() {
            each(stem(word.to_owned()));
        }
    });
}

/// Each identifier of `text` made of two words or more, as one word: its
/// words (stop words included, none stemmed) joined, so `get_current_weather`,
/// `getCurrentWeather` and `get-current-weather` all give
/// `getcurrentweather`. An identifier is a run of `text` between spaces.
///
/// Why: the words of a name say what the tool does, the whole name says
/// which tool it is. A request that names a tool (`call get_weather`) or
/// writes its words run together (`getweather`) finds that tool first,
/// above the many others that share its words.
pub(crate) fn joined_identifiers(text: &str, mut each: impl FnMut(String)) {
    for run in text.split_whitespace() {
        let mut whole = String::new();
        let mut count = 0;
        raw_words(run, |word| {
            whole.push_str(word);
            count += 1;
        });
        if count > 1 {
            each(whole);
        }
    }
}

/// The lowercase words of `text`: runs of letters and digits, split again
/// where a lowercase letter or a digit meets an uppercase one (`getHTTPStatus`
/// gives `get`, `http`, `status`).
fn raw_words(text: &str, mut each: impl FnMut(&str)) {
    let mut word = String::new();
    let mut previous: Option<char> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if !c.is_alphanumeric() {
            flush(&mut word, &mut each);
            previous = None;
            continue;
        }
        if let Some(before) = previous
            && c.is_uppercase()
        {
            let next_is_lower = chars.peek().is_some_and(|next| next.is_lowercase());
            if !before.is_uppercase() || next_is_lower {
                flush(&mut word, &mut each);
            }
        }
        word.extend(c.to_lowercase());
        previous = Some(c);
    }
    flush(&mut word, &mut each);
}

fn flush(word: &mut String, each: &mut impl FnMut(&str)) {
    if !word.is_empty() {
        each(word);
        word.clear();
    }
}

/// An English plural made singular, and one spelling for the endings
/// `-y` and `-ie`: `movies` and `movie` give `movi`, `cities` and `city`
/// give `citi`, `files` gives `file`, `keys` gives `key`; the `-ss` and
/// `-us` of `class` and `status`, and `-es` after a vowel (`shoes`,
/// `trees`), are left alone, and nothing else changes (`running`,
/// `generated`). The plural rules are Harman's S-stemmer's, as Lucene's
/// `EnglishMinimalStemmer` has them, but for `-ies`, which it makes `-y`
/// (`movies` -> `movy`, never `movie`); the `-y`/`-ie` ending is written
/// `-i`, as Porter's stemmer writes it, so both spellings meet.
///
/// Why so little: a request says `movie` where the tool says `movies`,
/// and that is most of what stemming finds here. A full Porter2
/// (Snowball) stemmer, measured on the same requests, found the right
/// tool in the top five no more often (0.841 against 0.845), not enough to
/// take a dependency for; it also merges words a tool keeps apart
/// (`general`, `generate`).
pub(crate) fn stem(mut word: String) -> String {
    let bytes = word.as_bytes();
    let len = bytes.len();
    // Under three characters (not bytes: `ñs` is one letter and an `s`).
    if word.chars().nth(2).is_some() && bytes[len - 1] == b's' {
        match bytes[len - 2] {
            b'u' | b's' => {}
            b'e' => {
                let ies =
                    len > 3 && bytes[len - 3] == b'i' && !matches!(bytes[len - 4], b'a' | b'e');
                if ies || !matches!(bytes[len - 3], b'i' | b'a' | b'o' | b'e') {
                    word.truncate(len - 1);
                }
            }
            _ => word.truncate(len - 1),
        }
    }
    let characters = word.chars().count();
    let bytes = word.as_bytes();
    let len = bytes.len();
    if characters >= 5 && word.ends_with("ie") {
        word.truncate(len - 1);
    } else if characters >= 4
        && bytes[len - 1] == b'y'
        && bytes[len - 2].is_ascii_alphabetic()
        && !b"aeiou".contains(&bytes[len - 2])
    {
        word.truncate(len - 1);
        word.push('i');
    }
    word
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        words(text, |word| out.push(word));
        out
    }

    fn joined(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        joined_identifiers(text, |word| out.push(word));
        out
    }

    #[test]
    fn names_split_however_they_are_spelled() {
        assert_eq!(all("read_file"), ["read", "file"]);
        assert_eq!(all("readFile"), ["read", "file"]);
        assert_eq!(all("files.read-all"), ["file", "read", "all"]);
        assert_eq!(all("getHTTPStatus"), ["get", "http", "status"]);
        assert_eq!(all("v2Api"), ["v2", "api"]);
        assert_eq!(all("Écrire un Fichier"), ["écrire", "un", "fichier"]);
        assert!(all(" -- ").is_empty());
        assert_eq!(all("Read a file from the disk"), ["read", "file", "disk"]);
    }

    #[test]
    fn a_request_keeps_the_words_that_say_what_it_wants() {
        assert_eq!(
            all("Could you tell me what's the weather in Lyon? I'm going there."),
            ["tell", "weather", "lyon", "going"]
        );
        // The words that tell two tools apart stay.
        assert_eq!(all("turn_off"), ["turn", "off"]);
        assert_eq!(
            all("list all files before noon"),
            ["list", "all", "file", "before", "noon"]
        );
    }

    #[test]
    fn the_stop_words_are_sorted_for_the_binary_search() {
        assert!(STOP_WORDS.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn plurals_become_singular_and_nothing_else_changes() {
        let stemmed = |word: &str| stem(word.to_owned());
        for (one, many, stem) in [
            ("movie", "movies", "movi"),
            ("file", "files", "file"),
            ("battery", "batteries", "batteri"),
            ("event", "events", "event"),
            ("key", "keys", "key"),
            ("pie", "pies", "pie"),
        ] {
            assert_eq!(
                (stemmed(one), stemmed(many)),
                (stem.to_owned(), stem.to_owned())
            );
        }
        // Not plurals, or not made singular by dropping the `s`.
        for word in ["status", "class", "shoes", "trees", "is", "bus"] {
            assert_eq!(stemmed(word), word);
        }
        // Other endings are left alone: no Porter stemming.
        assert_eq!(stemmed("running"), "running");
        assert_eq!(stemmed("generated"), "generated");
        // Bytes past ASCII are never cut into.
        assert_eq!(stemmed("préférés"), "préféré");
        assert_eq!(stemmed("ñs"), "ñs");
    }

    #[test]
    fn identifiers_are_also_kept_whole() {
        assert_eq!(joined("get_current_weather"), ["getcurrentweather"]);
        assert_eq!(joined("getCurrentWeather"), ["getcurrentweather"]);
        assert_eq!(joined("weather.get-current"), ["weathergetcurrent"]);
        // One word alone is already a word; a run of two is one identifier.
        assert_eq!(joined("call read_file now"), ["readfile"]);
        assert!(joined("weather").is_empty());
    }
}
