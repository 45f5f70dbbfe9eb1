//! The numbers a field's type admits, as far as the derive can tell from
//! the type's tokens: the primitive integers, `NonZero*` and the floats,
//! known by the last segment of their path, through `Option`, `Box` and
//! `Arc` (which are what they wrap), and for `items(...)` the items of a
//! `Vec`, a set or an array. Any other type (an alias, your own) is left to
//! its traits: the checks that need a range skip it.

use quote::ToTokens;
use syn::{GenericArgument, PathArguments, Type};

/// The numbers a type admits.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum NumberKind {
    /// An integer type: `min..=max`.
    Integer { name: String, min: i128, max: i128 },
    /// A float type: `-limit..=limit`.
    Float { name: String, limit: f64 },
}

impl NumberKind {
    /// The kind of a field's own value.
    pub(crate) fn of(ty: &Type) -> Option<NumberKind> {
        let ty = unwrapped(ty);
        let name = ty.to_token_stream().to_string().replace(' ', "");
        let (last, argument) = last_segment(ty)?;
        let integer = |(min, max)| NumberKind::Integer {
            name: name.clone(),
            min,
            max,
        };
        match (last.as_str(), argument) {
            (primitive, None) => {
                if let Some(range) = integer_range(primitive) {
                    return Some(integer(range));
                }
                if let Some(range) = primitive
                    .strip_prefix("NonZero")
                    .map(str::to_lowercase)
                    .and_then(|unsigned| integer_range(&unsigned))
                    .filter(|(min, _)| *min == 0)
                {
                    return Some(integer((1, range.1)));
                }
                let limit = match primitive {
                    "f32" => f64::from(f32::MAX),
                    "f64" => f64::MAX,
                    _ => return None,
                };
                Some(NumberKind::Float { name, limit })
            }
            // `NonZero<u8>`, which `NonZeroU8` names.
            ("NonZero", Some(inner)) => {
                let (inner, None) = last_segment(inner)? else {
                    return None;
                };
                integer_range(&inner)
                    .filter(|(min, _)| *min == 0)
                    .map(|(_, max)| integer((1, max)))
            }
            _ => None,
        }
    }

    /// The kind of each item of a list field (`items(...)`).
    pub(crate) fn of_items(ty: &Type) -> Option<NumberKind> {
        match unwrapped(ty) {
            Type::Array(array) => NumberKind::of(&array.elem),
            list => match last_segment(list)? {
                (name, Some(item)) if matches!(name.as_str(), "Vec" | "HashSet" | "BTreeSet") => {
                    NumberKind::of(item)
                }
                _ => None,
            },
        }
    }

    pub(crate) fn name(&self) -> &str {
        match self {
            NumberKind::Integer { name, .. } | NumberKind::Float { name, .. } => name,
        }
    }
}

/// The range of a primitive integer type. `usize` and `isize` are taken
/// as 64 bits wide: a narrower target refuses more at run time, never less.
fn integer_range(name: &str) -> Option<(i128, i128)> {
    Some(match name {
        "i8" => (i8::MIN.into(), i8::MAX.into()),
        "i16" => (i16::MIN.into(), i16::MAX.into()),
        "i32" => (i32::MIN.into(), i32::MAX.into()),
        "i64" | "isize" => (i64::MIN.into(), i64::MAX.into()),
        "u8" => (0, u8::MAX.into()),
        "u16" => (0, u16::MAX.into()),
        "u32" => (0, u32::MAX.into()),
        "u64" | "usize" => (0, u64::MAX.into()),
        _ => return None,
    })
}

/// `ty` without the wrappers that are what they wrap.
fn unwrapped(ty: &Type) -> &Type {
    match ty {
        Type::Group(group) => unwrapped(&group.elem),
        Type::Paren(paren) => unwrapped(&paren.elem),
        _ => match last_segment(ty) {
            Some((name, Some(inner))) if matches!(name.as_str(), "Option" | "Box" | "Arc") => {
                unwrapped(inner)
            }
            _ => ty,
        },
    }
}

/// The last segment's name of a path type, and its first type argument.
fn last_segment(ty: &Type) -> Option<(String, Option<&Type>)> {
    let Type::Path(path) = ty else {
        return None;
    };
    if path.qself.is_some() {
        return None;
    }
    let segment = path.path.segments.last()?;
    let argument = match &segment.arguments {
        PathArguments::AngleBracketed(arguments) => {
            arguments.args.iter().find_map(|argument| match argument {
                GenericArgument::Type(ty) => Some(ty),
                _ => None,
            })
        }
        _ => None,
    };
    Some((segment.ident.to_string(), argument))
}

#[cfg(test)]
mod tests {
    use super::NumberKind;
    use syn::parse_quote;

    fn integer(name: &str, min: i128, max: i128) -> Option<NumberKind> {
        Some(NumberKind::Integer {
            name: name.to_owned(),
            min,
            max,
        })
    }

    #[test]
    fn knows_integers_and_floats_through_wrappers() {
        assert_eq!(NumberKind::of(&parse_quote!(u8)), integer("u8", 0, 255));
        assert_eq!(
            NumberKind::of(&parse_quote!(Option<Box<i16>>)),
            integer("i16", -32768, 32767)
        );
        assert_eq!(
            NumberKind::of(&parse_quote!(std::num::NonZeroU8)),
            integer("std::num::NonZeroU8", 1, 255)
        );
        assert_eq!(
            NumberKind::of(&parse_quote!(NonZero<u16>)),
            integer("NonZero<u16>", 1, 65535)
        );
        assert_eq!(
            NumberKind::of(&parse_quote!(f32)),
            Some(NumberKind::Float {
                name: "f32".to_owned(),
                limit: f64::from(f32::MAX)
            })
        );
        assert_eq!(NumberKind::of(&parse_quote!(NonZeroI8)), None);
        assert_eq!(NumberKind::of(&parse_quote!(String)), None);
        assert_eq!(NumberKind::of(&parse_quote!(Meters)), None);
    }

    #[test]
    fn knows_the_items_of_lists_sets_and_arrays() {
        assert_eq!(
            NumberKind::of_items(&parse_quote!(Vec<u8>)),
            integer("u8", 0, 255)
        );
        assert_eq!(
            NumberKind::of_items(&parse_quote!(Option<BTreeSet<Option<u8>>>)),
            integer("u8", 0, 255)
        );
        assert_eq!(
            NumberKind::of_items(&parse_quote!([i8; 3])),
            integer("i8", -128, 127)
        );
        assert_eq!(NumberKind::of_items(&parse_quote!(u8)), None);
    }
}
