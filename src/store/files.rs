//! Reading and writing files: text, JSON, an atomic write, and why any of
//! it failed ([`StoreError`]).

use std::fs;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::scene::SceneError;

use super::atomic;

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("cannot read {}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Scene(#[from] SceneError),
    #[error("{}:{line}: {message}", path.display())]
    Line {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error("{} already exists; pass --force to replace it", path.display())]
    Exists { path: PathBuf },
    #[error("refusing to write a trace over {}: name a new directory", path.display())]
    UnsafeDestination { path: PathBuf },
    #[error("no scene file {spec} and no built-in scene of that name (built-in: {builtin})")]
    NoScene { spec: String, builtin: String },
    #[error("{} is not a trace: {why}", path.display())]
    NotATrace { path: PathBuf, why: String },
    #[error("{} is not {what}: {source}", path.display())]
    Json {
        path: PathBuf,
        what: &'static str,
        source: serde_json::Error,
    },
}

/// Reads a text file.
pub fn read_text(path: &Path) -> Result<String, StoreError> {
    fs::read_to_string(path).map_err(|source| StoreError::Read {
        path: path.into(),
        source,
    })
}

/// Reads a JSON file as `what` (named in the error).
pub fn read_json<T: serde::de::DeserializeOwned>(
    path: &Path,
    what: &'static str,
) -> Result<T, StoreError> {
    serde_json::from_str(&read_text(path)?).map_err(|source| StoreError::Json {
        path: path.into(),
        what,
        source,
    })
}

/// A JSON Lines file of `T`s, blank lines skipped; a bad line is named.
pub fn read_jsonl<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<T>, StoreError> {
    read_text(path)?
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| StoreError::Line {
                path: path.into(),
                line: i + 1,
                message: e.to_string(),
            })
        })
        .collect()
}

/// Writes a file atomically (see [`atomic`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    atomic::write(path, bytes).map_err(|source| StoreError::Write {
        path: path.into(),
        source,
    })
}

/// Streams `items` to `path` as one JSON array, item by item, so that an
/// export of any size never sits in memory whole; the bytes are those of
/// `serde_json::to_vec` (or `to_vec_pretty`) of the whole array. Written to
/// a temporary sibling and renamed, like [`write_atomic`]. Returns how
/// many items were written.
pub fn write_json_array<T: serde::Serialize>(
    path: &Path,
    items: impl IntoIterator<Item = T>,
    pretty: bool,
) -> Result<usize, StoreError> {
    use std::io::Write;
    atomic::write_with(path, |tmp| {
        let mut out = std::io::BufWriter::new(fs::File::create(tmp)?);
        let mut n = 0;
        out.write_all(b"[")?;
        for item in items {
            out.write_all(match (n, pretty) {
                (0, true) => b"\n  ",
                (_, true) => b",\n  ",
                (0, false) => b"",
                (_, false) => b",",
            })?;
            if pretty {
                // An item's pretty form, indented one level as inside the array.
                let text = serde_json::to_string_pretty(&item)?;
                out.write_all(text.replace('\n', "\n  ").as_bytes())?;
            } else {
                serde_json::to_writer(&mut out, &item)?;
            }
            n += 1;
        }
        out.write_all(if pretty && n > 0 { b"\n]" } else { b"]" })?;
        out.into_inner().map_err(|e| e.into_error())?;
        Ok(n)
    })
    .map_err(|source| StoreError::Write {
        path: path.into(),
        source,
    })
}
