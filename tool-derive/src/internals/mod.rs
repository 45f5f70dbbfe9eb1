//! syn -> checked model: attribute parsing, error collection, doc comments.

pub mod ast;
pub mod attr;
pub mod case;
pub mod ctxt;
pub mod doc;
