//! Near-miss spelling: when a required field is missing and the model sent a
//! key that is almost its name (`valeu`, `Value`, `max_results` for
//! `maxResults`), the error says which key it probably meant.

/// The undeclared key of `keys` that is most likely a misspelling of `wanted`,
/// if any is close enough. `declared` are the names the object expects; a key
/// among them is never a misspelling of another.
pub(crate) fn near_miss<'k>(
    wanted: &str,
    keys: impl Iterator<Item = &'k str>,
    declared: &[&str],
) -> Option<&'k str> {
    near_miss_where(wanted, keys, |key| declared.contains(&key))
}

/// The name of `names` that `sent` most likely misspells: the hint after
/// an unknown key or an unknown enum value.
pub(crate) fn near_miss_of_any<'d>(sent: &str, names: &[&'d str]) -> Option<&'d str> {
    names
        .iter()
        .copied()
        .find(|name| near_miss(name, std::iter::once(sent), &[]).is_some())
}

/// `: did you mean "name"?` after a sent value that misspells one of
/// `names`; empty when none is close.
pub(crate) fn did_you_mean(sent: &str, names: &[&str]) -> String {
    near_miss_of_any(sent, names)
        .map(|meant| format!(": did you mean \"{meant}\"?"))
        .unwrap_or_default()
}

/// [`near_miss`], with the declared names given as a test.
pub(crate) fn near_miss_where<'k>(
    wanted: &str,
    keys: impl Iterator<Item = &'k str>,
    is_declared: impl Fn(&str) -> bool,
) -> Option<&'k str> {
    let wanted_folded = fold(wanted);
    let mut best: Option<(usize, &'k str)> = None;
    for key in keys {
        // A key far longer than any field name is no misspelling of one, and
        // folding it would copy it.
        if key.len() > 4 * wanted.len() + 8 || is_declared(key) {
            continue;
        }
        let distance = if fold(key) == wanted_folded {
            0
        } else {
            edit_distance(key, wanted)
        };
        if distance <= allowed_distance(wanted) && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, key));
        }
    }
    best.map(|(_, key)| key)
}

/// Case and separators do not count: `max_results`, `maxResults` and
/// `MAX-RESULTS` are the same name.
fn fold(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Short names tolerate one edit, longer ones two.
fn allowed_distance(wanted: &str) -> usize {
    match wanted.chars().count() {
        0..=2 => 0,
        3..=5 => 1,
        _ => 2,
    }
}

/// Optimal string alignment distance: insertions, deletions, substitutions
/// and transpositions of adjacent characters each cost one.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Keys longer than any plausible field name are not near misses, and are
    // not worth a quadratic comparison.
    if a.len().abs_diff(b.len()) > 2 || a.len() > 64 {
        return usize::MAX;
    }
    let width = b.len() + 1;
    let mut rows = vec![0usize; (a.len() + 1) * width];
    let at = |i: usize, j: usize| i * width + j;
    for i in 0..=a.len() {
        rows[at(i, 0)] = i;
    }
    for j in 0..=b.len() {
        rows[at(0, j)] = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[at(i - 1, j)] + 1)
                .min(rows[at(i, j - 1)] + 1)
                .min(rows[at(i - 1, j - 1)] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[at(i - 2, j - 2)] + 1);
            }
            rows[at(i, j)] = best;
        }
    }
    rows[at(a.len(), b.len())]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_transpositions_case_and_separator_changes() {
        let declared = ["value", "label"];
        assert_eq!(
            near_miss("value", ["valeu"].into_iter(), &declared),
            Some("valeu")
        );
        assert_eq!(
            near_miss("value", ["Value"].into_iter(), &declared),
            Some("Value")
        );
        assert_eq!(
            near_miss("maxResults", ["max_results"].into_iter(), &[]),
            Some("max_results")
        );
        assert_eq!(
            near_miss("query", ["qurey", "quer"].into_iter(), &[]),
            Some("qurey")
        );
    }

    #[test]
    fn ignores_declared_and_distant_keys() {
        assert_eq!(
            near_miss("value", ["label"].into_iter(), &["value", "label"]),
            None
        );
        assert_eq!(near_miss("value", ["other"].into_iter(), &[]), None);
        assert_eq!(near_miss("id", ["ix"].into_iter(), &[]), None);
        let huge = "v".repeat(10_000);
        assert_eq!(near_miss("value", [huge.as_str()].into_iter(), &[]), None);
    }

    #[test]
    fn distance_counts_single_edits() {
        assert_eq!(edit_distance("value", "value"), 0);
        assert_eq!(edit_distance("valeu", "value"), 1);
        assert_eq!(edit_distance("vale", "value"), 1);
        assert_eq!(edit_distance("valuex", "value"), 1);
        assert_eq!(edit_distance("vxlue", "value"), 1);
        assert_eq!(edit_distance("abc", "xyz"), 3);
    }
}
