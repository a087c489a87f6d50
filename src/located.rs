//! RON text that does not parse, located: `file:line:col: message`. The one
//! error shape of every RON input (scenes, the catalogue, time-use bands,
//! EDITS.ron files).

use serde::de::DeserializeOwned;
use thiserror::Error;

/// Where RON text stopped parsing, and why. `origin` names the source (a
/// path); lines and columns count from 1.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{origin}:{line}:{col}: {message}")]
pub struct SyntaxError {
    pub origin: String,
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl SyntaxError {
    /// The error `ron` reports, located in `origin`.
    pub fn of(origin: &str, e: ron::error::SpannedError) -> Self {
        SyntaxError {
            origin: origin.to_string(),
            line: e.span.start.line,
            col: e.span.start.col,
            message: e.code.to_string(),
        }
    }
}

/// Reads `src` as a `T` with `options` (extensions), or says where not.
pub fn parse_ron<T: DeserializeOwned>(
    options: ron::Options,
    origin: &str,
    src: &str,
) -> Result<T, SyntaxError> {
    options
        .from_str(src)
        .map_err(|e| SyntaxError::of(origin, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_syntax_error_names_its_origin_line_and_column() {
        let e = parse_ron::<Vec<u32>>(ron::Options::default(), "a.ron", "[1,\n  x]").unwrap_err();
        assert_eq!((e.origin.as_str(), e.line, e.col), ("a.ron", 2, 3));
        assert!(e.to_string().starts_with("a.ron:2:3: "), "{e}");
        assert_eq!(
            parse_ron::<Vec<u32>>(ron::Options::default(), "a.ron", "[1, 2]"),
            Ok(vec![1, 2])
        );
    }
}
