//! Plausibility checks over a trace: things a household does not do
//! (walking through closed doors, perishables out overnight, an oven on with
//! nothing in it, the robot clearing plates from under people eating). The
//! executor keeps a trace *possible*; these rules ask whether it is
//! *plausible*, so a memory benchmark does not inherit the oddities.
//!
//! Rules walk the events over the exact state (the scene's initial state
//! with each accepted event's changes applied). Each has a stable code; a
//! finding names the event, its time and the entities involved. No I/O.

mod habit_log;
mod habits;
mod outside;
mod rule;
mod walk;

pub use rule::{Finding, LintError, Rule, counts};
pub use walk::{lint, lint_planned, words_off_time};
