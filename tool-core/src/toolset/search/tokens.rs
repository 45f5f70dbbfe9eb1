//! Words of a tool's text, as the search compares them: `readFile`,
//! `read_file` and `read-file` all give `read` and `file`, so a query
//! finds a tool however its author spelled the name. English words too
//! common to tell tools apart ("a", "the", "for") are left out: in a
//! description they match almost every tool.

/// Left out of both tools and queries.
const STOP_WORDS: [&str; 20] = [
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "is", "it", "of", "on",
    "or", "the", "this", "to", "with",
];

/// The lowercase words of `text`: runs of letters and digits, split again
/// where a lowercase letter or a digit meets an uppercase one (`getHTTPStatus`
/// gives `get`, `http`, `status`).
pub(crate) fn words(text: &str, mut each: impl FnMut(String)) {
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

fn flush(word: &mut String, each: &mut impl FnMut(String)) {
    if word.is_empty() {
        return;
    }
    if STOP_WORDS.contains(&word.as_str()) {
        word.clear();
    } else {
        each(std::mem::take(word));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        words(text, |word| out.push(word));
        out
    }

    #[test]
    fn names_split_however_they_are_spelled() {
        assert_eq!(all("read_file"), ["read", "file"]);
        assert_eq!(all("readFile"), ["read", "file"]);
        assert_eq!(all("files.read-all"), ["files", "read", "all"]);
        assert_eq!(all("getHTTPStatus"), ["get", "http", "status"]);
        assert_eq!(all("v2Api"), ["v2", "api"]);
        assert_eq!(all("Écrire un Fichier"), ["écrire", "un", "fichier"]);
        assert!(all(" -- ").is_empty());
        assert_eq!(all("Read a file from the disk"), ["read", "file", "disk"]);
    }
}
