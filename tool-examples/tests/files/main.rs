//! The `Files` tools, `read` and `list`, through the executor on real
//! directories, files and symlinks, and their sandbox against a process
//! that swaps what a name points to while they answer. One test binary
//! (each binary links the whole dependency tree, and CI builds them on two
//! cores).
//!
//! - [`read_tool`]: `read`, its limits and its refusals.
//! - [`list_tool`]: `list`, its limits and its refusals.
//! - [`sandbox_race`]: no answer carries anything from outside the root,
//!   whatever is swapped meanwhile.

mod list_tool;
mod read_tool;
mod sandbox_race;
// Shared by every test binary here: one copy, beside the binaries.
#[path = "../support/mod.rs"]
mod support;
