//! Collects every error found in one macro input, so a user sees them all in
//! one build instead of fixing them one compile at a time.

use quote::ToTokens;
use std::cell::RefCell;
use std::fmt::Display;

pub(crate) struct Ctxt {
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    pub(crate) fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    /// An error pointing at `tokens`.
    pub(crate) fn error_spanned_by<T: ToTokens>(&self, tokens: T, message: impl Display) {
        self.syn_error(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    pub(crate) fn syn_error(&self, error: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("Ctxt used after check")
            .push(error);
    }

    /// All errors so far, combined into one that reports each at its span.
    pub(crate) fn check(self) -> syn::Result<()> {
        let errors = self.errors.borrow_mut().take().expect("Ctxt checked twice");
        let mut errors = errors.into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for error in errors {
            combined.combine(error);
        }
        Err(combined)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        // An unchecked context would drop errors silently.
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("Ctxt dropped without check()");
        }
    }
}
