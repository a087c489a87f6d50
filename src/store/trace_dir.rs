//! Trace directories: written into a hidden temporary sibling and renamed
//! into place when finished, so a reader never sees half a trace, and read
//! back with line-numbered errors. The events are `events.jsonl`, or the
//! same lines zstd-compressed in `events.jsonl.zst`; every reader takes
//! either.

use std::fs::{self, File};
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::files::{StoreError, read_json, read_text};
use crate::scene::{self, Scene};
use crate::trace::{Event, EventsHeader, Manifest};

pub const MANIFEST: &str = "manifest.json";
pub const EVENTS: &str = "events.jsonl";
pub const EVENTS_ZST: &str = "events.jsonl.zst";
pub const SCENE: &str = "scene.ron";
/// The generation plan a generated trace keeps beside its events.
pub const PLAN: &str = "plan.json";

/// Compresses the finished `events.jsonl` in `dir` into `events.jsonl.zst`
/// (one zstd frame, ruzstd's fastest level, about zstd's level 1) and
/// removes the plain file: the events stream to disk as they come, and only
/// the compressor's window is in memory.
fn compress_events(dir: &Path) -> std::io::Result<()> {
    let (plain, packed) = (dir.join(EVENTS), dir.join(EVENTS_ZST));
    let mut out = BufWriter::new(File::create(&packed)?);
    ruzstd::encoding::compress(
        BufReader::new(File::open(&plain)?),
        &mut out,
        ruzstd::encoding::CompressionLevel::Fastest,
    );
    out.into_inner().map_err(|e| e.into_error())?;
    fs::remove_file(plain)
}

/// The events file of the trace in `dir`: `events.jsonl`, else
/// `events.jsonl.zst`; `None` if neither is there.
pub fn events_path(dir: &Path) -> Option<PathBuf> {
    [EVENTS, EVENTS_ZST]
        .iter()
        .map(|f| dir.join(f))
        .find(|p| p.is_file())
}

/// Opens an events file for reading lines, decompressing a `.zst` one.
fn open_events(path: &Path) -> std::io::Result<Box<dyn BufRead>> {
    let file = File::open(path)?;
    Ok(if path.extension().is_some_and(|e| e == "zst") {
        let decoder = ruzstd::decoding::StreamingDecoder::new(BufReader::new(file))
            .map_err(std::io::Error::other)?;
        Box::new(BufReader::new(decoder))
    } else {
        Box::new(BufReader::new(file))
    })
}

/// Streams a trace to disk. Nothing appears at the destination until
/// [`TraceWriter::finish`]; dropping an unfinished writer removes its files.
pub struct TraceWriter {
    dest: PathBuf,
    tmp: PathBuf,
    events: Option<BufWriter<File>>,
    compress: bool,
    files: Vec<String>,
}

fn write_err(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Write {
        path: path.into(),
        source,
    }
}

impl TraceWriter {
    /// Starts a trace at `dest`. An existing `dest` is an error unless
    /// `replace`, in which case it is swapped out only on `finish`.
    pub fn create(dest: &Path, scene: &Scene, replace: bool) -> Result<Self, StoreError> {
        Self::create_with(dest, scene, replace, false)
    }

    /// As [`TraceWriter::create`]; `compress` writes the events zstd-
    /// compressed, as `events.jsonl.zst`.
    pub fn create_with(
        dest: &Path,
        scene: &Scene,
        replace: bool,
        compress: bool,
    ) -> Result<Self, StoreError> {
        if dest.exists() && !replace {
            return Err(StoreError::Exists { path: dest.into() });
        }
        // Replacing `.`, `..` or any directory holding the working directory
        // would delete the user's files along with the old trace.
        let resolved = if dest.exists() {
            fs::canonicalize(dest).map_err(|source| StoreError::Read {
                path: dest.into(),
                source,
            })?
        } else {
            dest.to_path_buf()
        };
        let inside_cwd = std::env::current_dir()
            .ok()
            .and_then(|c| fs::canonicalize(c).ok())
            .is_some_and(|c| c.starts_with(&resolved));
        if resolved.file_name().is_none()
            || dest.file_name().is_none()
            || (dest.exists() && inside_cwd)
        {
            return Err(StoreError::UnsafeDestination { path: dest.into() });
        }
        let name = dest
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "trace".into());
        let parent = dest
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        fs::create_dir_all(parent).map_err(write_err(parent))?;
        let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
        if tmp.exists() {
            fs::remove_dir_all(&tmp).map_err(write_err(&tmp))?;
        }
        fs::create_dir(&tmp).map_err(write_err(&tmp))?;
        let mut w = TraceWriter {
            dest: dest.into(),
            tmp,
            events: None,
            compress,
            files: vec![],
        };
        w.write_file(SCENE, scene::to_ron(scene).as_bytes())?;
        let path = w.tmp.join(EVENTS);
        let file = File::create(&path).map_err(write_err(&path))?;
        w.events = Some(BufWriter::new(file));
        w.files
            .push(if compress { EVENTS_ZST } else { EVENTS }.into());
        w.write_line(&EventsHeader::new(scene.id.clone()))?;
        Ok(w)
    }

    fn write_line<T: serde::Serialize>(&mut self, value: &T) -> Result<(), StoreError> {
        let path = self.tmp.join(EVENTS);
        let out = self
            .events
            .as_mut()
            .expect("events file is open until finish");
        serde_json::to_writer(&mut *out, value).map_err(|e| StoreError::Write {
            path: path.clone(),
            source: e.into(),
        })?;
        out.write_all(b"\n").map_err(write_err(&path))
    }

    /// Appends one event to the events file.
    pub fn event(&mut self, e: &Event) -> Result<(), StoreError> {
        self.write_line(e)
    }

    /// Writes another file of the trace (plan, notes, ...).
    pub fn write_file(&mut self, name: &str, bytes: &[u8]) -> Result<(), StoreError> {
        let path = self.tmp.join(name);
        fs::write(&path, bytes).map_err(write_err(&path))?;
        if !self.files.iter().any(|f| f == name) {
            self.files.push(name.into());
        }
        Ok(())
    }

    /// Files written so far, for the manifest.
    pub fn files(&self) -> Vec<String> {
        let mut f = self.files.clone();
        f.push(MANIFEST.into());
        f.sort();
        f
    }

    /// Writes the manifest last and moves the finished trace into place.
    pub fn finish(mut self, manifest: &Manifest) -> Result<PathBuf, StoreError> {
        // Not fsynced: that cost 10% of batch throughput, and a trace cut
        // short by a power loss is still caught, because its event count
        // disagrees with the manifest (`is_finished`, `read_trace`).
        let path = self.tmp.join(EVENTS);
        let events = self.events.take().expect("finish runs once");
        events.into_inner().map_err(|e| StoreError::Write {
            path: path.clone(),
            source: e.into_error(),
        })?;
        if self.compress {
            compress_events(&self.tmp).map_err(write_err(&path))?;
        }
        let mut json = serde_json::to_vec_pretty(manifest).expect("manifests serialize");
        json.push(b'\n');
        self.write_file(MANIFEST, &json)?;
        if self.dest.exists() {
            fs::remove_dir_all(&self.dest).map_err(write_err(&self.dest))?;
        }
        fs::rename(&self.tmp, &self.dest).map_err(write_err(&self.dest))?;
        Ok(self.dest.clone())
    }
}

impl Drop for TraceWriter {
    fn drop(&mut self) {
        if self.tmp.exists() {
            let _ = fs::remove_dir_all(&self.tmp);
        }
    }
}

/// Whether `dir` holds a finished, undamaged trace: a manifest whose event
/// count matches the events file (cheap: counts lines, parses nothing
/// else; a compressed file must also decompress to its end).
pub fn is_finished(dir: &Path) -> bool {
    let Ok(text) = fs::read_to_string(dir.join(MANIFEST)) else {
        return false;
    };
    let Ok(manifest) = serde_json::from_str::<Manifest>(&text) else {
        return false;
    };
    let Some(path) = events_path(dir) else {
        return false;
    };
    let Ok(mut events) = open_events(&path) else {
        return false;
    };
    let (mut lines, mut last) = (0u64, b'\n');
    let mut buf = [0u8; 1 << 16];
    loop {
        match events.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                lines += buf[..n].iter().filter(|b| **b == b'\n').count() as u64;
                last = buf[n - 1];
            }
            Err(_) => return false,
        }
    }
    lines > 0 && last == b'\n' && lines == manifest.counts.events + 1
}

/// A trace read back from disk.
#[derive(Debug, Clone)]
pub struct Trace {
    pub manifest: Manifest,
    pub scene: Scene,
    pub events: Vec<Event>,
}

/// The text of an events file, decompressed if it is `.zst`.
fn read_events(path: &Path) -> Result<String, StoreError> {
    let err = |source| StoreError::Read {
        path: path.into(),
        source,
    };
    let mut text = String::new();
    open_events(path)
        .and_then(|mut r| r.read_to_string(&mut text))
        .map_err(err)?;
    Ok(text)
}

/// The generation plan of a trace directory, if it has one (a trace of
/// `hearth run` has none).
pub fn read_plan(dir: &Path) -> Result<Option<crate::generation::Plan>, StoreError> {
    let path = dir.join(PLAN);
    if !path.exists() {
        return Ok(None);
    }
    read_json(&path, "a generation plan").map(Some)
}

/// Reads a finished trace directory.
pub fn read_trace(dir: &Path) -> Result<Trace, StoreError> {
    let mpath = dir.join(MANIFEST);
    if !mpath.exists() {
        return Err(StoreError::NotATrace {
            path: dir.into(),
            why: format!("no {MANIFEST} (unfinished or not a trace directory)"),
        });
    }
    let manifest = read_text(&mpath)?;
    // A damaged manifest is what is said first, before the other files.
    manifest_of(dir, &manifest)?;
    let scene = read_text(&dir.join(SCENE))?;
    let epath = events_path(dir).unwrap_or_else(|| dir.join(EVENTS));
    let events = read_events(&epath)?;
    parse_trace(dir, &manifest, &scene, &events)
}

/// A trace's manifest from its text, of a schema version this reads.
fn manifest_of(dir: &Path, text: &str) -> Result<Manifest, StoreError> {
    let not = |why: String| StoreError::NotATrace {
        path: dir.into(),
        why,
    };
    let manifest: Manifest =
        serde_json::from_str(text).map_err(|e| not(format!("{MANIFEST}: {e}")))?;
    // Older versions are subsets of the current one: they read as they are.
    if !crate::trace::READABLE_SCHEMA_VERSIONS.contains(&manifest.schema_version) {
        return Err(not(format!(
            "schema version {} is not one of {:?}",
            manifest.schema_version,
            crate::trace::READABLE_SCHEMA_VERSIONS
        )));
    }
    Ok(manifest)
}

/// The text of the events file of the trace in `dir`, decompressed.
pub fn events_text(dir: &Path) -> Result<String, StoreError> {
    read_events(&events_path(dir).unwrap_or_else(|| dir.join(EVENTS)))
}

/// A trace from its files' text (a release's key keeps them so); `dir`
/// is where errors say they are.
pub fn parse_trace(
    dir: &Path,
    manifest: &str,
    scene: &str,
    events: &str,
) -> Result<Trace, StoreError> {
    let not = |why: String| StoreError::NotATrace {
        path: dir.into(),
        why,
    };
    let manifest = manifest_of(dir, manifest)?;
    let spath = dir.join(SCENE);
    let scene = scene::parse(&spath.display().to_string(), scene)?;
    let epath = events_path(dir).unwrap_or_else(|| dir.join(EVENTS));
    let mut lines = events.lines().enumerate();
    let line_err = |line: usize, message: String| StoreError::Line {
        path: epath.clone(),
        line,
        message,
    };
    let header: EventsHeader = match lines.next() {
        Some((_, l)) => {
            serde_json::from_str(l).map_err(|e| line_err(1, format!("bad header: {e}")))?
        }
        None => {
            return Err(line_err(
                1,
                "empty file; the first line is the header".into(),
            ));
        }
    };
    if !crate::trace::READABLE_SCHEMA_VERSIONS.contains(&header.schema_version) {
        return Err(line_err(
            1,
            format!("schema version {} is not supported", header.schema_version),
        ));
    }
    let events = lines
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| line_err(i + 1, e.to_string())))
        .collect::<Result<Vec<Event>, _>>()?;
    if events.len() as u64 != manifest.counts.events {
        return Err(not(format!(
            "{} has {} events but {MANIFEST} says {}: the trace is damaged, generate it again",
            epath.file_name().unwrap_or_default().to_string_lossy(),
            events.len(),
            manifest.counts.events
        )));
    }
    Ok(Trace {
        manifest,
        scene,
        events,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_damaged_manifest_is_said_before_a_missing_scene() {
        let t = tempfile::tempdir().unwrap();
        let err = read_trace(t.path()).unwrap_err().to_string();
        assert!(err.contains("no manifest.json"), "{err}");
        std::fs::write(t.path().join(MANIFEST), "{").unwrap();
        let err = read_trace(t.path()).unwrap_err().to_string();
        assert!(err.contains("manifest.json:"), "{err}");
    }
}
