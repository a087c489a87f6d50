//! Planning `leave` and `arrive`: going out through an exterior door and
//! coming back in, with what is carried.
//!
//! Rules (docs/requests.md): everything a person holds or carries goes out
//! with them, with the objects of `take` that are within reach on the way
//! out (at the fixture they stand at, or on or in an open fixture of the
//! door's room); all of it rides in their bag ([`Placed::CarriedBy`]), not
//! their hands. Coming in, `bring` names what comes with them (what they
//! carry, or what is outside with no one: a parcel); whatever else they
//! carried stays outside. The door is opened and shut behind them as part
//! of the skill, so its `open` state is the same after as before.

use bevy::prelude::*;

use super::plan::{Doer, Plan};
use super::step::{Op, Reveal};
use super::view::WorldView;
use crate::ids::Id;
use crate::scene::ActorKind;
use crate::sim::world::{At, Placed};
use crate::trace::{Rejection, RejectionCode};

/// Shoes, coat, the door opened and shut.
const DOOR_SECS: u64 = 10;
const PICK_SECS: u64 = 4;

impl WorldView<'_, '_> {
    /// Ids of the exterior doors, in scene order.
    pub(super) fn exterior_doors(&self) -> Vec<&Id> {
        self.registry
            .scene
            .doors
            .iter()
            .filter(|d| d.is_exterior())
            .map(|d| &d.id)
            .collect()
    }

    /// The exterior door `door` names and the room it opens from.
    fn exterior(&self, door: &Id) -> Result<(Entity, Entity, (f32, f32)), Rejection> {
        let e = self.resolve(door, "door", |e| self.doors.contains(e))?;
        let outside = self.registry.outside;
        let doors = self.exterior_doors();
        let hint = if doors.is_empty() {
            "this home has no exterior door; nobody can leave or arrive".to_string()
        } else {
            format!("exterior doors: {}", join(&doors))
        };
        match self.doors.get(e) {
            Ok(d) if d.rooms.contains(&outside) => {
                let inside = if d.rooms[0] == outside {
                    d.rooms[1]
                } else {
                    d.rooms[0]
                };
                Ok((e, inside, d.at))
            }
            _ => Err(Rejection::new(
                RejectionCode::NotExteriorDoor,
                format!("{door} does not lead outside"),
                hint,
            )),
        }
    }

    /// Going out through `door` with what is on the person and `take`.
    pub(super) fn leave(&self, d: Doer, door: &Id, take: &[Id]) -> Result<Plan, Rejection> {
        let Doer {
            actor,
            who,
            me,
            at,
            hands,
        } = d;
        if me.kind == ActorKind::Robot {
            return Err(Rejection::new(
                RejectionCode::RobotStaysHome,
                format!("{who} is the robot, which never leaves the house"),
                "stay home and receive what comes in (wait)".into(),
            ));
        }
        if self.registry.is_outside(at.room) {
            return Err(Rejection::new(
                RejectionCode::AlreadyOutside,
                format!("{who} is out of the house already"),
                "arrive first, or wait".into(),
            ));
        }
        let (_, room, point) = self.exterior(door)?;
        let route = self
            .graph
            .open_route(at.room, self.point(*at), room, point, |x| self.is_open(x))
            .map_err(|b| {
                let door = self.id(b.door);
                Rejection::new(
                    RejectionCode::DoorClosed,
                    format!(
                        "{door} is closed and there is no open way to {}",
                        self.id(room)
                    ),
                    format!("open {door} first"),
                )
            })?;
        let mut ops = vec![Op::Walk {
            actor,
            from: *at,
            to: At {
                room: self.registry.outside,
                near: None,
            },
        }];
        let mut dur = (f64::from(route.metres) / f64::from(me.speed)).ceil() as u64 + DOOR_SECS;
        let mut going: Vec<Entity> = Vec::new();
        for &h in &hands.0 {
            ops.push(Op::Move {
                object: h,
                from: Placed::HeldBy(actor),
                to: Placed::CarriedBy(actor),
            });
            going.push(h);
        }
        for id in take {
            let e = self.resolve(id, "object", |e| self.items.contains(e))?;
            let Ok((_, placed)) = self.items.get(e) else {
                return Err(Rejection::new(
                    RejectionCode::NotPickable,
                    format!("{id} is not a movable object"),
                    "take objects, not furniture, devices or people".into(),
                ));
            };
            if going.contains(&e) {
                continue;
            }
            match *placed {
                Placed::CarriedBy(a) if a == actor => continue,
                Placed::HeldBy(a) | Placed::CarriedBy(a) => {
                    return Err(Rejection::new(
                        RejectionCode::HeldByOther,
                        format!("{} has {id}", self.id(a)),
                        format!("ask {} to hand it over first", self.id(a)),
                    ));
                }
                Placed::Outside => {
                    return Err(Rejection::new(
                        RejectionCode::TargetOutside,
                        format!("{id} is out of the house"),
                        "leave it out of take; it is not here to take".into(),
                    ));
                }
                p @ (Placed::On(r) | Placed::In(r)) => {
                    let reach = at.near == Some(r) || self.room_of(r) == Some(room);
                    if !reach {
                        return Err(Rejection::new(
                            RejectionCode::NotColocated,
                            format!("{id} is not within {who}'s reach on the way out"),
                            format!(
                                "take what you hold, what is at where you stand, or what lies in {}; or pick {id} first",
                                self.id(room)
                            ),
                        ));
                    }
                    if matches!(p, Placed::In(_)) && !self.is_open(r) {
                        return Err(Rejection::new(
                            RejectionCode::InsideClosedContainer,
                            format!("{id} is inside {}, which is closed", self.id(r)),
                            format!("open {} first", self.id(r)),
                        ));
                    }
                    ops.push(Op::Move {
                        object: e,
                        from: p,
                        to: Placed::CarriedBy(actor),
                    });
                    going.push(e);
                    dur += PICK_SECS;
                }
            }
        }
        let mut plan = Plan::new(dur.max(1), ops);
        plan.via = route.rooms;
        Ok(plan)
    }

    /// Coming in through `door` with `bring`; the rest of the bag stays out.
    pub(super) fn arrive(&self, d: Doer, door: &Id, bring: &[Id]) -> Result<Plan, Rejection> {
        let Doer { actor, who, at, .. } = d;
        if !self.registry.is_outside(at.room) {
            return Err(Rejection::new(
                RejectionCode::AlreadyHome,
                format!("{who} is in the house already"),
                "leave first to come back".into(),
            ));
        }
        let (_, room, _) = self.exterior(door)?;
        let mut ops = vec![Op::Walk {
            actor,
            from: *at,
            to: At { room, near: None },
        }];
        let mut coming: Vec<Entity> = Vec::new();
        for id in bring {
            let e = self.resolve(id, "object", |e| self.items.contains(e))?;
            let Ok((_, placed)) = self.items.get(e) else {
                return Err(Rejection::new(
                    RejectionCode::NotPickable,
                    format!("{id} is not a movable object"),
                    "bring objects, not furniture, devices or people".into(),
                ));
            };
            if coming.contains(&e) {
                continue;
            }
            match *placed {
                Placed::CarriedBy(a) if a == actor => {}
                Placed::Outside => ops.push(Op::Move {
                    object: e,
                    from: Placed::Outside,
                    to: Placed::CarriedBy(actor),
                }),
                Placed::CarriedBy(a) if self.is_out(a) => {
                    return Err(Rejection::new(
                        RejectionCode::HeldByOther,
                        format!("{} has {id}, out of the house", self.id(a)),
                        format!("let {} bring it", self.id(a)),
                    ));
                }
                _ => {
                    return Err(Rejection::new(
                        RejectionCode::NotOutside,
                        format!("{id} is in the house, not outside"),
                        "bring only what you carry or what waits outside (a parcel, groceries)"
                            .into(),
                    ));
                }
            }
            coming.push(e);
        }
        for &e in self
            .bags
            .get(actor)
            .map(|b| b.0.as_slice())
            .unwrap_or_default()
        {
            if !coming.contains(&e) {
                ops.push(Op::Move {
                    object: e,
                    from: Placed::CarriedBy(actor),
                    to: Placed::Outside,
                });
            }
        }
        let mut plan = Plan::new(DOOR_SECS, ops);
        plan.reveal = Reveal::Room(room);
        Ok(plan)
    }
}

fn join(ids: &[&Id]) -> String {
    ids.iter()
        .map(|i| i.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
