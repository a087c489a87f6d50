//! An activity: how the script directs a session of one kind, as turns
//! of the people in it. Each kind's is registered in `table.rs`.

use super::household::Scripted;
use super::stage::Stage;
use crate::generation::{GenError, Turn};

/// Directs a session: the turns of who is in it, in order. Reads and
/// changes the household (its draws, its ledgers) as the session goes.
pub(super) trait Activity: Sync {
    fn direct(&self, h: &mut Scripted, x: &Stage, turns: &mut Vec<Turn>) -> Result<(), GenError>;
}
