//! Planning `inspect`: looking closely at a thing, or around the room.

use super::plan::{Doer, Plan};
use super::step::Reveal;
use super::view::WorldView;
use crate::ids::Id;
use crate::trace::{Rejection, RejectionCode};

const INSPECT_SECS: u64 = 3;
const LOOK_AROUND_SECS: u64 = 5;

impl WorldView<'_, '_> {
    /// Looking at `target`, or around the room the actor is in.
    pub(super) fn inspect(&self, d: Doer, target: &Id) -> Result<Plan, Rejection> {
        let Doer { actor, who, at, .. } = d;
        let e = self.resolve(target, "thing", |e| {
            self.fixtures.contains(e)
                || self.items.contains(e)
                || self.is_actor(e)
                || self.rooms.contains(e)
        })?;
        // Looking around the room one is in shows all of it.
        if self.rooms.contains(e) {
            if e != at.room {
                return Err(Rejection::new(
                    RejectionCode::NotColocated,
                    format!("{who} is not in {target}"),
                    format!("navigate_to {target} first"),
                ));
            }
            let mut plan = Plan::new(LOOK_AROUND_SECS, vec![]);
            plan.reveal = Reveal::Room(e);
            return Ok(plan);
        }
        if !(self.fixtures.contains(e) || self.items.contains(e) || self.is_actor(e)) || e == actor
        {
            return Err(Rejection::new(
                RejectionCode::BadTarget,
                format!("{target} cannot be inspected"),
                "inspect furniture, a device, an object, another actor or the room you are in"
                    .into(),
            ));
        }
        if self.is_out(e) {
            return Err(Rejection::new(
                RejectionCode::TargetOutside,
                format!("{target} is out of the house"),
                "inspect something in the house".into(),
            ));
        }
        if self.room_of(e) != Some(at.room) {
            return Err(Rejection::new(
                RejectionCode::NotColocated,
                format!("{target} is not in the room {who} is in"),
                format!("navigate_to {target} first"),
            ));
        }
        if let Some(c) = self.closed_container(e) {
            return Err(Rejection::new(
                RejectionCode::NotVisible,
                format!("{target} is inside the closed {}", self.id(c)),
                format!("open {} first", self.id(c)),
            ));
        }
        let mut plan = Plan::new(INSPECT_SECS, vec![]);
        plan.reveal = Reveal::Target(e);
        Ok(plan)
    }
}
