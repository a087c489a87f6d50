//! Writing a file atomically: into a temporary sibling, then renamed into
//! place, so a reader never sees half of it. Plain `std::io` errors: each
//! caller names the file in its own error type.

use std::fs;
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Writes `bytes` to `path` atomically.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_with(path, |tmp| fs::write(tmp, bytes))
}

/// Runs `write` on a temporary sibling of `path`, then renames it into
/// place; on any failure the sibling is removed and `path` untouched.
pub fn write_with<R>(path: &Path, write: impl FnOnce(&Path) -> io::Result<R>) -> io::Result<R> {
    // Numbered, so threads writing the same file at once do not share a sibling.
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let tmp = path.with_file_name(format!(".{name}.tmp-{}-{n}", std::process::id()));
    write(&tmp)
        .and_then(|r| fs::rename(&tmp, path).map(|_| r))
        .inspect_err(|_| {
            let _ = fs::remove_file(&tmp);
        })
}
