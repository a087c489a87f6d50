//! Request scripts (`hearth run --script`): one request per line, and
//! the session labels between them.

use std::path::Path;

use crate::trace::request::Request;

use super::files::{StoreError, read_text};

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
