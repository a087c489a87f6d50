//! Results across many households: what each question and household says
//! about difficulty (evidence age, horizon, the robot's presence), the
//! per-agent summary with scene-bootstrap intervals
//! ([`bootstrap`]), its plots ([`plot`]), the answer cost kept beside it
//! ([`cost`]), the dataset card of a batch ([`card`]) and the
//! blind audit of its gold answers ([`audit`]).
//!
//! Everything here is computed from traces, samples and results in memory
//! (no file I/O); `workflow` reads and writes. Wall-clock time appears only in
//! [`cost`], whose figures never enter the deterministic summary.

pub mod audit;
pub mod bootstrap;
pub mod card;
pub mod cost;
mod facts;
mod household;
pub mod plot;
mod summary;

pub use facts::{AGE_BINS, QuestionFacts, kind_of, presence, question_facts};
pub use household::{Household, Origin, Run, Size};
pub use summary::{AgentSummary, Binned, Difference, Method, SUMMARY_SCHEMA, Summary, summarize};
