//! syn -> checked model: attribute parsing, error collection, doc comments,
//! and the checks across them.

pub mod arguments;
pub mod ast;
pub mod attr;
pub mod case;
mod check;
pub mod ctxt;
pub mod doc;
