//! What the model reads when repair changed the arguments and they still
//! do not parse.
//!
//! The strict parse's problems are about what the model sent, and stay the
//! answer; but a value repair could read (`"50"` read as `50`) may then
//! break a rule the strict parse never reached, since it stopped at the
//! type (`#[param(max = 20)]`). Told only `expected integer`, the model
//! sends `50` and learns of the bound one round trip later. So where the
//! repaired parse found problems at or inside a repaired value, they are
//! told too, each said of what the model sent where it is about the
//! repaired value itself: `limit: expected integer <= 20, got string "50"`.
//!
//! The call still fails (this only words its failure), and nothing is
//! recorded as repaired: the repairs were not used.

use super::Repair;
use crate::params::describe::{Excerpt, Received};
use crate::params::{MAX_PROBLEMS, ParamError, ParamProblem};
use serde_json::Value;

/// The problems to report when `repairs` made arguments whose parse still
/// failed with `repaired`; `sent` is the strict parse's error (the
/// arguments as the model sent them).
///
/// Each problem of `sent` is kept, in order, except at a path a repair
/// changed whose repaired value broke a rule: there the rule is told
/// instead, with the repaired value (as the rule's message quotes it at
/// its end: `got 50`, or a count, `got 3`) replaced by what was sent
/// (`got string "50"`). A rule's message that does not end so is told
/// after the kept problem, as it is (it is about the value read). The
/// repaired parse's problems inside such a value (a field of an object
/// sent as JSON text, the item of a value sent for a list, a required
/// field of empty arguments read as `{}`) follow, said of what was sent
/// where they are themselves at a repaired path. Every other problem of
/// the repaired parse is the strict parse's again, or about a value the
/// model did not send, and is left out. At most [`MAX_PROBLEMS`] are kept,
/// the others counted (with the repaired parse's own uncounted ones, when
/// any of its problems is told).
pub(crate) fn refusal(sent: &ParamError, repaired: &ParamError, repairs: &[Repair]) -> ParamError {
    let mut problems: Vec<ParamProblem> = Vec::new();
    let mut omitted = sent.omitted;
    // Whether a problem of the repaired parse is told: then those it
    // found past its cap are counted too.
    let mut told = false;
    // The paths already answered for: a second problem there is kept as it is.
    let mut answered: Vec<&str> = Vec::new();
    for problem in &sent.problems {
        let repair = repair_at(repairs, problem);
        let Some(repair) = repair.filter(|_| !answered.contains(&problem.path.as_str())) else {
            problems.push(problem.clone());
            continue;
        };
        answered.push(&problem.path);
        let mut rules = Vec::new();
        let mut plain = Vec::new();
        for found in repaired
            .problems
            .iter()
            .filter(|found| same_place(found, problem))
        {
            match said_of_sent(found, repair) {
                Some(rewritten) => rules.push(rewritten),
                None => plain.push(found.clone()),
            }
        }
        if rules.is_empty() {
            problems.push(problem.clone());
        }
        told |= !rules.is_empty() || !plain.is_empty();
        problems.extend(rules);
        problems.extend(plain);
        for inside in repaired
            .problems
            .iter()
            .filter(|found| inside(found, problem))
        {
            let rewritten =
                repair_at(repairs, inside).and_then(|repair| said_of_sent(inside, repair));
            problems.push(rewritten.unwrap_or_else(|| inside.clone()));
            told = true;
        }
    }
    if told {
        omitted += repaired.omitted;
    }
    if problems.len() > MAX_PROBLEMS {
        omitted += problems.len() - MAX_PROBLEMS;
        problems.truncate(MAX_PROBLEMS);
    }
    ParamError { problems, omitted }
}

/// The repair of the whole value at `problem`'s path, if one was made
/// (the root is `arguments` in a problem, the empty path in a repair).
fn repair_at<'r>(repairs: &'r [Repair], problem: &ParamProblem) -> Option<&'r Repair> {
    repairs.iter().find(|repair| {
        if problem.depth == 0 {
            repair.path.is_empty()
        } else {
            repair.path == problem.path
        }
    })
}

fn same_place(found: &ParamProblem, problem: &ParamProblem) -> bool {
    found.depth == problem.depth && found.path == problem.path
}

/// Whether `found` lies inside the value at `problem`'s path.
fn inside(found: &ParamProblem, problem: &ParamProblem) -> bool {
    if found.depth <= problem.depth {
        return false;
    }
    if problem.depth == 0 {
        return true;
    }
    found
        .path
        .strip_prefix(problem.path.as_str())
        .is_some_and(|rest| rest.starts_with(['.', '[']))
}

/// `found` (a problem of the repaired value `repair.used`) said of what
/// the model sent: its message's end, `, got <the repaired value>` (or
/// `, got <its count of items, characters or members>`), becomes
/// `, got <what was sent, after its JSON type>`. `None` when the message
/// does not end so, or when either value was kept only as an excerpt.
fn said_of_sent(found: &ParamProblem, repair: &Repair) -> Option<ParamProblem> {
    if repair.sent_bytes.is_some() || repair.used_bytes.is_some() {
        return None;
    }
    let count = match &repair.used {
        Value::Array(items) => Some(items.len()),
        Value::Object(members) => Some(members.len()),
        Value::String(text) => Some(text.chars().count()),
        _ => None,
    };
    let tails = std::iter::once(format!(", got {}", Excerpt(&repair.used)))
        .chain(count.map(|count| format!(", got {count}")));
    for tail in tails {
        if let Some(rule) = found.message.strip_suffix(tail.as_str()) {
            return Some(ParamProblem {
                message: format!("{rule}, got {}", Received(&repair.sent)),
                ..found.clone()
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::RepairRule;
    use crate::params::{ParamPath, ParseContext};
    use serde_json::json;

    /// An error with these problems, each `(path, message)`, paths given
    /// as segments (`["ids", "0"]` for `ids[0]`).
    fn error(problems: &[(&[&str], &str)]) -> ParamError {
        let mut cx = ParseContext::new();
        for (segments, message) in problems {
            push(&mut cx, &ParamPath::root(), segments, message);
        }
        cx.into_error()
    }

    fn push(cx: &mut ParseContext, path: &ParamPath<'_>, segments: &[&str], message: &str) {
        match segments.split_first() {
            None => cx.push(path, message),
            Some((segment, rest)) => match segment.parse::<usize>() {
                Ok(index) => push(cx, &path.index(index), rest, message),
                Err(_) => push(cx, &path.field(segment), rest, message),
            },
        }
    }

    fn scalar(path: &str, sent: Value, used: Value) -> Repair {
        Repair::new(path, &sent, &used, RepairRule::StringToScalar)
    }

    #[test]
    fn a_bound_the_repaired_value_breaks_is_said_of_what_was_sent() {
        let sent = error(&[
            (&["limit"], "expected integer, got string \"50\""),
            (&["name"], "expected string, got number 3"),
        ]);
        let repaired = error(&[
            (&["limit"], "expected integer <= 20, got 50"),
            (&["name"], "expected string, got number 3"),
        ]);
        let repairs = [scalar("limit", json!("50"), json!(50))];
        assert_eq!(
            refusal(&sent, &repaired, &repairs).to_string(),
            "limit: expected integer <= 20, got string \"50\"\n\
             name: expected string, got number 3"
        );
    }

    #[test]
    fn a_repaired_value_that_breaks_nothing_keeps_the_strict_problem() {
        let sent = error(&[
            (&["n"], "expected integer, got string \"2\""),
            (&["tags"], "expected array of at most 2 items, got 3"),
        ]);
        let repaired = error(&[(&["tags"], "expected array of at most 2 items, got 3")]);
        let repairs = [scalar("n", json!("2"), json!(2))];
        assert_eq!(
            refusal(&sent, &repaired, &repairs),
            sent,
            "the same as without repair"
        );
    }

    #[test]
    fn problems_inside_a_repaired_value_follow_its_own() {
        // `{"ids": "50"}` for a list of integers at most 20: wrapped, and
        // the item read as a number.
        let sent = error(&[(&["ids"], "expected array, got string \"50\"")]);
        let repaired = error(&[(&["ids", "0"], "expected integer <= 20, got 50")]);
        let repairs = [
            Repair::new("ids", &json!("50"), &json!([50]), RepairRule::WrapInArray),
            scalar("ids[0]", json!("50"), json!(50)),
        ];
        assert_eq!(
            refusal(&sent, &repaired, &repairs).to_string(),
            "ids: expected array, got string \"50\"\n\
             ids[0]: expected integer <= 20, got string \"50\""
        );

        // Empty arguments read as `{}`: the fields they lack.
        let sent = error(&[(&[], "expected object, got null")]);
        let repaired = error(&[(&["query"], "missing required field")]);
        let repairs = [Repair::new(
            "",
            &json!(null),
            &json!({}),
            RepairRule::EmptyArguments,
        )];
        assert_eq!(
            refusal(&sent, &repaired, &repairs).to_string(),
            "arguments: expected object, got null\nquery: missing required field"
        );
    }

    #[test]
    fn a_count_at_the_end_is_a_count_of_the_repaired_value() {
        let text = "[\"a\",\"b\",\"c\"]";
        let sent = error(&[(&["tags"], &format!("expected array, got string {text:?}"))]);
        let repaired = error(&[
            (&["tags"], "expected array of at most 2 items, got 3"),
            (&["tags"], "expected items that all differ"),
        ]);
        let repairs = [Repair::new(
            "tags",
            &json!(text),
            &json!(["a", "b", "c"]),
            RepairRule::JsonText,
        )];
        assert_eq!(
            refusal(&sent, &repaired, &repairs).to_string(),
            format!(
                "tags: expected array of at most 2 items, got string {text:?}\n\
                 tags: expected items that all differ"
            )
        );
    }

    #[test]
    fn other_problems_of_the_repaired_parse_are_left_out_and_the_cap_holds() {
        // A problem the strict parse did not have, at a path no repair
        // touched: not about what was sent.
        let sent = error(&[(&["a"], "expected integer, got string \"1\"")]);
        let repaired = error(&[(&["b"], "missing required field")]);
        let repairs = [scalar("a", json!("1"), json!(1))];
        assert_eq!(refusal(&sent, &repaired, &repairs), sent);

        // Many problems inside one repaired value: capped and counted.
        let sent = error(&[(&[], "expected object, got null")]);
        let mut cx = ParseContext::new();
        for i in 0..50 {
            cx.push_missing(
                &ParamPath::root().field(&format!("f{i}")),
                "missing required field",
            );
        }
        let repaired = cx.into_error();
        assert_eq!(repaired.count(), 50);
        let repairs = [Repair::new(
            "",
            &json!(null),
            &json!({}),
            RepairRule::EmptyArguments,
        )];
        let told = refusal(&sent, &repaired, &repairs);
        assert_eq!(told.problems().len(), MAX_PROBLEMS);
        assert_eq!(told.count(), 1 + 50, "every one is counted");
        assert!(
            told.to_string().ends_with("\n... and 31 more problems"),
            "{told}"
        );
    }

    #[test]
    fn an_excerpt_of_a_huge_value_is_never_quoted_as_what_was_sent() {
        let text = format!("[{}1]", "1,".repeat(1 << 20));
        let sent = error(&[(&["ids"], "expected array, got string \"[1,1,…\"")]);
        let repaired = error(&[(&["ids"], "expected array of at most 2 items, got 1048577")]);
        let used: Value = serde_json::from_str(&text).unwrap();
        let repairs = [Repair::new(
            "ids",
            &json!(text),
            &used,
            RepairRule::JsonText,
        )];
        assert_eq!(
            refusal(&sent, &repaired, &repairs).to_string(),
            "ids: expected array, got string \"[1,1,…\"\n\
             ids: expected array of at most 2 items, got 1048577"
        );
    }
}
