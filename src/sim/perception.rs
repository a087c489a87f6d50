//! Visibility: who perceives each event, what becomes visible, and each
//! actor's incrementally kept last-seen view ([`Beliefs`]).
//!
//! The rules (README "Visibility" states them for users):
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
//! - nothing inside a closed container is ever visible.
//!
//! Together these keep one invariant, checked by the property tests: every
//! actor's belief about everything visible from where it stands is true.

use bevy::prelude::*;

use crate::ids::Id;
use crate::trace::{Change, Fact, Location, Value};

use super::executor::{Op, Reveal, Step, WorldView};
use super::world::*;
use crate::trace::request::Action;

impl WorldView<'_, '_> {
    /// Everything visible in a room: fixtures' open state and device fields,
    /// objects on surfaces, in open containers and in hands, actors' positions
    /// and openable doors. Also returns the surfaces whose contents were
    /// seen in full, as (fixture, inside).
    pub fn room_facts(&self, room: Entity, out: &mut Vec<Fact>, scanned: &mut Vec<(Entity, bool)>) {
        let attrs = &self.registry.attrs;
        for &d in self.registry.room_doors.get(&room).into_iter().flatten() {
            if let Ok(o) = self.openables.get(d) {
                out.push(Fact {
                    entity: self.id(d).clone(),
                    attr: attrs.open.clone(),
                    value: Value::Bool(o.open),
                });
            }
        }
        for &f in self.registry.room_fixtures.get(&room).into_iter().flatten() {
            self.fixture_facts(f, out, scanned);
        }
        for a in self.actors_in(&[room]) {
            self.actor_facts(a, out);
        }
    }

    fn fixture_facts(&self, f: Entity, out: &mut Vec<Fact>, scanned: &mut Vec<(Entity, bool)>) {
        let attrs = &self.registry.attrs;
        let id = self.id(f);
        let open = self.openables.get(f).ok().map(|o| o.open);
        if let Some(o) = open {
            out.push(Fact {
                entity: id.clone(),
                attr: attrs.open.clone(),
                value: Value::Bool(o),
            });
        }
        if let Ok(d) = self.devices.get(f) {
            for (name, field) in &d.fields {
                out.push(Fact {
                    entity: id.clone(),
                    attr: name.clone(),
                    value: field_value(field),
                });
            }
        }
        if let Ok(rec) = self.receptacles.get(f) {
            if let Some(on) = &rec.on {
                scanned.push((f, false));
                for &i in &on.items {
                    out.push(Fact {
                        entity: self.id(i).clone(),
                        attr: attrs.location.clone(),
                        value: Value::Location(Location::On(id.clone())),
                    });
                }
            }
            if let Some(inside) = rec.inside.as_ref().filter(|_| open != Some(false)) {
                scanned.push((f, true));
                self.contents_facts(f, &inside.items, out);
            }
        }
    }

    fn contents_facts(&self, f: Entity, items: &[Entity], out: &mut Vec<Fact>) {
        let id = self.id(f);
        for &i in items {
            out.push(Fact {
                entity: self.id(i).clone(),
                attr: self.registry.attrs.location.clone(),
                value: Value::Location(Location::In(id.clone())),
            });
        }
    }

    fn actor_facts(&self, a: Entity, out: &mut Vec<Fact>) {
        let Ok((_, at, hands, _)) = self.actors.get(a) else {
            return;
        };
        let attrs = &self.registry.attrs;
        let keys = &self.keys;
        out.push(Fact {
            entity: self.id(a).clone(),
            attr: attrs.position.clone(),
            value: position_value(keys, *at),
        });
        for &i in &hands.0 {
            out.push(Fact {
                entity: self.id(i).clone(),
                attr: attrs.location.clone(),
                value: Value::Location(Location::HeldBy(self.id(a).clone())),
            });
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
        }
    }

    /// Rooms from which an event is perceived.
    fn event_rooms(&self, step: &Step, actor: Entity) -> Vec<Entity> {
        let here = self.actors.get(actor).expect("resolved actor").1.room;
        let action = &step.request.as_ref().expect("a pending request").action;
        if step.rejection.is_some() {
            return vec![here];
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
                Op::Move { .. } => {}
            }
        }
        rooms.extend(step.via.iter().copied());
        if matches!(action, Action::Say { .. }) {
            rooms = self.earshot(here);
        }
        rooms.sort();
        rooms.dedup();
        rooms
    }
}

/// Records that `actor`'s holder perceived `value` of (`entity`, `attr`).
fn believe(beliefs: &mut Beliefs, entity: &Id, attr: &Id, value: &Value, t: u64, event: u64) {
    let b = Belief {
        value: value.clone(),
        seen_at: t,
        event,
        contradicted_at: None,
    };
    beliefs.0.insert((entity.clone(), attr.clone()), b);
}

/// Marks beliefs that an object is on/in a scanned surface as contradicted
/// when the scan did not show it there.
fn notice_absences(
    beliefs: &mut Beliefs,
    view: &WorldView,
    scanned: &[(Entity, bool)],
    event: u64,
    t: u64,
) {
    let location = &view.registry.attrs.location;
    // The scanned surfaces' ids once, not per belief.
    let scanned: Vec<(&Id, bool)> = scanned.iter().map(|(f, i)| (view.id(*f), *i)).collect();
    for ((_, attr), b) in beliefs.0.iter_mut() {
        if attr != location || b.event == event || b.contradicted_at.is_some() {
            continue;
        }
        let Value::Location(loc) = &b.value else {
            continue;
        };
        let (holder, inside) = match loc {
            Location::On(r) => (r, false),
            Location::In(r) => (r, true),
            Location::HeldBy(_) => continue,
        };
        if scanned.iter().any(|(f, i)| *i == inside && *f == holder) {
            b.contradicted_at = Some(t);
        }
    }
}

/// Perceives `facts` for each of `who`, with absence detection on `scanned`.
fn perceive_facts(
    view: &WorldView,
    beliefs: &mut Query<&mut Beliefs>,
    who: &[Entity],
    facts: &[Fact],
    scanned: &[(Entity, bool)],
    t: u64,
    event: u64,
) {
    for &a in who {
        let Ok(mut b) = beliefs.get_mut(a) else {
            continue;
        };
        for f in facts {
            believe(&mut b, &f.entity, &f.attr, &f.value, t, event);
        }
        if !scanned.is_empty() {
            notice_absences(&mut b, view, scanned, event, t);
        }
    }
}

/// System: work out the observers and reveals of the step and update the
/// perceivers' beliefs.
pub fn perceive_step(view: WorldView, mut step: ResMut<Step>, mut beliefs: Query<&mut Beliefs>) {
    if step.request.is_none() {
        return;
    }
    let event = view.clock.last_event;
    let t = step.t;
    step.observers.clear();
    step.revealed_to.clear();
    step.reveals.clear();
    step.changes.clear();
    let Some(actor) = step.actor else { return };
    let present = view.actors_in(&view.event_rooms(&step, actor));
    step.observers = view
        .registry
        .actors
        .iter()
        .copied()
        .filter(|a| *a == actor || present.contains(a))
        .collect();
    if step.rejection.is_some() {
        return;
    }
    step.changes = step.ops.iter().map(|op| view.change(op)).collect();
    for &o in &step.observers {
        let Ok(mut b) = beliefs.get_mut(o) else {
            continue;
        };
        for c in &step.changes {
            believe(&mut b, &c.entity, &c.attr, &c.new, t, event);
        }
    }
    let mut facts = Vec::new();
    let mut scanned = Vec::new();
    let who = match step.reveal {
        Reveal::Nothing => return,
        Reveal::Room(room) => {
            view.room_facts(room, &mut facts, &mut scanned);
            view.actors_in(&[room])
        }
        Reveal::Contents(c) => {
            let items = view
                .receptacles
                .get(c)
                .ok()
                .and_then(|r| r.inside.as_ref())
                .map(|s| s.items.clone())
                .unwrap_or_default();
            view.contents_facts(c, &items, &mut facts);
            scanned.push((c, true));
            step.observers.clone()
        }
        Reveal::Target(e) => {
            if view.fixtures.contains(e) {
                view.fixture_facts(e, &mut facts, &mut scanned);
            } else if view.is_actor(e) {
                view.actor_facts(e, &mut facts);
            } else if let Ok((_, p)) = view.items.get(e) {
                facts.push(Fact {
                    entity: view.id(e).clone(),
                    attr: view.registry.attrs.location.clone(),
                    value: location_value(&view.keys, *p),
                });
            }
            step.observers.clone()
        }
    };
    perceive_facts(&view, &mut beliefs, &who, &facts, &scanned, t, event);
    step.revealed_to = who;
    step.reveals = facts;
}

/// Gives every actor its first look around, before any event (event 0).
pub fn perceive_initial(view: WorldView, mut beliefs: Query<&mut Beliefs>) {
    for &a in &view.registry.actors {
        let room = view.actors.get(a).expect("registered actor").1.room;
        let (mut facts, mut scanned) = (Vec::new(), Vec::new());
        view.room_facts(room, &mut facts, &mut scanned);
        perceive_facts(&view, &mut beliefs, &[a], &facts, &[], 0, 0);
    }
}
