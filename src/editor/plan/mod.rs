//! Checked commands planned into raw steps over an index of the scene as
//! it stands: refused here, before anything changes, or applied as steps
//! that cannot fail on the scene they were planned for. One file per
//! family of commands.

mod actors;
mod dispatch;
mod doors;
mod fields;
mod fixtures;
mod objects;
pub mod palette;
mod remove;
mod rooms;

pub use dispatch::plan;
