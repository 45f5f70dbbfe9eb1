//! syn -> checked model: attribute parsing, error collection, doc comments,
//! and the checks across them.

pub(crate) mod arguments;
pub(crate) mod ast;
pub(crate) mod attr;
pub(crate) mod case;
mod check;
mod check_values;
pub(crate) mod ctxt;
pub(crate) mod doc;
pub(crate) mod pattern;
mod value_kind;
