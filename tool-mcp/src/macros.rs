//! The feature map's one helper, in tokio's style (`cfg_rt!`): items that
//! exist only with a feature, each marked with it in the documentation
//! docs.rs builds (`doc(cfg)`), so the rule and its note are one line.

/// Each item only with `feature`, documented as needing it.
macro_rules! cfg_feature {
    ($feature:tt => $($item:item)*) => {
        $(
            #[cfg(feature = $feature)]
            #[cfg_attr(docsrs, doc(cfg(feature = $feature)))]
            $item
        )*
    };
}
