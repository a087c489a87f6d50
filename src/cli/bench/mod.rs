//! `hearth bench`: figures for the performance guide (docs/performance.md).
//! Timing lives here, at the binary edge; the core never reads a clock.

mod args;
mod editor;
mod executor;
mod horizon;
mod llm;
mod run;
mod runs;

pub use args::BenchArgs;
pub use run::run;
