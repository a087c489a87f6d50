//! Planning what moves objects: `pick`, `place` and `handoff`; `use`, a
//! serving of a thing used where it is; and `write` on a list.

use bevy::prelude::*;

use super::plan::{Doer, Plan};
use super::step::Op;
use super::view::WorldView;
use crate::ids::Id;
use crate::sim::world::{Hands, Note, Placed, Servings};
use crate::trace::request::Relation;
use crate::trace::{Rejection, RejectionCode};

const PICK_SECS: u64 = 4;
const HANDOFF_SECS: u64 = 3;
/// Pouring a glass, taking a slice or a tablet.
const USE_SECS: u64 = 5;
/// A line added to a list, or some crossed off.
const WRITE_SECS: u64 = 10;

impl WorldView<'_, '_> {
    /// Taking `object` into the actor's hands from where it lies.
    pub(super) fn pick(&self, d: Doer, object: &Id) -> Result<Plan, Rejection> {
        let Doer {
            actor,
            who,
            me,
            at,
            hands,
        } = d;
        let e = self.resolve(object, "object", |e| self.items.contains(e))?;
        let Ok((_, placed)) = self.items.get(e) else {
            return Err(Rejection::new(
                RejectionCode::NotPickable,
                format!("{object} is not a movable object"),
                "pick up objects, not furniture, devices or people".into(),
            ));
        };
        let from = match *placed {
            _ if self.is_out(e) => {
                return Err(Rejection::new(
                    RejectionCode::TargetOutside,
                    format!("{object} is out of the house"),
                    "wait until someone brings it in".into(),
                ));
            }
            // Out of one's own bag into the hands.
            p @ Placed::CarriedBy(h) if h == actor => p,
            Placed::HeldBy(h) if h == actor => {
                return Err(Rejection::new(
                    RejectionCode::AlreadyHolding,
                    format!("{who} already holds {object}"),
                    "place it or hand it off".into(),
                ));
            }
            Placed::HeldBy(h) | Placed::CarriedBy(h) => {
                return Err(Rejection::new(
                    RejectionCode::HeldByOther,
                    format!("{} is holding {object}", self.id(h)),
                    format!("ask {} to hand it over", self.id(h)),
                ));
            }
            Placed::Outside => unreachable!("is_out covers it"),
            p @ (Placed::On(r) | Placed::In(r)) => {
                if at.near != Some(r) {
                    return Err(self.not_near(actor, e, &format!("pick {object}")));
                }
                if matches!(p, Placed::In(_)) && !self.is_open(r) {
                    return Err(Rejection::new(
                        RejectionCode::InsideClosedContainer,
                        format!("{object} is inside {}, which is closed", self.id(r)),
                        format!("open {} first", self.id(r)),
                    ));
                }
                p
            }
        };
        if hands.0.len() as u32 >= me.hands {
            let held: Vec<&str> = hands.0.iter().map(|h| self.id(*h).as_str()).collect();
            return Err(Rejection::new(
                RejectionCode::HandsFull,
                format!("{who}'s hands are full ({})", held.join(", ")),
                format!("place {} somewhere first", held[0]),
            ));
        }
        Ok(Plan::new(
            PICK_SECS,
            vec![Op::Move {
                object: e,
                from,
                to: Placed::HeldBy(actor),
            }],
        ))
    }

    /// Putting a held `object` on or in `target`.
    pub(super) fn place(
        &self,
        d: Doer,
        object: &Id,
        target: &Id,
        relation: Relation,
    ) -> Result<Plan, Rejection> {
        let Doer {
            actor,
            who,
            at,
            hands,
            ..
        } = d;
        let e = self.resolve(object, "object", |e| self.items.contains(e))?;
        let Some(from) = self.on_person(actor, hands, e) else {
            let where_ = self
                .items
                .get(e)
                .map(|(_, p)| self.describe_placed(*p))
                .unwrap_or_else(|_| "not an object".into());
            return Err(Rejection::new(
                RejectionCode::NotHolding,
                format!("{who} is not holding {object} ({where_})"),
                format!("pick {object} first"),
            ));
        };
        let r = self.resolve(target, "receptacle", |e| self.receptacles.contains(e))?;
        let inside = relation == Relation::In;
        let Ok(rec) = self.receptacles.get(r) else {
            return Err(Rejection::new(
                RejectionCode::NotAReceptacle,
                format!("{target} has no surface to put things on or in"),
                format!(
                    "place it on or in furniture; in this room: {}",
                    self.suggest(target.as_str(), |e| self.receptacles.contains(e)
                        && self.room_of(e) == Some(at.room))
                ),
            ));
        };
        let Some(slot) = rec.slot(inside) else {
            let other = if inside { "on" } else { "in" };
            let rel = if inside { "in" } else { "on" };
            return Err(Rejection::new(
                RejectionCode::NoSuchSurface,
                format!("nothing can go {rel} {target}"),
                format!("use relation \"{other}\""),
            ));
        };
        if at.near != Some(r) {
            return Err(self.not_near(actor, r, &format!("place {object}")));
        }
        if inside && !self.is_open(r) {
            return Err(Rejection::new(
                RejectionCode::ContainerClosed,
                format!("{target} is closed"),
                format!("open {target} first"),
            ));
        }
        if slot.items.len() as u32 >= slot.capacity {
            return Err(Rejection::new(
                RejectionCode::CapacityFull,
                format!(
                    "{target} is full ({} of {})",
                    slot.items.len(),
                    slot.capacity
                ),
                "place it somewhere else or take something out first".into(),
            ));
        }
        let to = if inside { Placed::In(r) } else { Placed::On(r) };
        Ok(Plan::new(
            PICK_SECS,
            vec![Op::Move {
                object: e,
                from,
                to,
            }],
        ))
    }

    /// Handing a held `object` to the actor `to`.
    pub(super) fn handoff(&self, d: Doer, object: &Id, to: &Id) -> Result<Plan, Rejection> {
        let Doer {
            actor,
            who,
            at,
            hands,
            ..
        } = d;
        let e = self.resolve(object, "object", |e| self.items.contains(e))?;
        let Some(from) = self.on_person(actor, hands, e) else {
            return Err(Rejection::new(
                RejectionCode::NotHolding,
                format!("{who} is not holding {object}"),
                format!("pick {object} first"),
            ));
        };
        let other = self.resolve(to, "actor", |e| self.is_actor(e))?;
        let Ok((them, their_at, their_hands, _)) = self.actors.get(other) else {
            return Err(Rejection::new(
                RejectionCode::NotAnActor,
                format!("{to} is not an actor"),
                "hand objects to people or robots; use place for furniture".into(),
            ));
        };
        if other == actor {
            return Err(Rejection::new(
                RejectionCode::SelfHandoff,
                format!("{who} cannot hand {object} to itself"),
                "name another actor".into(),
            ));
        }
        if self.registry.is_outside(their_at.room) {
            return Err(Rejection::new(
                RejectionCode::TargetOutside,
                format!("{to} is out of the house"),
                format!("wait until {to} arrives"),
            ));
        }
        if their_at.room != at.room {
            return Err(Rejection::new(
                RejectionCode::PartnerNotColocated,
                format!("{to} is in {}, not with {who}", self.id(their_at.room)),
                format!("navigate_to {to} first"),
            ));
        }
        if their_hands.0.len() as u32 >= them.hands {
            return Err(Rejection::new(
                RejectionCode::PartnerHandsFull,
                format!("{to}'s hands are full"),
                format!("ask {to} to put something down first"),
            ));
        }
        Ok(Plan::new(
            HANDOFF_SECS,
            vec![Op::Move {
                object: e,
                from,
                to: Placed::HeldBy(other),
            }],
        ))
    }

    fn describe_placed(&self, p: Placed) -> String {
        match p {
            Placed::On(r) => format!("it is on {}", self.id(r)),
            Placed::In(r) => format!("it is in {}", self.id(r)),
            Placed::HeldBy(a) => format!("{} holds it", self.id(a)),
            Placed::CarriedBy(a) => format!("{} carries it", self.id(a)),
            Placed::Outside => "it is out of the house".into(),
        }
    }

    /// Where `object` is on `actor` (in the hands or the bag), if it is:
    /// what is carried can be put down or handed over like what is held.
    fn on_person(&self, actor: Entity, hands: &Hands, object: Entity) -> Option<Placed> {
        if hands.0.contains(&object) {
            return Some(Placed::HeldBy(actor));
        }
        match self.items.get(object).ok()?.1 {
            Placed::CarriedBy(a) if *a == actor => Some(Placed::CarriedBy(actor)),
            _ => None,
        }
    }

    /// A serving of `object` used: held by the actor, or where it lies at
    /// the fixture the actor stands at (open, if inside).
    pub(super) fn use_one(&self, d: Doer, object: &Id) -> Result<Plan, Rejection> {
        let e = self.resolve(object, "object", |e| self.items.contains(e))?;
        let Ok(&Servings { of, left }) = self.servings.get(e) else {
            return Err(Rejection::new(
                RejectionCode::NotConsumable,
                format!("{object} is not used up a serving at a time"),
                "use food and supplies (milk, coffee, detergent, ...); move other things with pick and place".into(),
            ));
        };
        self.at_hand(d, e, object, "use")?;
        let old = left.unwrap_or(of);
        if old == 0 {
            return Err(Rejection::new(
                RejectionCode::Empty,
                format!("{object} is empty"),
                "throw it out and use another, or put it on the shopping list".into(),
            ));
        }
        Ok(Plan::new(
            USE_SECS,
            vec![Op::SetLevel {
                object: e,
                old,
                new: old - 1,
            }],
        ))
    }

    /// Whether the actor can work on `object` (`e`) where it is: in its
    /// hands, or where it lies at the fixture it stands at (open, if
    /// inside); not out of the house, in someone else's hands or a bag.
    fn at_hand(&self, d: Doer, e: Entity, object: &Id, verb: &str) -> Result<(), Rejection> {
        let Doer { actor, who, at, .. } = d;
        if self.is_out(e) {
            return Err(Rejection::new(
                RejectionCode::TargetOutside,
                format!("{object} is out of the house"),
                "wait until someone brings it in".into(),
            ));
        }
        match self.items.get(e).map(|(_, p)| *p) {
            Ok(Placed::HeldBy(h)) if h == actor => {}
            Ok(Placed::HeldBy(h) | Placed::CarriedBy(h)) if h != actor => {
                return Err(Rejection::new(
                    RejectionCode::HeldByOther,
                    format!("{} is holding {object}", self.id(h)),
                    format!("ask {} to hand it over", self.id(h)),
                ));
            }
            Ok(Placed::CarriedBy(_)) => {
                return Err(Rejection::new(
                    RejectionCode::NotHolding,
                    format!("{object} is in {who}'s bag"),
                    format!("pick {object} out of the bag first"),
                ));
            }
            Ok(p @ (Placed::On(r) | Placed::In(r))) => {
                if at.near != Some(r) {
                    return Err(self.not_near(actor, e, &format!("{verb} {object}")));
                }
                if matches!(p, Placed::In(_)) && !self.is_open(r) {
                    return Err(Rejection::new(
                        RejectionCode::InsideClosedContainer,
                        format!("{object} is inside {}, which is closed", self.id(r)),
                        format!("open {} first", self.id(r)),
                    ));
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Writing on `object`: what is written on it becomes `text`.
    pub(super) fn write(&self, d: Doer, object: &Id, text: &str) -> Result<Plan, Rejection> {
        let e = self.resolve(object, "object", |e| self.items.contains(e))?;
        let Ok(Note(old)) = self.notes.get(e) else {
            return Err(Rejection::new(
                RejectionCode::NotWritable,
                format!("nothing is written on {object}"),
                "write on the shopping list; say aloud what is not written down".into(),
            ));
        };
        self.at_hand(d, e, object, "write on")?;
        if old.as_deref().unwrap_or_default() == text {
            return Err(Rejection::new(
                RejectionCode::NoChange,
                format!("{object} already reads {text:?}"),
                "write only to add or cross something off".into(),
            ));
        }
        Ok(Plan::new(
            WRITE_SECS,
            vec![Op::SetText {
                object: e,
                old: old.clone(),
                new: text.to_string(),
            }],
        ))
    }
}
