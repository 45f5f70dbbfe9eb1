//! Bearer tokens read from files, for `--token-file` (the token this
//! server asks for) and `--upstream-token-file` (one an upstream asks
//! for): a file, unlike a flag, is not shown to every user of the machine.

use std::io;
use std::path::Path;

/// The token in the file at `path`, without surrounding whitespace (the
/// file's last newline); `label` names the file in errors and warnings
/// (`--token-file /run/token`). An empty token is a mistake, not "no
/// token"; a file that other users may read is warned about.
///
/// ```
/// use tool_examples::token_file::read_token_file;
///
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("token");
/// std::fs::write(&path, "s3cret\n").unwrap();
/// assert_eq!(read_token_file("--token-file token", &path).unwrap(), "s3cret");
///
/// std::fs::write(&path, " \n").unwrap();
/// let error = read_token_file("--token-file token", &path).unwrap_err();
/// assert_eq!(error.to_string(), "--token-file token: the token is empty");
/// ```
pub fn read_token_file(label: &str, path: &Path) -> io::Result<String> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| io::Error::new(error.kind(), format!("{label}: {error}")))?;
    let token = text.trim();
    if token.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{label}: the token is empty"),
        ));
    }
    warn_if_others_can_read(label, path);
    Ok(token.to_owned())
}

/// A token file others may read is a token others may use: says so, as a
/// warning naming `label`, when the file at `path` can be read (or written)
/// by its group or by anyone.
///
/// ```
/// # #[cfg(unix)] {
/// use std::os::unix::fs::PermissionsExt;
/// use tool_examples::token_file::warn_if_others_can_read;
///
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("token");
/// std::fs::write(&path, "s3cret").unwrap();
/// std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
/// // Logs: `--token-file token: other users may read it (chmod 600 it)`.
/// warn_if_others_can_read("--token-file token", &path);
/// # }
/// ```
pub fn warn_if_others_can_read(label: &str, path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(metadata) = std::fs::metadata(path)
            && metadata.permissions().mode() & 0o077 != 0
        {
            tracing::warn!("{label}: other users may read it (chmod 600 it)");
        }
    }
    #[cfg(not(unix))]
    let _ = (label, path);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// What `run` logged, as the binary's plain format writes it.
    fn logged(run: impl FnOnce()) -> String {
        #[derive(Clone, Default)]
        struct Sink(Arc<Mutex<Vec<u8>>>);
        impl io::Write for Sink {
            fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(bytes);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let sink = Sink::default();
        let writer = sink.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_ansi(false)
            .with_writer(move || writer.clone())
            .finish();
        tracing::subscriber::with_default(subscriber, run);
        let bytes = sink.0.lock().unwrap().clone();
        String::from_utf8(bytes).unwrap()
    }

    #[cfg(unix)]
    #[test]
    fn a_token_file_others_may_read_is_warned_about() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("token");
        std::fs::write(&path, "s3cret\n").unwrap();

        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        let log = logged(|| {
            assert_eq!(
                read_token_file("--upstream-token-file docs=token", &path).unwrap(),
                "s3cret"
            );
        });
        assert!(
            log.contains("WARN")
                && log.contains(
                    "--upstream-token-file docs=token: other users may read it (chmod 600 it)"
                ),
            "{log}"
        );

        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        let log = logged(|| {
            read_token_file("--upstream-token-file docs=token", &path).unwrap();
        });
        assert_eq!(log, "");
    }

    #[test]
    fn a_missing_file_is_named() {
        let error = read_token_file(
            "--token-file /nonexistent/token",
            Path::new("/nonexistent/token"),
        )
        .unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::NotFound);
        assert!(
            error
                .to_string()
                .starts_with("--token-file /nonexistent/token: "),
            "{error}"
        );
    }
}
