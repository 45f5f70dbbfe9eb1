//! A file read again when it changes: the static token's, the JWKS's. The
//! requests themselves look, at most once a second, at the file's modified
//! time, length and inode (one `stat`, no task of its own); only a change
//! reads it again. What cannot be read or is not valid keeps the last good
//! value, with a warning, so a half-written file never locks clients out.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant, SystemTime};

/// How often the file is looked at, at most.
pub(super) const CHECK_INTERVAL: Duration = Duration::from_secs(1);

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

/// Reads a file's bytes into a value, or says what is wrong with them.
pub(super) type Parse<T> = fn(&[u8]) -> Result<T, String>;

struct Check {
    at: Instant,
    stamp: Stamp,
}

/// A value read from a file, and read again when the file changes.
pub(super) struct Watched<T> {
    path: PathBuf,
    /// What the file is, in warnings: `the JWKS file /etc/mcp/jwks.json`.
    what: String,
    parse: Parse<T>,
    current: RwLock<Arc<T>>,
    check: Mutex<Check>,
}

impl<T> Watched<T> {
    /// Reads the file now: a file that cannot be read or parsed is an
    /// error here, as the server should not start without it.
    pub(super) fn open(path: &Path, what: &str, parse: Parse<T>) -> std::io::Result<Self> {
        let what = format!("{what} {}", path.display());
        let named = |error: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, error);
        let stamp = Stamp::of(path).map_err(|error| named(format!("{what}: {error}")))?;
        let bytes = std::fs::read(path).map_err(|error| named(format!("{what}: {error}")))?;
        let value = parse(&bytes).map_err(|error| named(format!("{what}: {error}")))?;
        Ok(Watched {
            path: path.to_owned(),
            what,
            parse,
            current: RwLock::new(Arc::new(value)),
            check: Mutex::new(Check {
                at: Instant::now(),
                stamp,
            }),
        })
    }

    /// The value, read again first if the file changed since it was last
    /// looked at (and that was more than [`CHECK_INTERVAL`] ago). Requests
    /// that arrive while another looks do not wait: they take the value as
    /// it is.
    pub(super) fn current(&self) -> Arc<T> {
        if let Ok(mut check) = self.check.try_lock()
            && check.at.elapsed() >= CHECK_INTERVAL
        {
            check.at = Instant::now();
            self.reload_if_changed(&mut check);
        }
        self.read()
    }

    fn read(&self) -> Arc<T> {
        match self.current.read() {
            Ok(value) => Arc::clone(&value),
            Err(poisoned) => Arc::clone(&poisoned.into_inner()),
        }
    }

    fn reload_if_changed(&self, check: &mut Check) {
        let stamp = match Stamp::of(&self.path) {
            Ok(stamp) => stamp,
            Err(error) => {
                tracing::warn!("{}: {error}; keeping the last one read", self.what);
                return;
            }
        };
        if stamp == check.stamp {
            return;
        }
        let parsed = std::fs::read(&self.path)
            .map_err(|error| error.to_string())
            .and_then(|bytes| (self.parse)(&bytes));
        match parsed {
            Ok(value) => {
                check.stamp = stamp;
                let value = Arc::new(value);
                match self.current.write() {
                    Ok(mut current) => *current = value,
                    Err(poisoned) => *poisoned.into_inner() = value,
                }
                tracing::info!("{}: changed, read again", self.what);
            }
            // The stamp is not kept: the next look tries again, so a file
            // caught half-written is read once it is whole.
            Err(error) => tracing::warn!("{}: {error}; keeping the last good one", self.what),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(bytes: &[u8]) -> Result<u32, String> {
        std::str::from_utf8(bytes)
            .map_err(|error| error.to_string())?
            .trim()
            .parse()
            .map_err(|error: std::num::ParseIntError| error.to_string())
    }

    #[test]
    fn a_changed_file_is_read_again_and_a_bad_one_keeps_the_last_good_value() {
        let dir = std::env::temp_dir().join(format!("tool-mcp-watched-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("value");
        std::fs::write(&path, "1").unwrap();
        let watched = Watched::open(&path, "the test file", number).unwrap();
        assert_eq!(*watched.current(), 1);

        std::fs::write(&path, "22").unwrap();
        // Not looked at again within the interval.
        assert_eq!(*watched.current(), 1);
        watched.check.lock().unwrap().at -= CHECK_INTERVAL;
        assert_eq!(*watched.current(), 22);

        std::fs::write(&path, "not a number").unwrap();
        watched.check.lock().unwrap().at -= CHECK_INTERVAL;
        assert_eq!(*watched.current(), 22);

        std::fs::remove_file(&path).unwrap();
        watched.check.lock().unwrap().at -= CHECK_INTERVAL;
        assert_eq!(*watched.current(), 22);

        std::fs::write(&path, "333").unwrap();
        watched.check.lock().unwrap().at -= CHECK_INTERVAL;
        assert_eq!(*watched.current(), 333);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_that_is_not_valid_at_start_is_an_error_naming_it() {
        let dir = std::env::temp_dir().join(format!("tool-mcp-watched-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("value");
        std::fs::write(&path, "x").unwrap();
        let Err(error) = Watched::open(&path, "the test file", number) else {
            panic!("accepted");
        };
        assert!(
            error.to_string().starts_with("the test file ")
                && error.to_string().contains("invalid digit"),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
