//! A file read again when it changes: the static token's, the JWKS's, an
//! upstream's token (the client's side). The
//! requests themselves look, at most once a second, at the file's modified
//! time, length and inode (one `stat`, no task of its own); only a change
//! reads it again.
//!
//! The file is the authority: what it says now is what is accepted, so an
//! operator revokes by writing it. A file that says "nothing" (a token
//! file emptied, a key set with no keys) or that is gone (deleted) accepts
//! nothing, at once. A file that cannot be read or is not valid (caught
//! half-written, a permission mistake) keeps the last good value, but only
//! for a bounded time (the stale limit), with a warning each minute; then
//! it accepts nothing too, until a good file is back.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant, SystemTime};

/// How often the file is looked at, at most.
pub(crate) const CHECK_INTERVAL: Duration = Duration::from_secs(1);

/// How often a file that stays unreadable or invalid is warned about.
const WARN_EVERY: Duration = Duration::from_secs(60);

/// What tells a changed file apart: a new file renamed over the old one
/// (how secrets are usually replaced) has another inode; one written in
/// place, another modified time or length.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Stamp {
    modified: Option<SystemTime>,
    len: u64,
    inode: u64,
}

impl Stamp {
    fn of(path: &Path) -> std::io::Result<Stamp> {
        let metadata = std::fs::metadata(path)?;
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(&metadata);
        #[cfg(not(unix))]
        let inode = 0;
        Ok(Stamp {
            modified: metadata.modified().ok(),
            len: metadata.len(),
            inode,
        })
    }
}

/// Reads a file's bytes into a value (`None`: the file accepts nothing),
/// or says what is wrong with them.
pub(crate) type Parse<T> = fn(&[u8]) -> Result<Option<T>, String>;

struct Check {
    at: Instant,
    /// The file last read whole; `None` once it is gone.
    stamp: Option<Stamp>,
    /// Since when the file has been unreadable or invalid, if it is.
    failing_since: Option<Instant>,
    warned_at: Option<Instant>,
}

/// A value read from a file, and read again when the file changes.
pub(crate) struct Watched<T> {
    path: PathBuf,
    /// What the file is, in warnings: `the JWKS file /etc/mcp/jwks.json`.
    what: String,
    parse: Parse<T>,
    /// How long an unreadable or invalid file keeps the last good value.
    stale_limit: Duration,
    /// `None`: nothing is accepted now.
    current: RwLock<Option<Arc<T>>>,
    check: Mutex<Check>,
}

impl<T> Watched<T> {
    /// Reads the file now: a file that cannot be read or parsed, or that
    /// accepts nothing, is an error here, as the server should not start
    /// without it.
    pub(crate) fn open(
        path: &Path,
        what: &str,
        parse: Parse<T>,
        stale_limit: Duration,
    ) -> std::io::Result<Self> {
        let what = format!("{what} {}", path.display());
        let named = |error: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, error);
        let stamp = Stamp::of(path).map_err(|error| named(format!("{what}: {error}")))?;
        let bytes = std::fs::read(path).map_err(|error| named(format!("{what}: {error}")))?;
        let value = parse(&bytes)
            .map_err(|error| named(format!("{what}: {error}")))?
            .ok_or_else(|| named(format!("{what}: it accepts nothing")))?;
        Ok(Watched {
            path: path.to_owned(),
            what,
            parse,
            stale_limit,
            current: RwLock::new(Some(Arc::new(value))),
            check: Mutex::new(Check {
                at: Instant::now(),
                stamp: Some(stamp),
                failing_since: None,
                warned_at: None,
            }),
        })
    }

    /// The value (`None`: nothing is accepted now), read again first if
    /// the file changed since it was last looked at (and that was more
    /// than [`CHECK_INTERVAL`] ago). Requests that arrive while another
    /// looks do not wait: they take the value as it is.
    pub(crate) fn current(&self) -> Option<Arc<T>> {
        if let Ok(mut check) = self.check.try_lock()
            && check.at.elapsed() >= CHECK_INTERVAL
        {
            check.at = Instant::now();
            self.look(&mut check);
        }
        match self.current.read() {
            Ok(value) => value.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    fn set(&self, value: Option<Arc<T>>) {
        match self.current.write() {
            Ok(mut current) => *current = value,
            Err(poisoned) => *poisoned.into_inner() = value,
        }
    }

    fn look(&self, check: &mut Check) {
        let stamp = match Stamp::of(&self.path) {
            Ok(stamp) => stamp,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                if check.stamp.take().is_some() {
                    self.set(None);
                    check.failing_since = None;
                    tracing::warn!("{}: deleted; accepting none until it is back", self.what);
                }
                return;
            }
            Err(error) => return self.failing(check, &error.to_string()),
        };
        if check.stamp == Some(stamp) {
            return;
        }
        let parsed = std::fs::read(&self.path)
            .map_err(|error| error.to_string())
            .and_then(|bytes| (self.parse)(&bytes));
        match parsed {
            Ok(value) => {
                let accepts_nothing = value.is_none();
                check.stamp = Some(stamp);
                check.failing_since = None;
                self.set(value.map(Arc::new));
                if accepts_nothing {
                    tracing::warn!("{}: changed, and accepts nothing now", self.what);
                } else {
                    tracing::info!("{}: changed, read again", self.what);
                }
            }
            // The stamp is not kept: the next look tries again, so a file
            // caught half-written is read once it is whole.
            Err(error) => self.failing(check, &error),
        }
    }

    /// The file cannot be read or is not valid: the last good value stays
    /// for the stale limit, with a warning each minute, then nothing.
    fn failing(&self, check: &mut Check, error: &str) {
        let now = Instant::now();
        let since = *check.failing_since.get_or_insert(now);
        let expired = now.duration_since(since) >= self.stale_limit;
        if expired && check.stamp.take().is_some() {
            self.set(None);
            tracing::error!(
                "{}: {error}; unreadable or invalid for {} s, the most allowed: accepting none \
                 until a good file is back",
                self.what,
                self.stale_limit.as_secs()
            );
            check.warned_at = Some(now);
            return;
        }
        if check
            .warned_at
            .is_none_or(|at| now.duration_since(at) >= WARN_EVERY)
        {
            check.warned_at = Some(now);
            if expired {
                tracing::warn!("{}: {error}; still accepting none", self.what);
            } else {
                let left = self.stale_limit.saturating_sub(now.duration_since(since));
                tracing::warn!(
                    "{}: {error}; keeping the last good one for {} s more",
                    self.what,
                    left.as_secs()
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A number; an empty file accepts nothing.
    fn number(bytes: &[u8]) -> Result<Option<u32>, String> {
        let text = std::str::from_utf8(bytes).map_err(|error| error.to_string())?;
        if text.trim().is_empty() {
            return Ok(None);
        }
        text.trim()
            .parse()
            .map(Some)
            .map_err(|error: std::num::ParseIntError| error.to_string())
    }

    fn value(watched: &Watched<u32>) -> Option<u32> {
        watched.check.lock().unwrap().at -= CHECK_INTERVAL;
        watched.current().map(|value| *value)
    }

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("tool-mcp-watched-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn the_file_decides_and_a_deleted_or_emptied_one_accepts_nothing() {
        let dir = scratch("revoke");
        let path = dir.join("value");
        std::fs::write(&path, "1").unwrap();
        let watched =
            Watched::open(&path, "the test file", number, Duration::from_secs(60)).unwrap();
        assert_eq!(watched.current().map(|value| *value), Some(1));

        std::fs::write(&path, "22").unwrap();
        // Not looked at again within the interval.
        assert_eq!(watched.current().map(|value| *value), Some(1));
        assert_eq!(value(&watched), Some(22));

        // Emptied: nothing, at once.
        std::fs::write(&path, "").unwrap();
        assert_eq!(value(&watched), None);
        std::fs::write(&path, "3").unwrap();
        assert_eq!(value(&watched), Some(3));

        // Deleted: nothing, at once; back: read again.
        std::fs::remove_file(&path).unwrap();
        assert_eq!(value(&watched), None);
        std::fs::write(&path, "333").unwrap();
        assert_eq!(value(&watched), Some(333));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_invalid_file_keeps_the_last_good_value_for_the_stale_limit_only() {
        let dir = scratch("stale");
        let path = dir.join("value");
        std::fs::write(&path, "7").unwrap();
        let limit = Duration::from_secs(300);
        let watched = Watched::open(&path, "the test file", number, limit).unwrap();
        std::fs::write(&path, "not a number").unwrap();
        assert_eq!(value(&watched), Some(7), "kept while within the limit");
        // The limit passes (the clock moved back instead of waiting).
        watched.check.lock().unwrap().failing_since = Some(Instant::now() - limit);
        assert_eq!(value(&watched), None, "then nothing is accepted");
        assert_eq!(value(&watched), None);
        std::fs::write(&path, "8").unwrap();
        assert_eq!(value(&watched), Some(8), "a good file is read again");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_that_is_not_valid_or_accepts_nothing_at_start_is_an_error_naming_it() {
        let dir = scratch("bad");
        let path = dir.join("value");
        for (text, says) in [("x", "invalid digit"), ("  ", "it accepts nothing")] {
            std::fs::write(&path, text).unwrap();
            let Err(error) = Watched::open(&path, "the test file", number, Duration::ZERO) else {
                panic!("accepted {text:?}");
            };
            assert!(
                error.to_string().starts_with("the test file ") && error.to_string().contains(says),
                "{error}"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
