//! Which field types take which attribute. The derive names these traits at
//! the attribute's span, so a misuse (`min` on a `String`) is a compile
//! error there that says why; the traits' constants tell the checks what
//! they are looking at.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashSet};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

/// A field type `min`/`max` and an integer `one_of` apply to: numbers, and
/// options of numbers.
#[diagnostic::on_unimplemented(
    message = "a number attribute (`min`, `max`, numbers in `one_of` or `example`) applies only to numbers, not to `{Self}`",
    label = "not a number",
    note = "use `min_length`/`max_length` to bound strings and arrays"
)]
pub trait Numeric {
    /// Whether the number is an integer, which error messages say.
    const INTEGER: bool;
}

/// A field type a `one_of` list of floats applies to: `f32`, `f64`, and
/// options of them. (A float in the list of an integer field could never
/// be sent.)
#[diagnostic::on_unimplemented(
    message = "a number with a fraction (in `one_of` or `example`) applies only to floats, not to `{Self}`",
    label = "not an `f32` or `f64`",
    note = "an integer field can only be given whole numbers"
)]
pub trait FloatLike {
    /// Named by generated code at an attribute, so that a field type
    /// without this trait is an error there.
    #[doc(hidden)]
    const FLOAT_LIKE: () = ();
}

/// What a length counts: characters of a string or items of an array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LengthOf {
    /// Unicode scalar values, as JSON Schema's `minLength` counts them.
    Characters,
    /// Array items.
    Items,
}

/// A field type `min_length`/`max_length` apply to: strings, arrays, sets,
/// and options of them.
#[diagnostic::on_unimplemented(
    message = "`min_length`/`max_length` apply only to strings and arrays, not to `{Self}`",
    label = "not a string or an array",
    note = "use `min`/`max` to bound numbers"
)]
pub trait HasLength {
    /// What the length counts.
    const LENGTH_OF: LengthOf;
}

/// A field type `pattern`, `format` and a string `one_of` apply to: strings,
/// paths, and options of them.
#[diagnostic::on_unimplemented(
    message = "a string attribute (`pattern`, `format`, strings in `one_of` or `example`) applies only to strings, not to `{Self}`",
    label = "not a string",
    note = "to constrain the items of a list, write `#[param(items(...))]`"
)]
pub trait StringLike {
    /// Named by generated code at an attribute, so that a field type
    /// without this trait is an error there.
    #[doc(hidden)]
    const STRING_LIKE: () = ();
}

/// A field type `items(...)` applies to: lists, sets, arrays, and options of
/// them. `Item` is the type each item's attributes are checked against.
#[diagnostic::on_unimplemented(
    message = "`items(...)` applies only to lists, sets and arrays, not to `{Self}`",
    label = "not a list",
    note = "write the attribute without `items(...)` to constrain the value itself"
)]
pub trait HasItems {
    /// The type of one item.
    type Item;
    /// Named by generated code at `items`, so that a field type that is no
    /// list is an error there.
    #[doc(hidden)]
    const HAS_ITEMS: () = ();
}

macro_rules! numeric {
    ($integer:expr => $($number:ty),*) => {$(
        impl Numeric for $number {
            const INTEGER: bool = $integer;
        }
    )*};
}
numeric!(true => i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);
numeric!(true =>
    std::num::NonZeroU8,
    std::num::NonZeroU16,
    std::num::NonZeroU32,
    std::num::NonZeroU64,
    std::num::NonZeroUsize,
    std::num::NonZeroI8,
    std::num::NonZeroI16,
    std::num::NonZeroI32,
    std::num::NonZeroI64,
    std::num::NonZeroIsize
);
numeric!(false => f32, f64);

impl FloatLike for f32 {}
impl FloatLike for f64 {}

impl HasLength for String {
    const LENGTH_OF: LengthOf = LengthOf::Characters;
}
impl HasLength for PathBuf {
    const LENGTH_OF: LengthOf = LengthOf::Characters;
}
impl<T> HasLength for Vec<T> {
    const LENGTH_OF: LengthOf = LengthOf::Items;
}
impl<T, S> HasLength for HashSet<T, S> {
    const LENGTH_OF: LengthOf = LengthOf::Items;
}
impl<T> HasLength for BTreeSet<T> {
    const LENGTH_OF: LengthOf = LengthOf::Items;
}

impl<T> HasLength for Cow<'static, [T]>
where
    [T]: ToOwned,
{
    const LENGTH_OF: LengthOf = LengthOf::Items;
}

impl StringLike for String {}
impl StringLike for PathBuf {}

/// The other owners of a string are strings to every string attribute.
macro_rules! string_like {
    ($($string:ty),*) => {$(
        impl HasLength for $string {
            const LENGTH_OF: LengthOf = LengthOf::Characters;
        }
        impl StringLike for $string {}
    )*};
}
string_like!(Box<str>, Rc<str>, Arc<str>, Cow<'static, str>);

impl<T> HasItems for Vec<T> {
    type Item = T;
}
impl<T, S> HasItems for HashSet<T, S> {
    type Item = T;
}
impl<T> HasItems for BTreeSet<T> {
    type Item = T;
}
impl<T, const N: usize> HasItems for [T; N] {
    type Item = T;
}
impl<T> HasItems for Cow<'static, [T]>
where
    [T]: ToOwned,
{
    type Item = T;
}

/// `Option`, `Box`, `Rc` and `Arc` are what they wrap, for every attribute.
macro_rules! through_wrappers {
    ($($wrapper:ident),*) => {$(
        impl<T: Numeric> Numeric for $wrapper<T> {
            const INTEGER: bool = T::INTEGER;
        }
        impl<T: FloatLike> FloatLike for $wrapper<T> {}
        impl<T: HasLength> HasLength for $wrapper<T> {
            const LENGTH_OF: LengthOf = T::LENGTH_OF;
        }
        impl<T: StringLike> StringLike for $wrapper<T> {}
        impl<T: HasItems> HasItems for $wrapper<T> {
            type Item = T::Item;
        }
    )*};
}
through_wrappers!(Option, Box, Rc, Arc);
