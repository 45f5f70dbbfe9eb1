//! Holds the workspace's integration tests (see `tests/`); no library code.
