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
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let mut variants = support::variants::all();
    let [name, iterations] = args.as_slice() else {
        let names: Vec<&str> = variants.iter().map(|v| v.name).collect();
        println!("variants: {}", names.join(", "));
        return;
    };
    let iterations: usize = iterations.parse().expect("a number of iterations");
    support::variants::find(&mut variants, name).run(iterations);
}
