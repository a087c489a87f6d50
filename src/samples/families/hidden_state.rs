//! Hidden state: a current-state question whose answer is the last value
//! the robot saw, which may have changed out of its sight since, said so
//! (the current-state family asks it; its answer files it here). Asked of
//! the household, also a state the robot never saw at all.

use crate::samples::phrasing::Phrasings;

use super::family::QuestionFamily;
use super::reader::Reading;

pub struct HiddenState;

/// It asks no query of its own.
pub const QUERIES: &[&str] = &[];

/// Its questions are worded by the current-state templates.
pub const PHRASINGS: Phrasings = &[];

/// The words-only reader reads them as current-state questions.
pub const READINGS: &[Reading] = &[];

/// What it does with its questions is the current-state family's.
impl QuestionFamily for HiddenState {}
