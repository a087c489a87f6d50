//! What can go wrong in a workflow, as one error a front end reports.

use std::path::PathBuf;

use thiserror::Error;

use crate::samples::Asking;

#[derive(Debug, Error)]
pub enum WorkflowError {
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    #[error(
        "no finished traces in {}: give the --out directory of `hearth batch` (or a directory of trace directories)",
        dir.display()
    )]
    NoTraces { dir: PathBuf },
    #[error("{} is not a batch record: {why}", path.display())]
    Record { path: PathBuf, why: String },
    #[error("no samples at {}: run `hearth mine --trace {}` first", path.display(), trace.display())]
    NoSamples { path: PathBuf, trace: PathBuf },
    #[error(
        "{} of {total} samples mined from {} fail the validity checks (first: {}: {}); nothing written: this is a bug in hearth, please report it with the trace",
        invalid.len(), trace.display(), invalid[0].sample, invalid[0].why
    )]
    Invalid {
        trace: PathBuf,
        /// Never empty.
        invalid: Vec<crate::samples::validate::Invalid>,
        total: usize,
    },
    #[error(
        "{} holds questions asked of the {found}, not of the {wanted}: pass --ask {found}, or give another --samples file to mine into",
        path.display(), found = found.name(), wanted = wanted.name()
    )]
    Asked {
        path: PathBuf,
        found: Asking,
        wanted: Asking,
    },
    #[error("no agent given")]
    NoAgent,
    #[error("cmd: needs a command, e.g. cmd:\"python3 examples/agent.py\"")]
    EmptyCommand,
    #[error("unknown agent {name:?}: use one of {known}, {words} or cmd:\"program\"")]
    UnknownAgent {
        name: String,
        known: String,
        words: String,
    },
    #[error("{what} needs an LLM client")]
    NoClient { what: &'static str },
    #[error("{what}")]
    Llm {
        what: &'static str,
        #[source]
        source: crate::llm::LlmError,
    },
    #[error("linting {}", trace.display())]
    Lint {
        trace: PathBuf,
        #[source]
        source: crate::lint::LintError,
    },
    #[error("reading the day from {}", trace.display())]
    Stats {
        trace: PathBuf,
        #[source]
        source: crate::timeuse::StatsError,
    },
    #[error(transparent)]
    Plot(#[from] crate::study::plot::PlotError),
    #[error(transparent)]
    Procgen(#[from] crate::procgen::ProcgenError),
    #[error("{spec:?} is not gen:<seed> (a whole number, e.g. gen:7)")]
    GenSeed { spec: String },
    #[error(transparent)]
    Job(#[from] crate::jobs::JobError),
    #[error("{origin}: edit {index} ({name}) failed; nothing written")]
    Edit {
        origin: String,
        index: usize,
        name: &'static str,
        #[source]
        source: crate::editor::EditError,
    },
    #[error("replaying {}", trace.display())]
    Replay {
        trace: PathBuf,
        #[source]
        source: crate::sim::ReplayError,
    },
    #[error(transparent)]
    Edits(#[from] crate::editor::EditsSyntaxError),
    #[error("no family {name:?}; families: {known}")]
    UnknownFamily { name: String, known: String },
    #[error("{what}")]
    Bench { what: String },
    #[error("{}: {source}", path.display())]
    Sheet {
        path: PathBuf,
        #[source]
        source: csv::Error,
    },
    #[error(
        "{}:{}: {} of its rows have no verdict (this one, {}, says {:?}): fill the verdict column with right, wrong or ill-formed",
        path.display(), unread[0].row + 1, unread.len(), unread[0].id, unread[0].verdict
    )]
    Unread {
        path: PathBuf,
        /// Never empty.
        unread: Vec<crate::study::audit::Unread>,
    },
    #[error("{} is not empty: a release is frozen once made; give a new directory", dir.display())]
    ReleaseExists { dir: PathBuf },
    #[error("the key {} would be inside the release it hides the answers of: write it elsewhere", key.display())]
    KeyInRelease { key: PathBuf },
    #[error("{} is not the file the release's card names (SHA-256 {got}, the card says {want}): fetch the release again", path.display())]
    Tampered {
        path: PathBuf,
        want: String,
        got: String,
    },
    #[error(
        "{what} was made by hearth {made}, this is {running}: score with the version that made it, as its scoring rules are the release's"
    )]
    Version {
        what: &'static str,
        made: String,
        running: String,
    },
    #[error("{} answers {theirs}, the key is of {ours}: answer the release the key belongs to", path.display())]
    OtherRelease {
        path: PathBuf,
        theirs: String,
        ours: String,
    },
}
