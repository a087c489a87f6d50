//! Planning `navigate_to`: a walk over open doors.

use super::plan::{Doer, Plan};
use super::step::{Op, Reveal};
use super::view::WorldView;
use crate::ids::Id;
use crate::trace::{Rejection, RejectionCode};

impl WorldView<'_, '_> {
    /// A walk to `target` by the shortest way open, revealing the room walked into.
    pub(super) fn navigate_to(&self, d: Doer, target: &Id) -> Result<Plan, Rejection> {
        let Doer {
            actor, who, me, at, ..
        } = d;
        let goal = self.resolve(target, "room, furniture, device, object or actor", |e| {
            self.anchor(e).is_some()
        })?;
        if self.is_out(goal) {
            return Err(Rejection::new(
                RejectionCode::TargetOutside,
                format!("{target} is out of the house"),
                "walk to something in the house".into(),
            ));
        }
        let Some((dest, point)) = self.anchor(goal).filter(|_| goal != actor) else {
            return Err(Rejection::new(
                RejectionCode::BadTarget,
                format!("{who} cannot walk to {target}"),
                "navigate to a room, furniture, device, object or another actor".into(),
            ));
        };
        if dest == *at {
            return Err(Rejection::new(
                RejectionCode::AlreadyThere,
                format!("{who} is already at {target}"),
                format!("act on {target} directly"),
            ));
        }
        let route = self
            .graph
            .open_route(at.room, self.point(*at), dest.room, point, |door| {
                self.is_open(door)
            })
            .map_err(|b| {
                let (door, side) = (self.id(b.door), self.id(b.near_side));
                Rejection::new(
                    RejectionCode::DoorClosed,
                    format!("{door} is closed and there is no open way to {target}"),
                    if side == self.id(at.room) {
                        format!("open {door} first")
                    } else {
                        format!("navigate_to {side}, open {door}, then navigate_to {target}")
                    },
                )
            })?;
        let secs = (f64::from(route.metres) / f64::from(me.speed))
            .ceil()
            .max(1.0) as u64;
        let mut plan = Plan::new(
            secs,
            vec![Op::Walk {
                actor,
                from: *at,
                to: dest,
            }],
        );
        plan.via = route.rooms;
        plan.reveal = Reveal::Room(dest.room);
        Ok(plan)
    }
}
