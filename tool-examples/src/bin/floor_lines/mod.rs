//! The loop both floors share: stdin read a line at a time into one reused
//! buffer, blank lines skipped, the rest numbered from 1 and answered into
//! one buffered stdout, each answer followed by a newline. Generic over the
//! answer, so each floor's loop is compiled as if written out in it.

use std::io::{BufRead, BufWriter, StdoutLock, Write};

/// Where a floor writes its answers.
pub(crate) type Output = BufWriter<StdoutLock<'static>>;

/// Calls `answer(line, number, output)` for every line that is not blank,
/// then writes the newline.
pub(crate) fn for_each_line(
    mut answer: impl FnMut(&[u8], u64, &mut Output) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut input = std::io::stdin().lock();
    let mut output = BufWriter::with_capacity(64 * 1024, std::io::stdout().lock());
    let mut line = Vec::new();
    let mut number = 0u64;
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        number += 1;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        answer(&line, number, &mut output)?;
        output.write_all(b"\n")?;
    }
    output.flush()
}
