//! File I/O at the edge of the core: reading scenes, scripts and traces,
//! and writing traces atomically.

pub mod atomic;
mod samples_file;
mod trace_dir;

use std::fs;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::scene::{self, Scene, SceneError};
use crate::trace::request::Request;

pub use samples_file::{read_samples, write_samples};
pub use trace_dir::{
    EVENTS, EVENTS_ZST, MANIFEST, PLAN, Trace, TraceWriter, events_path, is_finished, read_plan,
    read_trace,
};

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

/// Loads and validates a scene file.
pub fn load_scene(path: &Path) -> Result<Scene, StoreError> {
    let text = read_text(path)?;
    Ok(scene::parse(&path.display().to_string(), &text)?)
}

/// Reads a scene for editing: syntax errors stop it, semantic problems do
/// not (the editor lists them).
pub fn load_scene_unvalidated(path: &Path) -> Result<Scene, StoreError> {
    let text = read_text(path)?;
    Ok(scene::parse_unvalidated(
        &path.display().to_string(),
        &text,
    )?)
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

/// Writes a file atomically (see [`atomic`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    atomic::write(path, bytes).map_err(|source| StoreError::Write {
        path: path.into(),
        source,
    })
}

/// A scene named on the command line: a file path, or the id of a scene
/// built into the binary.
pub fn resolve_scene(spec: &str) -> Result<Scene, StoreError> {
    let path = Path::new(spec);
    if !path.exists()
        && let Some((name, src)) = scene::BUILTIN.iter().find(|(id, _)| *id == spec)
    {
        return Ok(scene::parse(&format!("<built-in {name}>"), src)?);
    }
    if !path.exists() {
        let builtin = scene::BUILTIN
            .iter()
            .map(|(id, _)| *id)
            .collect::<Vec<_>>()
            .join(", ");
        return Err(StoreError::NoScene {
            spec: spec.into(),
            builtin,
        });
    }
    load_scene(path)
}

/// A line of a request script: a request, or `{"session": "name"}` (or
/// `null`), which labels the events of the requests after it.
#[derive(Debug, Clone, PartialEq)]
pub enum ScriptItem {
    Session(Option<String>),
    Request(Request),
}

/// Parses a script: one JSON object per line; blank lines and lines
/// starting with `#` are skipped. Errors name the line.
pub fn parse_script(path: &Path, text: &str) -> Result<Vec<ScriptItem>, StoreError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |message: String| StoreError::Line {
            path: path.into(),
            line: i + 1,
            message,
        };
        if let Ok(serde_json::Value::Object(o)) = serde_json::from_str::<serde_json::Value>(line)
            && o.len() == 1
            && let Some(s) = o.get("session")
        {
            out.push(ScriptItem::Session(match s {
                serde_json::Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
                serde_json::Value::Null => None,
                _ => return Err(err("\"session\" takes a non-empty string or null".into())),
            }));
            continue;
        }
        out.push(ScriptItem::Request(
            Request::from_json(line).map_err(|e| err(e.to_string()))?,
        ));
    }
    Ok(out)
}

pub fn read_script(path: &Path) -> Result<Vec<ScriptItem>, StoreError> {
    parse_script(path, &read_text(path)?)
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
