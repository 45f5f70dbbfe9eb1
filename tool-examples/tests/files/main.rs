//! The `Files` tools, `read`, `list` and `write`, through the executor on
//! real directories, files and symlinks, and their sandbox against a
//! process that swaps what a name points to while they answer. One test
//! binary (each binary links the whole dependency tree, and CI builds them
//! on two cores).
//!
//! - [`read_tool`]: `read`, its limits and its refusals.
//! - [`list_tool`]: `list`, its limits and its refusals.
//! - [`write_tool`]: `write`, approved, its limits, its refusals (each of
//!   `read`'s again) and cancellation; nothing outside the root changes.
//! - [`sandbox_race`]: no answer carries anything from outside the root,
//!   and no write changes anything there, whatever is swapped meanwhile.

mod list_tool;
mod read_tool;
mod sandbox_race;
mod write_tool;
// Shared by every test binary here: one copy, beside the binaries.
#[path = "../support/mod.rs"]
mod support;
