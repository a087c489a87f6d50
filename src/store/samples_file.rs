//! `samples.jsonl`: a header line, then one sample per line.

use std::path::Path;

use crate::samples::{SAMPLES_SCHEMA, Sample, SamplesHeader};

use super::files::{StoreError, read_text, write_atomic};

/// Writes the samples file atomically (a temporary sibling renamed into place).
pub fn write_samples(
    path: &Path,
    header: &SamplesHeader,
    samples: &[Sample],
) -> Result<(), StoreError> {
    let mut bytes = serde_json::to_vec(header).expect("headers serialize");
    for s in samples {
        bytes.push(b'\n');
        serde_json::to_writer(&mut bytes, s).expect("samples serialize");
    }
    bytes.push(b'\n');
    write_atomic(path, &bytes)
}

/// Reads a samples file, checking its header.
pub fn read_samples(path: &Path) -> Result<(SamplesHeader, Vec<Sample>), StoreError> {
    parse_samples(path, &read_text(path)?)
}

/// A samples file's header and samples from its text; `path` is where
/// errors say they are.
pub fn parse_samples(path: &Path, text: &str) -> Result<(SamplesHeader, Vec<Sample>), StoreError> {
    let line_err = |line: usize, message: String| StoreError::Line {
        path: path.into(),
        line,
        message,
    };
    let mut lines = text.lines().enumerate();
    let header: SamplesHeader = match lines.next() {
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
    if header.schema != SAMPLES_SCHEMA
        || !crate::trace::READABLE_SCHEMA_VERSIONS.contains(&header.schema_version)
    {
        return Err(line_err(
            1,
            format!(
                "schema {} version {} is not {SAMPLES_SCHEMA} version {}",
                header.schema,
                header.schema_version,
                crate::trace::SCHEMA_VERSION
            ),
        ));
    }
    let samples = lines
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| line_err(i + 1, e.to_string())))
        .collect::<Result<Vec<Sample>, _>>()?;
    Ok((header, samples))
}
