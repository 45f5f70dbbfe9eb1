//! The `tracing` the executor and approvals speak through: the facade
//! itself with the feature `tracing` (the default), and without it
//! stand-ins that compile to nothing, so a build that wants no `tracing`
//! in its tree (the derive-and-runtime configuration) writes no events
//! and opens no spans, at no cost.

#[cfg(feature = "tracing")]
pub(crate) use tracing::{Instrument, Span, debug, error, field, info, info_span, warn};

#[cfg(not(feature = "tracing"))]
pub(crate) use stand_ins::*;

#[cfg(not(feature = "tracing"))]
mod stand_ins {
    /// An event that is not written: its arguments are not evaluated.
    macro_rules! no_event {
        ($($anything:tt)*) => {
            ()
        };
    }

    /// A span that is not opened.
    macro_rules! no_span {
        ($($anything:tt)*) => {
            $crate::trace::Span
        };
    }

    pub(crate) use {
        no_event as debug, no_event as error, no_event as info, no_event as warn,
        no_span as info_span,
    };

    /// A span that records nothing: always disabled.
    #[derive(Clone, Debug)]
    pub(crate) struct Span;

    impl Span {
        pub(crate) fn current() -> Span {
            Span
        }

        pub(crate) fn is_disabled(&self) -> bool {
            true
        }

        pub(crate) fn record<V>(&self, _field: &str, _value: V) -> &Self {
            self
        }

        #[cfg_attr(not(feature = "approval-state"), allow(dead_code))]
        pub(crate) fn in_scope<T>(&self, work: impl FnOnce() -> T) -> T {
            work()
        }
    }

    /// `future.instrument(span)`: the future itself.
    pub(crate) trait Instrument: Sized {
        fn instrument(self, _span: Span) -> Self {
            self
        }
    }

    impl<T: Sized> Instrument for T {}

    /// The field values a span declares empty.
    pub(crate) mod field {
        /// Never read: the span is not opened.
        #[allow(dead_code)]
        pub(crate) struct Empty;
    }
}
