//! The trailing text item that tells the model what was repaired, bounded
//! whatever the number of repairs or the size of what they changed.

use super::Repair;
use crate::params::describe::Excerpt;
use serde_json::Value;

/// The note is at most this many characters: the repairs that fit are
/// listed, in order, and the rest counted (`; and 1995 more repairs`).
pub const MAX_NOTE_CHARS: usize = 500;

const HEAD: &str = "[Arguments repaired: ";
const TAIL: &str = ". Next time, send them as the schema says.]";
/// A path longer than this is cut in the note (ending `…`).
const MAX_PATH_CHARS: usize = 60;
/// A value longer than this is cut in the note (ending `…`).
const MAX_VALUE_CHARS: usize = 40;

/// The trailing text item telling the model what was changed, so it can
/// send them as the schema says next time:
/// `[Arguments repaired: limit: "2" read as 2 (a number or boolean written as a string).]`
///
/// At most [`MAX_NOTE_CHARS`] characters: each repair is listed with its
/// path and values cut short, as many as fit, and the others counted;
/// consecutive repairs by one rule share its explanation.
///
/// ```
/// use serde_json::json;
/// use tool_core::repair::{MAX_NOTE_CHARS, Repair, RepairRule, repair_note};
///
/// let one = Repair::new("limit", &json!("2"), &json!(2), RepairRule::StringToScalar);
/// assert_eq!(
///     repair_note(&[one]),
///     "[Arguments repaired: limit: \"2\" read as 2 (a number or boolean written as a string). \
///      Next time, send them as the schema says.]"
/// );
///
/// let many: Vec<Repair> = (0..2000)
///     .map(|i| Repair::new(format!("ids[{i}]"), &json!(i.to_string()), &json!(i), RepairRule::StringToScalar))
///     .collect();
/// let note = repair_note(&many);
/// assert!(note.chars().count() <= MAX_NOTE_CHARS);
/// assert!(note.starts_with(
///     "[Arguments repaired: ids[0]: \"0\" read as 0, ids[1]: \"1\" read as 1, ids[2]: "
/// ));
/// assert!(note.contains(" (a number or boolean written as a string); and 1985 more repairs."), "{note}");
/// ```
pub fn repair_note(repairs: &[Repair]) -> String {
    let mut note = String::from(HEAD);
    // Characters taken so far, counting the tail and the open group's
    // explanation still to come.
    let mut taken = HEAD.chars().count() + TAIL.chars().count();
    // The explanation of the group of repairs by one rule being listed:
    // consecutive repairs by the same rule share it.
    let mut open: Option<String> = None;
    let mut listed = 0;
    for (index, repair) in repairs.iter().enumerate() {
        let change = change(repair);
        let explanation = format!(" ({})", repair.rule.explanation());
        let joins = open.as_deref() == Some(explanation.as_str());
        let needed = if joins {
            2 + change.chars().count()
        } else if index == 0 {
            change.chars().count() + explanation.chars().count()
        } else {
            2 + change.chars().count() + explanation.chars().count()
        };
        let after = repairs.len() - index - 1;
        let more = if after == 0 {
            0
        } else {
            more(after).chars().count()
        };
        // The first change always fits (its path and values are capped).
        if index > 0 && taken + needed + more > MAX_NOTE_CHARS {
            break;
        }
        if joins {
            note.push_str(", ");
        } else {
            if let Some(closed) = open.take() {
                note.push_str(&closed);
                note.push_str("; ");
            }
            open = Some(explanation);
        }
        note.push_str(&change);
        taken += needed;
        listed += 1;
    }
    if let Some(closed) = open {
        note.push_str(&closed);
    }
    if listed < repairs.len() {
        note.push_str(&more(repairs.len() - listed));
    }
    note.push_str(TAIL);
    note
}

/// `; and 1995 more repairs` (or `repair`).
fn more(count: usize) -> String {
    let noun = if count == 1 { "repair" } else { "repairs" };
    format!("; and {count} more {noun}")
}

/// `limit: "2" read as 2`.
fn change(repair: &Repair) -> String {
    let place = if repair.path.is_empty() {
        "the arguments".to_owned()
    } else {
        capped(&repair.path, MAX_PATH_CHARS)
    };
    let sent = shown(&repair.sent, repair.sent_bytes);
    let used = shown(&repair.used, repair.used_bytes);
    format!("{place}: {sent} read as {used}")
}

/// A repair's value as JSON text; an excerpt (`bytes` is its full size) is
/// that text's head already.
fn shown(value: &Value, bytes: Option<u64>) -> String {
    let text = match (bytes, value) {
        (Some(_), Value::String(head)) => return format!("{}…", capped_head(head)),
        _ => Excerpt(value).to_string(),
    };
    capped(&text, MAX_VALUE_CHARS)
}

fn capped_head(head: &str) -> &str {
    match head.char_indices().nth(MAX_VALUE_CHARS) {
        Some((cut, _)) => &head[..cut],
        None => head,
    }
}

/// `text` cut after `max` characters, with `…`.
fn capped(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::RepairRule;
    use serde_json::json;

    #[test]
    fn the_worst_entries_still_fit_and_the_rest_are_counted() {
        let long = "é".repeat(10_000);
        let worst = Repair::new(
            format!("{long}[0]"),
            &json!(long.clone()),
            &json!([long.clone()]),
            RepairRule::BeforeHook,
        );
        for count in [1, 2, 3, 4, 1_000_000] {
            let note = repair_note(&vec![worst.clone(); count]);
            assert!(note.chars().count() <= MAX_NOTE_CHARS, "{count}: {note}");
            assert!(note.starts_with(HEAD) && note.ends_with(TAIL), "{note}");
            // Two of these fit; the rest are counted.
            let listed = note.matches(" read as ").count();
            assert_eq!(listed, count.min(2), "{note}");
            if count > 2 {
                assert!(note.contains(&more(count - 2)), "{note}");
            }
        }
        let one = repair_note(&[worst]);
        assert!(
            one.contains("(arguments replaced by the caller's before hook)"),
            "{one}"
        );
        assert!(!one.contains("more repair"), "{one}");
    }

    #[test]
    fn excerpts_show_the_head_of_their_text() {
        let text = "{\"rows\":[".to_owned() + &"1,".repeat(1_000) + "1]}";
        let used: Value = serde_json::from_str(&text).unwrap();
        let repair = Repair::new("data", &json!(text), &used, RepairRule::JsonText);
        assert_eq!(repair.used_bytes, Some(text.len() as u64));
        let note = repair_note(&[repair]);
        assert!(
            note.starts_with("[Arguments repaired: data: \"{\\\"rows\\\":[1,1,"),
            "{note}"
        );
        assert!(note.contains(",… read as {\"rows\":[1,1,"), "{note}");
        assert!(note.chars().count() < 250, "{note}");
    }

    #[test]
    fn one_left_over_is_one_more_repair() {
        let path = "p".repeat(MAX_PATH_CHARS);
        let value = json!("v".repeat(MAX_VALUE_CHARS));
        let repair = Repair::new(
            path,
            &value,
            &json!([value.clone()]),
            RepairRule::WrapInArray,
        );
        let all: Vec<Repair> = vec![repair; 4];
        let note = repair_note(&all);
        assert!(note.chars().count() <= MAX_NOTE_CHARS);
        let listed = note.matches(" read as ").count();
        assert!((1..4).contains(&listed), "{note}");
        assert!(
            note.contains(&format!("; and {} more repair", 4 - listed)),
            "{note}"
        );
    }

    #[test]
    fn consecutive_repairs_by_one_rule_share_its_explanation() {
        let scalar =
            |path: &str| Repair::new(path, &json!("1"), &json!(1), RepairRule::StringToScalar);
        let wrap = Repair::new("tags", &json!("x"), &json!(["x"]), RepairRule::WrapInArray);
        assert_eq!(
            repair_note(&[scalar("a"), scalar("b"), wrap, scalar("c")]),
            "[Arguments repaired: a: \"1\" read as 1, b: \"1\" read as 1 \
             (a number or boolean written as a string); tags: \"x\" read as [\"x\"] \
             (one value where a list is wanted); c: \"1\" read as 1 \
             (a number or boolean written as a string). Next time, send them as the schema says.]"
        );
    }
}
