//! What reading tool calls from a stream costs, in the same run as what a
//! client pays anyway (the code is `support::variants`, `stream_*`, which
//! the instruction counter and the interleaved harness run too; ratios, not
//! absolute times, are what to read: scripts/bench-ratios.sh):
//!
//! - `stream_events/<format>_<chunk>`: a realistic call (5 KB of
//!   arguments) as its provider's event lines, `chunk` characters per
//!   event: each line parsed into a `serde_json::Value` (`value`, the
//!   floor), into a client's borrowed typed structs (`typed`, a lower
//!   floor), and parsed into a `Value` then pushed into our accumulator
//!   (`tool_core`). See `support/stream.rs` for the lines and the chunk
//!   sizes providers send.
//! - `stream_linear/<size>`: arguments of 1 KB, 100 KB and 1 MB a
//!   character per event, through `PartialJson` and each accumulator,
//!   against one `serde_json::from_str` of the whole text: the same ratio
//!   at every size is linear cost (`support/stream_linear.rs`).
//!
//! Throughput is the arguments' bytes.

mod support;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::time::Duration;
use support::stream::{CHUNKS, FORMATS, call_arguments};
use support::stream_linear::{READERS, SIZES};
use support::variants::{self, find};

fn events(c: &mut Criterion) {
    let mut variants = variants::all();
    let bytes = call_arguments().len() as u64;
    for format in FORMATS {
        for chunk in CHUNKS {
            let group_name = format!("stream_{format}_{chunk}");
            let mut group = c.benchmark_group(format!("stream_events/{format}_{chunk}"));
            group
                .throughput(Throughput::Bytes(bytes))
                .warm_up_time(Duration::from_secs(1))
                .measurement_time(Duration::from_secs(3));
            for how in ["value", "typed", "tool_core"] {
                let variant = find(&mut variants, &format!("{group_name}/{how}"));
                group.bench_function(how, |b| b.iter_custom(|n| variant.time(n)));
            }
            group.finish();
        }
    }
}

fn linear(c: &mut Criterion) {
    let mut variants = variants::all();
    for (size, bytes) in SIZES {
        let mut group = c.benchmark_group(format!("stream_linear/{size}"));
        group
            .throughput(Throughput::Bytes(bytes as u64))
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(3));
        for (how, _) in READERS {
            let variant = find(&mut variants, &format!("stream_linear_{size}/{how}"));
            group.bench_function(how, |b| b.iter_custom(|n| variant.time(n)));
        }
        group.finish();
    }
}

criterion_group!(benches, events, linear);
criterion_main!(benches);
