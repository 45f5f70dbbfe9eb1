//! The counts of `instructions.rs` with mimalloc as the global allocator,
//! as `tool-examples` runs. Most of what a call costs beyond its JSON is the
//! allocator's, and glibc's `malloc` costs more or less per call depending
//! on how many chunks of one size are live at once (its per-thread cache
//! holds 7 of each), so the two allocators give different ratios.
//!
//! Usage: as `instructions.rs`.

mod support;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    support::variants::count_from_args();
}
