#!/usr/bin/env bash
# Looks at `tool-examples call`'s progress bar as a person would: runs it on a
# large input inside a real terminal (tmux), watches the pane, and checks
#  1. the bar draws (percent, answered, calls/s, errors, time left),
#  2. it updates while the run goes on (two different readings),
#  3. it is cleared at the end (the pane shows no bar afterwards),
#  4. the answers on stdout are those of a run without a terminal, byte for
#     byte once the timestamps (when each result was made) are taken out,
#  5. and prints what the bar costs: the run's time against the same run in
#     the same pane, watched the same way, with stderr sent away.
# Not part of `cargo test`: CI has no terminal. Installs tmux with apt-get
# when it is missing.
#
# Usage: scripts/progress-tmux.sh [CALLS]    (default 3000000)
set -euo pipefail
cd "$(dirname "$0")/.."
calls=${1:-3000000}

if ! command -v tmux >/dev/null; then
  echo "installing tmux" >&2
  apt-get install -y -q tmux >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q tmux >/dev/null; }
fi

cargo build --release -q -p tool-examples
binary=$PWD/target/release/tool-examples
work=$(mktemp -d)
session="progress-$$"
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$work"' EXIT

# Every 100th call names a missing tool, so the error count moves too.
seq 1 "$calls" | awk '{
  name = ($1 % 100 == 0) ? "missing" : "echo";
  printf "{\"type\":\"toolCall\",\"id\":\"call-%d\",\"name\":\"%s\",\"arguments\":{\"value\":\"v%d\"}}\n", $1, name, $1
}' >"$work/input.jsonl"

tmux new-session -d -s "$session" -x 150 -y 12
# The shell in the pane times the run itself (ms), so polling does not count.
tmux send-keys -t "$session" "s=\$(date +%s%N); $binary call < $work/input.jsonl > $work/terminal.jsonl; echo EXIT-\$? MS-\$(( (\$(date +%s%N) - s) / 1000000 ))" Enter

readings=()
for _ in $(seq 1 600); do
  pane=$(tmux capture-pane -p -t "$session")
  bar=$(grep -E 'answered' <<<"$pane" | tail -n 1 || true)
  [ -n "$bar" ] && readings+=("$bar")
  grep -qE 'EXIT-[0-9]' <<<"$pane" && break
  sleep 0.1
done
final=$(tmux capture-pane -p -t "$session")

fail() { echo "FAIL: $*" >&2; printf '%s\n' "$final" >&2; exit 1; }
grep -q 'EXIT-0' <<<"$final" || fail "call did not exit 0"
[ "${#readings[@]}" -ge 2 ] || fail "the bar was seen ${#readings[@]} times, not at least twice"
first=${readings[0]}
last=${readings[${#readings[@]}-1]}
for part in '%' 'answered' 'calls/s' 'errors' 'left'; do
  grep -q -- "$part" <<<"$first" || fail "the bar lacks '$part': $first"
done
[ "$first" != "$last" ] || fail "the bar did not update: $first"
grep -q 'answered' <<<"$final" && fail "the bar was not cleared at the end"

"$binary" call <"$work/input.jsonl" >"$work/pipe.jsonl" 2>"$work/pipe.stderr"
terminal_ms=$(grep -oE 'MS-[0-9]+' <<<"$final" | tail -n 1 | cut -c4-)

# The bar's cost: the same run in the same pane, watched the same way, with
# stderr sent away (no bar). Polling tmux costs CPU too, so comparing with
# an unwatched run would charge that to the bar.
tmux send-keys -t "$session" "clear; s=\$(date +%s%N); $binary call < $work/input.jsonl > /dev/null 2>/dev/null; echo QUIET-\$(( (\$(date +%s%N) - s) / 1000000 ))" Enter
for _ in $(seq 1 600); do
  pane=$(tmux capture-pane -p -t "$session")
  grep -qE 'QUIET-[0-9]' <<<"$pane" && break
  sleep 0.1
done
quiet_ms=$(grep -oE 'QUIET-[0-9]+' <<<"$pane" | tail -n 1 | cut -c7-)
[ ! -s "$work/pipe.stderr" ] || fail "without a terminal, stderr was not empty: $(head -c 300 "$work/pipe.stderr")"
strip() { sed -E 's/"timestamp":[0-9]+/"timestamp":0/' "$1"; }
cmp -s <(strip "$work/terminal.jsonl") <(strip "$work/pipe.jsonl") || fail "the answers differ between the two runs"

echo "ok: the bar drew, updated (${#readings[@]} readings) and was cleared;"
echo "    first: $first"
echo "    last:  $last"
echo "    $calls answers identical to a run without a terminal (timestamps aside)"
echo "    time with the bar: $terminal_ms ms; the same without it: $quiet_ms ms ($(python3 -c "print(f'{$terminal_ms/$quiet_ms:.2f}x')"), one run each)"
