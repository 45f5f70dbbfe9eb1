//! Literal values checked against the field's type and its other
//! attributes, where the derive can evaluate them: a `one_of` value, a
//! `default` or an `example` that parse would refuse, and bounds no value
//! of the type meets. Each would make the schema the model reads disagree
//! with parse: offer a value parse turns down, or (a default) hand the tool
//! a value the schema forbids.
//!
//! What the derive cannot evaluate (`default = expr`, a `format`) is
//! checked when the schema is built (`tool_core`'s `constraints::shown`).

use super::ast::Field;
use super::attr::{DefaultValue, Example, Literal, Number, OneOf, ValueAttrs, literal, ungroup};
use super::ctxt::Ctxt;
use super::value_kind::NumberKind;
use proc_macro2::TokenStream;
use regex::Regex;
use std::cell::OnceCell;
use std::cmp::Ordering;

pub(super) fn field(cx: &Ctxt, field: &Field) {
    if !field.is_named_in_json() {
        // A skipped or flattened field takes no constraint (`check.rs`).
        return;
    }
    let attrs = &field.attrs;
    let kind = NumberKind::of(field.ty);
    let own = Rules::new(&attrs.value, kind.as_ref());
    own.check_attributes(cx);
    if let Some((_, _, items)) = &attrs.items {
        Rules::new(items, NumberKind::of_items(field.ty).as_ref()).check_attributes(cx);
    }
    if let Some(DefaultValue::Expr(expr)) = &attrs.default
        && let Some(value) = literal(&ungroup(expr.clone()))
        // The literal's own type is rustc's to check (`300` for a `u8`).
        && let Some(reason) = own.refusal(&value, Check { one_of: true, kind: false })
    {
        cx.error_spanned_by(
            expr,
            format!(
                "`default = {}` is {reason}: a call that leaves the field out would get a value the schema forbids; change the default or the attribute",
                shown(&value)
            ),
        );
    }
    for (tokens, example) in &attrs.examples {
        if let Example::Literal(value) = example
            && let Some(reason) = own.refusal(
                value,
                Check {
                    one_of: true,
                    kind: true,
                },
            )
        {
            cx.error_spanned_by(
                tokens,
                format!(
                    "`example = {}` is {reason}: the schema would show the model an example parse refuses",
                    shown(value)
                ),
            );
        }
    }
}

/// One value's constraints, with the numbers its type admits when known.
struct Rules<'a> {
    value: &'a ValueAttrs,
    kind: Option<&'a NumberKind>,
    /// The compiled `pattern`, once a string needs it.
    pattern: OnceCell<Option<Regex>>,
}

/// What a literal is checked against besides the bounds, lengths and
/// pattern.
#[derive(Clone, Copy)]
struct Check {
    /// The `one_of` list (not when checking the list's own values).
    one_of: bool,
    /// The range of the field's number type (not for a `default`, whose
    /// type rustc checks: `300` for a `u8` is its error).
    kind: bool,
}

impl<'a> Rules<'a> {
    fn new(value: &'a ValueAttrs, kind: Option<&'a NumberKind>) -> Self {
        Rules {
            value,
            kind,
            pattern: OnceCell::new(),
        }
    }

    fn pattern(&self) -> Option<&Regex> {
        self.pattern
            .get_or_init(|| {
                let (_, source) = self.value.pattern.as_ref()?;
                crate::internals::pattern::compile(&source.value()).ok()
            })
            .as_ref()
    }

    /// The attributes against each other and against the type.
    fn check_attributes(&self, cx: &Ctxt) {
        self.bounds_in_type(cx);
        let Some((tokens, list)) = &self.value.one_of else {
            return;
        };
        let values: Vec<Literal> = match list {
            OneOf::Numbers(numbers) => numbers.iter().copied().map(Literal::Number).collect(),
            OneOf::Strings(strings) => strings.iter().cloned().map(Literal::Str).collect(),
        };
        for value in &values {
            if let Some(reason) = self.refusal(
                value,
                Check {
                    one_of: false,
                    kind: true,
                },
            ) {
                cx.error_spanned_by(
                    tokens,
                    format!(
                        "`one_of` lists {}, {reason}: the schema would offer the model a value parse refuses; remove it",
                        shown(value)
                    ),
                );
            }
        }
        if let OneOf::Numbers(numbers) = list {
            same_numbers(cx, tokens, numbers);
        }
    }

    /// `min`/`max` that no value of the field's number type meets.
    fn bounds_in_type(&self, cx: &Ctxt) {
        let (min, max) = (&self.value.min, &self.value.max);
        if let (Some((_, min)), Some((_, max))) = (min, max)
            && compare(*min, *max) == Some(Ordering::Greater)
        {
            // `max` below `min` is reported where the attributes are read.
            return;
        }
        let Some(kind) = self.kind else {
            return;
        };
        let (lowest, highest) = match kind {
            NumberKind::Integer { min, max, .. } => (Number::Int(*min), Number::Int(*max)),
            NumberKind::Float { limit, .. } => (Number::Float(-limit), Number::Float(*limit)),
        };
        let name = kind.name();
        if let Some((tokens, min)) = min
            && compare(*min, highest) == Some(Ordering::Greater)
        {
            cx.error_spanned_by(
                tokens,
                format!(
                    "`min = {}` is above the largest `{name}`, {}: no value could ever be given",
                    shown_number(*min),
                    shown_number(highest)
                ),
            );
        } else if let Some((tokens, max)) = max
            && compare(*max, lowest) == Some(Ordering::Less)
        {
            cx.error_spanned_by(
                tokens,
                format!(
                    "`max = {}` is below the smallest `{name}`, {}: no value could ever be given",
                    shown_number(*max),
                    shown_number(lowest)
                ),
            );
        } else if let (NumberKind::Integer { .. }, Some((_, min)), Some((tokens, max))) =
            (kind, min, max)
            && ceil(*min) > floor(*max)
        {
            cx.error_spanned_by(
                tokens,
                format!(
                    "no `{name}` lies between `min = {}` and `max = {}`: no value could ever be given",
                    shown_number(*min),
                    shown_number(*max)
                ),
            );
        }
    }

    /// Why parse would refuse `value`, a literal of the field; `None` if it
    /// would not, or if the derive cannot tell.
    fn refusal(&self, value: &Literal, check: Check) -> Option<String> {
        let attrs = self.value;
        match value {
            Literal::Number(number) => {
                if let Some(kind) = self.kind.filter(|_| check.kind)
                    && let Some(reason) = out_of_type(*number, kind)
                {
                    return Some(reason);
                }
                if check.one_of
                    && let Some((_, OneOf::Numbers(list))) = &attrs.one_of
                    && !list
                        .iter()
                        .any(|listed| compare(*listed, *number) == Some(Ordering::Equal))
                {
                    return Some(not_listed(list.iter().map(|n| shown_number(*n))));
                }
                if let Some((_, min)) = &attrs.min
                    && compare(*number, *min) == Some(Ordering::Less)
                {
                    return Some(format!("below `min = {}`", shown_number(*min)));
                }
                if let Some((_, max)) = &attrs.max
                    && compare(*number, *max) == Some(Ordering::Greater)
                {
                    return Some(format!("above `max = {}`", shown_number(*max)));
                }
                None
            }
            Literal::Str(text) => {
                if check.one_of
                    && let Some((_, OneOf::Strings(list))) = &attrs.one_of
                    && !list.contains(text)
                {
                    return Some(not_listed(list.iter().map(|s| format!("{s:?}"))));
                }
                // Characters, as parse counts them (and JSON Schema does).
                let length = text.chars().count();
                if let Some((_, min)) = &attrs.min_length
                    && length < *min
                {
                    return Some(format!(
                        "shorter than `min_length = {min}` ({})",
                        characters(length)
                    ));
                }
                if let Some((_, max)) = &attrs.max_length
                    && length > *max
                {
                    return Some(format!(
                        "longer than `max_length = {max}` ({})",
                        characters(length)
                    ));
                }
                if let (Some(regex), Some((_, source))) = (self.pattern(), &attrs.pattern)
                    && !regex.is_match(text)
                {
                    return Some(format!("not matched by `pattern = {:?}`", source.value()));
                }
                None
            }
            Literal::Bool(_) => None,
        }
    }
}

/// `1` and `1.0` in one list: one JSON number twice (the list's exact
/// repeats are reported where it is read).
fn same_numbers(cx: &Ctxt, tokens: &TokenStream, numbers: &[Number]) {
    for (index, number) in numbers.iter().enumerate() {
        if let Some(earlier) = numbers[..index].iter().find(|earlier| {
            *earlier != number && compare(**earlier, *number) == Some(Ordering::Equal)
        }) {
            cx.error_spanned_by(
                tokens,
                format!(
                    "`one_of` lists {} and {}, which are one JSON number: remove one",
                    shown_number(*earlier),
                    shown_number(*number)
                ),
            );
        }
    }
}

fn out_of_type(number: Number, kind: &NumberKind) -> Option<String> {
    let (low, high) = match kind {
        NumberKind::Integer { min, max, .. } => (Number::Int(*min), Number::Int(*max)),
        NumberKind::Float { limit, .. } => (Number::Float(-limit), Number::Float(*limit)),
    };
    let inside = compare(number, low) != Some(Ordering::Less)
        && compare(number, high) != Some(Ordering::Greater);
    (!inside).then(|| {
        format!(
            "out of range for `{}` ({} to {})",
            kind.name(),
            shown_number(low),
            shown_number(high)
        )
    })
}

fn not_listed(list: impl Iterator<Item = String>) -> String {
    format!(
        "not in `one_of = [{}]`",
        list.collect::<Vec<_>>().join(", ")
    )
}

/// A literal as written in an attribute.
fn shown(value: &Literal) -> String {
    match value {
        Literal::Number(number) => shown_number(*number),
        Literal::Str(text) => format!("{text:?}"),
        Literal::Bool(flag) => flag.to_string(),
    }
}

fn shown_number(number: Number) -> String {
    match number {
        Number::Int(int) => int.to_string(),
        // An `f32` (its largest, `3.4028235e38`) in its own shortest form.
        Number::Float(float) if f64::from(float as f32) == float => format!("{:?}", float as f32),
        // `{:?}` keeps the point of `1.0`.
        Number::Float(float) => format!("{float:?}"),
    }
}

fn characters(count: usize) -> String {
    match count {
        1 => "1 character".to_owned(),
        count => format!("{count} characters"),
    }
}

/// Orders two attribute numbers exactly, as `tool_core` orders a sent
/// number against a bound.
fn compare(a: Number, b: Number) -> Option<Ordering> {
    match (a, b) {
        (Number::Int(a), Number::Int(b)) => Some(a.cmp(&b)),
        (Number::Float(a), Number::Float(b)) => a.partial_cmp(&b),
        (Number::Int(a), Number::Float(b)) => compare_int_float(a, b),
        (Number::Float(a), Number::Int(b)) => compare_int_float(b, a).map(Ordering::reverse),
    }
}

fn compare_int_float(int: i128, float: f64) -> Option<Ordering> {
    if float.is_nan() {
        return None;
    }
    // Beyond i128 on either side (2^127 is exactly representable).
    if float >= 2f64.powi(127) {
        return Some(Ordering::Less);
    }
    if float < -(2f64.powi(127)) {
        return Some(Ordering::Greater);
    }
    let whole = float.trunc();
    Some(match int.cmp(&(whole as i128)) {
        Ordering::Equal if float > whole => Ordering::Less,
        Ordering::Equal if float < whole => Ordering::Greater,
        other => other,
    })
}

/// The least integer at or above `number` (saturating).
fn ceil(number: Number) -> i128 {
    match number {
        Number::Int(int) => int,
        Number::Float(float) => float.ceil() as i128,
    }
}

/// The greatest integer at or below `number` (saturating).
fn floor(number: Number) -> i128 {
    match number {
        Number::Int(int) => int,
        Number::Float(float) => float.floor() as i128,
    }
}

#[cfg(test)]
mod tests {
    use super::{Number, compare};
    use std::cmp::Ordering;

    #[test]
    fn compares_integers_and_floats_exactly() {
        assert_eq!(
            compare(Number::Int(1), Number::Float(1.0)),
            Some(Ordering::Equal)
        );
        assert_eq!(
            compare(Number::Int(2), Number::Float(1.5)),
            Some(Ordering::Greater)
        );
        assert_eq!(
            compare(Number::Float(-2.5), Number::Int(-2)),
            Some(Ordering::Less)
        );
        assert_eq!(
            compare(
                Number::Int(i128::from(u64::MAX)),
                Number::Float(1.8446744073709552e19)
            ),
            Some(Ordering::Less)
        );
    }
}
