//! File I/O at the edge of the core: reading scenes, scripts and traces,
//! and writing traces atomically.

pub mod atomic;
mod files;
mod samples_file;
mod scenes;
mod script;
mod trace_dir;

pub use files::{StoreError, read_json, read_jsonl, read_text, write_atomic, write_json_array};
pub use samples_file::{parse_samples, read_samples, write_samples};
pub use scenes::{load_scene, load_scene_unvalidated, resolve_scene};
pub use script::{ScriptItem, parse_script, read_script};
pub use trace_dir::{
    EVENTS, EVENTS_ZST, MANIFEST, PLAN, SCENE, Trace, TraceWriter, events_path, events_text,
    is_finished, parse_trace, read_plan, read_trace,
};
