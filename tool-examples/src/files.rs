//! `Files`: the `read`, `list` and `write` tools over one root directory, a
//! toolbox whose state (the root) is shared by its tools through one `Arc`.

use crate::list::{Listing, list_dir};
use crate::read::{ReadDetails, read_file};
use crate::sandbox::Sandbox;
use crate::write::{WriteDetails, write_file};
use std::io;
use std::num::NonZeroU32;
use std::path::Path;
use std::sync::Arc;
use tool_core::{CancellationToken, Json, ToolContext, ToolError, ToolOutput, tools};

/// Reads, lists and writes files under one root directory, never outside
/// it.
///
/// Its tools, registered with
/// [`register_all`](tool_core::ToolRegistry::register_all): `read` (see
/// [`read_file`]), `list` (see [`list_dir`]) and `write` (see
/// [`write_file`]; destructive, and it needs a person's approval:
/// [`tool_core::approval`]). All three open what they touch through the
/// same [`Sandbox`]: a path that leads outside the root (`..`, an absolute
/// path, a symlink) is refused as a paired error that says nothing of what
/// lies outside, and nothing outside is ever opened, created or written,
/// even while another process swaps directories for symlinks.
///
/// ```
/// use tool_core::ToolRegistry;
/// use tool_examples::files::Files;
///
/// let dir = std::env::temp_dir();
/// let mut tools = ToolRegistry::new();
/// tools.register_all(Files::new(&dir).unwrap()).unwrap();
/// let names: Vec<_> = tools.iter().map(|tool| tool.name()).collect();
/// assert_eq!(names, ["list", "read", "write"]); // a registry sorts by name
/// let write = tools.get("write").unwrap();
/// assert!(write.needs_approval());
/// assert_eq!(write.annotations().destructive, Some(true));
/// ```
#[derive(Clone, Debug)]
pub struct Files {
    sandbox: Arc<Sandbox>,
}

impl Files {
    /// The tools rooted at `root`, which must be an existing directory.
    pub fn new(root: impl AsRef<Path>) -> io::Result<Self> {
        Ok(Files {
            sandbox: Arc::new(Sandbox::open(root)?),
        })
    }

    /// The root directory, canonical.
    pub fn root(&self) -> &Path {
        self.sandbox.path()
    }
}

#[tools]
impl Files {
    /// Read a file under the root directory. A UTF-8 text file shows at
    /// most 2000 lines or 50 KB at a time; use offset and limit to read on.
    /// A PNG, JPEG, GIF or WebP image (up to 3.75 MiB) is shown as an
    /// image.
    #[tool(read_only)]
    pub async fn read(
        &self,
        /// Path of the file to read, relative to the root directory
        path: String,
        /// The first line to read, counting from 1 (default: 1)
        offset: Option<NonZeroU32>,
        /// The most lines to read (default and cap: 2000)
        limit: Option<NonZeroU32>,
        ctx: ToolContext,
    ) -> Result<ToolOutput<ReadDetails>, ToolError> {
        let sandbox = Arc::clone(&self.sandbox);
        blocking("read", ctx, move |cancelled| {
            read_file(&sandbox, &path, offset, limit, cancelled)
        })
        .await
    }

    /// List a directory under the root directory: each entry's name, kind
    /// (file, directory, symlink or other) and size in bytes (files only),
    /// sorted by name, at most 1000. Symlinks are listed, not followed.
    #[tool(read_only)]
    pub async fn list(
        &self,
        /// Path of the directory to list, relative to the root directory
        /// (default: the root)
        path: Option<String>,
        ctx: ToolContext,
    ) -> Result<Json<Listing>, ToolError> {
        let sandbox = Arc::clone(&self.sandbox);
        blocking("listing", ctx, move |cancelled| {
            list_dir(&sandbox, path.as_deref(), cancelled).map(Json)
        })
        .await
    }

    /// Write a UTF-8 text file under the root directory: create it, or
    /// replace its whole content. The directory that holds it must exist.
    /// At most 1 MiB (1048576 bytes). Each write needs approval before it
    /// runs.
    #[tool(destructive, needs_approval)]
    pub async fn write(
        &self,
        /// Path of the file to write, relative to the root directory
        path: String,
        /// The file's whole new content
        content: String,
        ctx: ToolContext,
    ) -> Result<ToolOutput<WriteDetails>, ToolError> {
        let sandbox = Arc::clone(&self.sandbox);
        blocking("write", ctx, move |cancelled| {
            write_file(&sandbox, &path, &content, cancelled)
        })
        .await
    }
}

/// Runs file system work, which blocks, on a blocking thread; `work` gets
/// a check of the call's signal to watch as it goes, so a cancelled read
/// of a huge file (or listing of a huge directory) stops, and a cancelled
/// write replaces nothing. The work runs on even once the call is answered
/// (a blocking thread cannot be stopped): the check is how it learns.
async fn blocking<T: Send + 'static, E: std::error::Error + Send + Sync + 'static>(
    what: &str,
    ctx: ToolContext,
    work: impl FnOnce(&dyn Fn() -> bool) -> Result<T, E> + Send + 'static,
) -> Result<T, ToolError> {
    let signal = ctx.signal;
    let done = tokio::task::spawn_blocking(move || {
        work(&|| signal.as_ref().is_some_and(CancellationToken::is_cancelled))
    })
    .await
    .map_err(|error| ToolError::from(format!("the {what} was interrupted: {error}")))?;
    Ok(done?)
}
