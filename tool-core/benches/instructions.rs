//! Instruction counts, for machines too noisy for wall-clock ratios:
//! `valgrind --tool=callgrind` counts instructions, which do not change with
//! what else the machine is doing. `scripts/bench-instructions.sh` runs each
//! variant twice (0 and N iterations) and divides the difference by N.
//!
//! Only the counted variant is prepared (see `support::variants`), and its
//! preparation is in both runs, so it cancels out.
//!
//! Usage: instructions <variant> <iterations>; with no arguments (as
//! `cargo bench` runs it) it lists the variants and exits.

mod support;

fn main() {
    support::variants::count_from_args();
}
