//! The progress bar of `call` on a terminal: calls answered, calls per
//! second, errors so far, and (when stdin is a regular file, so its size is
//! known) percent done and time left from the bytes read. Updated once per
//! chunk of answers, never per call, and not made at all when stderr is not
//! a terminal, so pipes, CI and tests see nothing and pay nothing.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// What `call` tells its progress bar as it goes.
#[derive(Debug)]
pub struct Progress {
    bar: ProgressBar,
    started: Instant,
    answered: AtomicU64,
    errors: AtomicU64,
}

impl Progress {
    /// A bar on stderr when stderr is a terminal, else `None`. `input_bytes`
    /// is the input's size when known (stdin is a regular file).
    pub fn on_terminal(input_bytes: Option<u64>) -> Option<Progress> {
        std::io::stderr()
            .is_terminal()
            .then(|| Progress::new(input_bytes, ProgressDrawTarget::stderr()))
    }

    /// A bar drawn to `target` (tests draw it hidden).
    pub fn new(input_bytes: Option<u64>, target: ProgressDrawTarget) -> Progress {
        let bar = match input_bytes {
            Some(total) => {
                let bar = ProgressBar::with_draw_target(Some(total), target);
                bar.set_style(
                    ProgressStyle::with_template("{bar:30} {percent:>3}% · {msg} · {eta} left")
                        .unwrap_or_else(|_| ProgressStyle::default_bar()),
                );
                bar
            }
            None => {
                let bar = ProgressBar::with_draw_target(None, target);
                bar.set_style(
                    ProgressStyle::with_template("{spinner} {msg}")
                        .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                );
                bar
            }
        };
        Progress {
            bar,
            started: Instant::now(),
            answered: AtomicU64::new(0),
            errors: AtomicU64::new(0),
        }
    }

    /// `bytes` more of the input were read.
    pub(super) fn read(&self, bytes: u64) {
        self.bar.inc(bytes);
    }

    /// `answers` more answers were written, `errors` of them errors.
    pub(super) fn answered(&self, answers: u64, errors: u64) {
        let answered = self.answered.fetch_add(answers, Ordering::Relaxed) + answers;
        let errors = self.errors.fetch_add(errors, Ordering::Relaxed) + errors;
        let seconds = self.started.elapsed().as_secs_f64().max(1e-3);
        self.bar.set_message(format!(
            "{answered} answered · {:.0} calls/s · {errors} errors",
            answered as f64 / seconds
        ));
    }

    /// Calls answered so far, and how many were errors.
    pub fn counts(&self) -> (u64, u64) {
        (
            self.answered.load(Ordering::Relaxed),
            self.errors.load(Ordering::Relaxed),
        )
    }

    /// Removes the bar: the terminal is left as it was.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The size of stdin when it is a regular file (`< calls.jsonl`); `None`
/// for a pipe, a terminal, or where that cannot be told.
pub fn stdin_file_size() -> Option<u64> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let stdin = std::io::stdin();
        let owned = stdin.as_fd().try_clone_to_owned().ok()?;
        let metadata = std::fs::File::from(owned).metadata().ok()?;
        metadata.is_file().then_some(metadata.len())
    }
    #[cfg(not(unix))]
    {
        None
    }
}
