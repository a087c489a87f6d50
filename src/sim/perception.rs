//! Visibility: who perceives each event, what becomes visible, and each
//! actor's incrementally kept last-seen view ([`Beliefs`]).
//!
//! The rules (docs/visibility.md states them for users):
//! - an action is perceived by the actor and everyone in the actor's room;
//!   navigation also by everyone in the rooms walked through and arrived in;
//!   opening or closing a door by everyone in the two rooms it joins; a
//!   device operated from another room (remote) by the actor and everyone in
//!   the device's room;
//! - an utterance is heard in the speaker's room and in rooms joined to it
//!   by an open door or an archway;
//! - perceivers learn the new value of every change;
//! - arriving in a room shows everything visible there (to everyone in it);
//!   opening a container shows its contents; inspecting shows the target;
//! - nothing inside a closed container is ever visible;
//! - an actor in standby (a robot docked away) perceives nothing but its
//!   own actions until its wait ends; looking around its room afterwards
//!   (inspecting the room) brings its view of the room up to date;
//! - a person out of the house perceives nothing and is perceived by
//!   nobody: the outside is in no event's rooms.
//!
//! Together these keep one invariant, checked by the property tests: every
//! actor's belief about everything visible from where it stands is true
//! (for an actor back from standby, once it has looked around).

use bevy::prelude::*;

use crate::ids::Id;
use crate::trace::{Change, Fact, Location, Value};

use super::executor::{Op, Reveal, Step, WorldView};
use super::world::*;
use crate::trace::request::Action;

/// What a look shows: the facts in trace terms, each with its slot in the
/// [`BeliefKeys`] and, for a location on or in a fixture, that fixture;
/// and the surfaces whose contents were seen in full, as (fixture, inside).
#[derive(Default)]
pub struct Seen {
    pub facts: Vec<Fact>,
    marks: Vec<Mark>,
    pub scanned: Vec<(Entity, bool)>,
}

/// A perceived key's slot, and the fixture (and whether inside) its value
/// places an object on or in.
type Mark = (usize, Option<(Entity, bool)>);

impl Seen {
    fn push(
        &mut self,
        view: &WorldView,
        e: Entity,
        attr: &Id,
        value: Value,
        holder: Option<(Entity, bool)>,
    ) {
        self.marks.push((view.slot(e, attr), holder));
        self.facts.push(Fact {
            entity: view.id(e).clone(),
            attr: attr.clone(),
            value,
        });
        // A thing seen is seen with what is left in it, once it was used.
        let level = &view.registry.attrs.level;
        if attr != level
            && let Ok(Servings { left: Some(n), .. }) = view.servings.get(e)
        {
            self.push(view, e, level, Value::Int(i64::from(*n)), None);
        }
        // And a list with what is written on it, once written.
        let text = &view.registry.attrs.text;
        if attr != text
            && let Ok(Note(Some(t))) = view.notes.get(e)
        {
            self.push(view, e, text, Value::Text(t.clone()), None);
        }
    }
}

/// The fixture a placement puts an object on or in.
fn holder(p: Placed) -> Option<(Entity, bool)> {
    match p {
        Placed::On(r) => Some((r, false)),
        Placed::In(r) => Some((r, true)),
        Placed::HeldBy(_) | Placed::CarriedBy(_) | Placed::Outside => None,
    }
}

impl WorldView<'_, '_> {
    /// The belief slot of `e`'s `attr`: everything perception reports is one.
    fn slot(&self, e: Entity, attr: &Id) -> usize {
        self.registry
            .belief_keys
            .slot(e, attr)
            .expect("perception reports only keys of the belief table")
    }

    /// Everything visible in a room: fixtures' open state and device fields,
    /// objects on surfaces, in open containers and in hands, actors' positions
    /// and openable doors, with the surfaces whose contents were seen in full.
    pub fn room_facts(&self, room: Entity, seen: &mut Seen) {
        if self.registry.is_outside(room) {
            return; // who is out sees nothing of the house
        }
        let attrs = &self.registry.attrs;
        for &d in self.registry.room_doors.get(&room).into_iter().flatten() {
            if let Ok(o) = self.openables.get(d) {
                seen.push(self, d, &attrs.open, Value::Bool(o.open), None);
            }
        }
        for &f in self.registry.room_fixtures.get(&room).into_iter().flatten() {
            self.fixture_facts(f, seen);
        }
        for &a in &self.registry.actors {
            if self
                .actors
                .get(a)
                .is_ok_and(|(_, at, _, _)| at.room == room)
            {
                self.actor_facts(a, seen);
            }
        }
    }

    fn fixture_facts(&self, f: Entity, seen: &mut Seen) {
        let attrs = &self.registry.attrs;
        let id = self.id(f);
        let open = self.openables.get(f).ok().map(|o| o.open);
        if let Some(o) = open {
            seen.push(self, f, &attrs.open, Value::Bool(o), None);
        }
        if let Ok(d) = self.devices.get(f) {
            for (name, field) in &d.fields {
                seen.push(self, f, name, field_value(field), None);
            }
        }
        if let Ok(rec) = self.receptacles.get(f) {
            if let Some(on) = &rec.on {
                seen.scanned.push((f, false));
                for &i in &on.items {
                    let value = Value::Location(Location::On(id.clone()));
                    seen.push(self, i, &attrs.location, value, Some((f, false)));
                }
            }
            if let Some(inside) = rec.inside.as_ref().filter(|_| open != Some(false)) {
                seen.scanned.push((f, true));
                self.contents_facts(f, &inside.items, seen);
            }
        }
    }

    fn contents_facts(&self, f: Entity, items: &[Entity], seen: &mut Seen) {
        let id = self.id(f);
        for &i in items {
            let value = Value::Location(Location::In(id.clone()));
            seen.push(
                self,
                i,
                &self.registry.attrs.location,
                value,
                Some((f, true)),
            );
        }
    }

    fn actor_facts(&self, a: Entity, seen: &mut Seen) {
        let Ok((_, at, hands, _)) = self.actors.get(a) else {
            return;
        };
        let attrs = &self.registry.attrs;
        let value = position_value(&self.keys, *at);
        seen.push(self, a, &attrs.position, value, None);
        for &i in &hands.0 {
            let value = Value::Location(Location::HeldBy(self.id(a).clone()));
            seen.push(self, i, &attrs.location, value, None);
        }
        for &i in self.bags.get(a).map(|b| b.0.as_slice()).unwrap_or_default() {
            let value = Value::Location(Location::CarriedBy(self.id(a).clone()));
            seen.push(self, i, &attrs.location, value, None);
        }
    }

    /// The belief slot an op changes, and the fixture its new value names.
    fn op_mark(&self, op: &Op) -> Mark {
        let attrs = &self.registry.attrs;
        match op {
            Op::Move { object, to, .. } => (self.slot(*object, &attrs.location), holder(*to)),
            Op::Walk { actor, .. } => (self.slot(*actor, &attrs.position), None),
            Op::SetOpen { target, .. } => (self.slot(*target, &attrs.open), None),
            Op::SetField { device, field, .. } => (self.slot(*device, field), None),
            Op::SetLevel { object, .. } => (self.slot(*object, &attrs.level), None),
            Op::SetText { object, .. } => (self.slot(*object, &attrs.text), None),
        }
    }

    /// A state change in trace terms.
    pub fn change(&self, op: &Op) -> Change {
        let attrs = &self.registry.attrs;
        match op {
            Op::Move { object, from, to } => Change {
                entity: self.id(*object).clone(),
                attr: attrs.location.clone(),
                old: location_value(&self.keys, *from),
                new: location_value(&self.keys, *to),
            },
            Op::Walk { actor, from, to } => Change {
                entity: self.id(*actor).clone(),
                attr: attrs.position.clone(),
                old: position_value(&self.keys, *from),
                new: position_value(&self.keys, *to),
            },
            Op::SetOpen { target, open } => Change {
                entity: self.id(*target).clone(),
                attr: attrs.open.clone(),
                old: Value::Bool(!open),
                new: Value::Bool(*open),
            },
            Op::SetField {
                device,
                field,
                old,
                new,
            } => Change {
                entity: self.id(*device).clone(),
                attr: field.clone(),
                old: field_value(old),
                new: field_value(new),
            },
            Op::SetLevel { object, old, new } => Change {
                entity: self.id(*object).clone(),
                attr: attrs.level.clone(),
                old: Value::Int(i64::from(*old)),
                new: Value::Int(i64::from(*new)),
            },
            Op::SetText { object, old, new } => Change {
                entity: self.id(*object).clone(),
                attr: attrs.text.clone(),
                old: Value::Text(old.clone().unwrap_or_default()),
                new: Value::Text(new.clone()),
            },
        }
    }

    /// Rooms from which an event is perceived: those it is seen from, and
    /// those it is only heard from (the front door through a wall).
    fn event_rooms(&self, step: &Step, actor: Entity) -> (Vec<Entity>, Vec<Entity>) {
        let here = self.actors.get(actor).expect("resolved actor").1.room;
        let action = &step.request.as_ref().expect("a pending request").action;
        if step.rejection.is_some() {
            return (vec![here], vec![]);
        }
        let mut rooms = vec![here];
        for op in &step.ops {
            match op {
                Op::Walk { from, .. } => rooms.push(from.room),
                Op::SetOpen { target, .. } => rooms.extend(
                    self.doors
                        .get(*target)
                        .map(|d| d.rooms)
                        .into_iter()
                        .flatten(),
                ),
                // Operated remotely: seen where the device is, not where the
                // actor taps its phone.
                Op::SetField { device, .. } => rooms = self.room_of(*device).into_iter().collect(),
                Op::Move { .. } | Op::SetLevel { .. } | Op::SetText { .. } => {}
            }
        }
        rooms.extend(step.via.iter().copied());
        if matches!(action, Action::Say { .. }) {
            rooms = self.earshot(here);
        }
        // The front door is heard: who goes out or comes in is perceived
        // from every room within earshot of the door's room, as a spoken
        // line is (so a robot in the next room knows who is home), but
        // what they carried only where they were seen.
        // (Nothing is within earshot of the outside.)
        let mut heard = Vec::new();
        if matches!(action, Action::Leave { .. } | Action::Arrive { .. }) {
            heard = rooms.iter().flat_map(|r| self.earshot(*r)).collect();
        }
        // Nobody perceives anything from outside (leaving and arriving
        // are seen from the rooms inside).
        let inside = |v: &mut Vec<Entity>| {
            v.retain(|r| !self.registry.is_outside(*r));
            v.sort();
            v.dedup();
        };
        inside(&mut rooms);
        inside(&mut heard);
        heard.retain(|r| !rooms.contains(r));
        (rooms, heard)
    }
}

/// Perceives what `seen` shows for each of `who`, with absence detection
/// on the surfaces it scanned.
fn perceive_seen(
    beliefs: &mut Query<&mut Beliefs>,
    who: &[Entity],
    seen: &Seen,
    t: u64,
    event: u64,
) {
    for &a in who {
        let Ok(mut b) = beliefs.get_mut(a) else {
            continue;
        };
        for (f, &(slot, holder)) in seen.facts.iter().zip(&seen.marks) {
            b.believe(slot, &f.value, holder, t, event);
        }
        if !seen.scanned.is_empty() {
            b.notice_absences(&seen.scanned, event, t);
        }
    }
}

/// System: work out the observers and reveals of the step and update the
/// perceivers' beliefs.
pub fn perceive_step(
    view: WorldView,
    mut step: ResMut<Step>,
    mut beliefs: Query<&mut Beliefs>,
    mut standby: Query<&mut Standby>,
) {
    if step.request.is_none() {
        return;
    }
    let event = view.clock.last_event;
    let t = step.t;
    step.observers.clear();
    step.heard_by.clear();
    step.revealed_to.clear();
    step.reveals.clear();
    step.changes.clear();
    let Some(actor) = step.actor else { return };
    // Actors in standby perceive nothing but what they do themselves.
    let awake = |a: &Entity| standby.get(*a).is_ok_and(|s| s.perceives(t));
    let (seen_from, heard_from) = view.event_rooms(&step, actor);
    let present: Vec<Entity> = view
        .actors_in(&seen_from)
        .into_iter()
        .filter(awake)
        .collect();
    let heard: Vec<Entity> = view
        .actors_in(&heard_from)
        .into_iter()
        .filter(awake)
        .collect();
    step.observers = view
        .registry
        .actors
        .iter()
        .copied()
        .filter(|a| *a == actor || present.contains(a) || heard.contains(a))
        .collect();
    step.heard_by = (step.observers.iter().copied())
        .filter(|a| *a != actor && heard.contains(a))
        .collect();
    if step.rejection.is_some() {
        return;
    }
    step.changes = step.ops.iter().map(|op| view.change(op)).collect();
    for &o in &step.observers {
        let Ok(mut b) = beliefs.get_mut(o) else {
            continue;
        };
        let by_ear = step.heard_by.contains(&o);
        for (op, c) in step.ops.iter().zip(&step.changes) {
            // Heard through a wall: not what moved.
            if by_ear && matches!(op, Op::Move { .. }) {
                continue;
            }
            let (slot, holder) = view.op_mark(op);
            b.believe(slot, &c.new, holder, t, event);
        }
    }
    let mut seen = Seen::default();
    let who = match step.reveal {
        Reveal::Nothing => return,
        Reveal::Room(room) => {
            view.room_facts(room, &mut seen);
            let who: Vec<Entity> = view.actors_in(&[room]).into_iter().filter(awake).collect();
            for &a in &who {
                if let Ok(mut s) = standby.get_mut(a) {
                    s.looked = true;
                }
            }
            who
        }
        Reveal::Contents(c) => {
            if let Some(inside) = view.receptacles.get(c).ok().and_then(|r| r.inside.as_ref()) {
                view.contents_facts(c, &inside.items, &mut seen);
            }
            seen.scanned.push((c, true));
            step.observers.clone()
        }
        Reveal::Target(e) => {
            if view.fixtures.contains(e) {
                view.fixture_facts(e, &mut seen);
            } else if view.is_actor(e) {
                view.actor_facts(e, &mut seen);
            } else if let Ok((_, p)) = view.items.get(e) {
                let value = location_value(&view.keys, *p);
                seen.push(&view, e, &view.registry.attrs.location, value, holder(*p));
            }
            step.observers.clone()
        }
    };
    perceive_seen(&mut beliefs, &who, &seen, t, event);
    step.revealed_to = who;
    step.reveals = seen.facts;
}

/// Gives every actor its first look around, before any event (event 0).
pub fn perceive_initial(view: WorldView, mut beliefs: Query<&mut Beliefs>) {
    for &a in &view.registry.actors {
        let room = view.actors.get(a).expect("registered actor").1.room;
        if view.registry.is_outside(room) {
            continue;
        }
        let mut seen = Seen::default();
        view.room_facts(room, &mut seen);
        seen.scanned.clear();
        perceive_seen(&mut beliefs, &[a], &seen, 0, 0);
    }
}
