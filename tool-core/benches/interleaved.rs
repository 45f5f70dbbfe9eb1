//! Wall-clock ratios that hold up on a shared machine: ours and the
//! alternative are timed in alternation, round after round, and the ratio
//! of each round's pair is taken; the median of those ratios is reported.
//! A load that comes and goes hits both sides of a round alike.
//!
//! Usage: interleaved [rounds] [filter]   (default 31 rounds, every pair;
//! `cargo bench` runs 31; a filter keeps the pairs with a name containing
//! it, such as `result_` or `stream_`)

mod support;

use std::time::Duration;
use support::variants::{Variant, index};
use support::{stream, stream_linear};

/// Each side of a round runs for about this long.
const ROUND: Duration = Duration::from_millis(20);

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let rounds: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(31);
    let filter = args.iter().find(|a| a.parse::<usize>().is_err());
    let mut variants = support::variants::all();
    let fixed = [
        ("small/tool_core", "small/serde"),
        ("small/tool_core", "small/jsonschema_serde"),
        ("medium/tool_core", "medium/serde"),
        ("medium/tool_core", "medium/jsonschema_serde"),
        ("large/tool_core", "large/serde"),
        ("large/tool_core", "large/jsonschema_serde"),
        ("script/tool_core", "script/serde"),
        ("script/tool_core", "script/jsonschema_serde"),
        ("errors/tool_core", "errors/serde"),
        ("errors_script/tool_core", "errors_script/serde"),
        ("line/tool_core", "line/serde_json_floor"),
        ("line/tool_core_to_vec", "line/serde_json_floor"),
        ("line/tool_core_method", "line/tool_core"),
        ("batch/parallel", "batch/sequential"),
        ("result_echo/to_string", "result_echo/write_json"),
        ("result_echo/to_vec", "result_echo/write_json"),
        ("result_echo/to_writer", "result_echo/write_json"),
        ("result_echo/serde_derive", "result_echo/write_json"),
        ("result_failure/to_string", "result_failure/write_json"),
        ("result_failure/to_vec", "result_failure/write_json"),
        ("result_failure/to_writer", "result_failure/write_json"),
        ("result_failure/serde_derive", "result_failure/write_json"),
        ("result_text_4k/to_string", "result_text_4k/write_json"),
        ("result_text_4k/to_vec", "result_text_4k/write_json"),
        ("result_text_4k/to_writer", "result_text_4k/write_json"),
        ("result_text_4k/serde_derive", "result_text_4k/write_json"),
    ];
    let mut pairs: Vec<(String, String)> = fixed
        .iter()
        .map(|(ours, theirs)| (ours.to_string(), theirs.to_string()))
        .collect();
    pairs.extend(stream_pairs());
    println!("| ours | alternative | median ratio | ns per call (ours, alternative) |");
    println!("| --- | --- | --- | --- |");
    for (ours, theirs) in &pairs {
        if filter.is_some_and(|f| !ours.contains(f.as_str()) && !theirs.contains(f.as_str())) {
            continue;
        }
        let [a, b] = [ours, theirs].map(|name| index(&variants, name));
        // How many iterations fill a round, from a short calibration.
        let n_a = calibrate(&mut variants[a]);
        let n_b = calibrate(&mut variants[b]);
        let mut ratios = Vec::with_capacity(rounds);
        let (mut total_a, mut total_b) = (Duration::ZERO, Duration::ZERO);
        for _ in 0..rounds {
            let t_a = variants[a].time(n_a) / n_a as u32;
            let t_b = variants[b].time(n_b) / n_b as u32;
            total_a += t_a;
            total_b += t_b;
            ratios.push(t_a.as_secs_f64() / t_b.as_secs_f64());
        }
        ratios.sort_by(f64::total_cmp);
        let median = ratios[ratios.len() / 2];
        println!(
            "| {ours} | {theirs} | {median:.2}x | {:.0}, {:.0} |",
            total_a.as_nanos() as f64 / rounds as f64,
            total_b.as_nanos() as f64 / rounds as f64
        );
    }
}

/// The streaming pairs: each format and chunk size against both floors,
/// then each reader of the linear group against one parse of the whole.
fn stream_pairs() -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    for format in stream::FORMATS {
        for chunk in stream::CHUNKS {
            let group = format!("stream_{format}_{chunk}");
            for floor in ["value", "typed"] {
                pairs.push((format!("{group}/tool_core"), format!("{group}/{floor}")));
            }
        }
    }
    for (size, _) in stream_linear::SIZES {
        let group = format!("stream_linear_{size}");
        for (how, _) in stream_linear::READERS.iter().skip(1) {
            pairs.push((format!("{group}/{how}"), format!("{group}/from_str")));
        }
    }
    pairs
}

fn calibrate(variant: &mut Variant) -> u64 {
    let mut n = 1;
    loop {
        let elapsed = variant.time(n);
        if elapsed >= ROUND / 4 {
            let per = elapsed.as_secs_f64() / n as f64;
            return ((ROUND.as_secs_f64() / per) as u64).max(1);
        }
        n *= 2;
    }
}
