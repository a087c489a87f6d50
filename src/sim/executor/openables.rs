//! Planning `open` and `close`, of doors and containers alike.

use super::plan::{Doer, Plan};
use super::step::{Op, Reveal};
use super::view::WorldView;
use crate::ids::Id;
use crate::trace::{Rejection, RejectionCode};

const OPEN_SECS: u64 = 2;

impl WorldView<'_, '_> {
    /// Opening (`open`) or closing `target`; opening a container reveals its contents.
    pub(super) fn set_open(&self, d: Doer, target: &Id, open: bool) -> Result<Plan, Rejection> {
        let Doer { actor, who, at, .. } = d;
        let e = self.resolve(target, "openable thing", |e| self.openables.contains(e))?;
        let Ok(state) = self.openables.get(e) else {
            return Err(Rejection::new(
                RejectionCode::NotOpenable,
                format!("{target} does not open or close"),
                format!(
                    "openable things in this room: {}",
                    self.suggest(target.as_str(), |e| self.openables.contains(e)
                        && self.room_of(e).is_none_or(|r| r == at.room))
                ),
            ));
        };
        if let Ok(door) = self.doors.get(e) {
            if !door.rooms.contains(&at.room) {
                return Err(Rejection::new(
                    RejectionCode::NotColocated,
                    format!("{target} is not a door of the room {who} is in"),
                    format!("navigate_to {} first", self.id(door.rooms[0])),
                ));
            }
        } else if at.near != Some(e) {
            return Err(self.not_near(actor, e, if open { "open it" } else { "close it" }));
        }
        if state.open == open {
            let code = if open {
                RejectionCode::AlreadyOpen
            } else {
                RejectionCode::AlreadyClosed
            };
            return Err(Rejection::new(
                code,
                format!(
                    "{target} is already {}",
                    if open { "open" } else { "closed" }
                ),
                "no need to do it again".into(),
            ));
        }
        let mut plan = Plan::new(OPEN_SECS, vec![Op::SetOpen { target: e, open }]);
        if open && self.receptacles.contains(e) {
            plan.reveal = Reveal::Contents(e);
        }
        Ok(plan)
    }
}
