//! A result written as JSON, every way a user can, side by side in one
//! group: `write_json`, serde_json's `to_string`, `to_vec` and `to_writer`
//! (the result's `Serialize`), and serde's derive of the same shape (what
//! `Serialize` would cost without the result writing its own text). Each
//! writes into a vector of its own. The code is `support::variants`
//! (`result_<case>/...`), which the instruction counter and the interleaved
//! harness run too.

mod support;

use criterion::{Criterion, criterion_group, criterion_main};
use std::time::Duration;
use support::variants::{self, find};

fn result_json(c: &mut Criterion) {
    let mut variants = variants::all();
    for (case, _) in support::results() {
        let mut group = c.benchmark_group(format!("result_json/{case}"));
        group
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(3));
        for how in [
            "write_json",
            "to_string",
            "to_vec",
            "to_writer",
            "serde_derive",
        ] {
            let variant = find(&mut variants, &format!("result_{case}/{how}"));
            group.bench_function(how, |b| b.iter_custom(|n| variant.time(n)));
        }
        group.finish();
    }
}

criterion_group!(benches, result_json);
criterion_main!(benches);
