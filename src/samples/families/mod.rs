//! The question families: a module each, implementing [`QuestionFamily`]
//! (its candidates at a cutoff, its reference answer from the index, its
//! wording and phrasings, its false premises, how the words-only reader
//! tells its questions, its export tags, its own checks), registered in
//! [`FAMILIES`] (`table.rs`). Adding a family is its module and its line
//! there (and its [`Family`] and [`Query`] variants).
//!
//! [`Family`]: super::Family
//! [`Query`]: super::Query

mod family;
mod reader;
mod table;

pub mod beliefs;
pub mod commitment;
pub mod counting;
pub mod current_state;
pub mod hidden_state;
pub mod overwritten_state;
pub mod preference;
pub mod presence;
pub mod routine;
pub mod source_aware;
pub mod stock;
pub mod temporal;
pub mod unanswerable;
pub mod upkeep;

pub use family::{CheckAt, QuestionFamily, Reads, Track, Unseen};
pub use reader::{Read, Reading};
pub use table::{FAMILIES, Row, answer_text, of, owner, question_keys, questions, read};
