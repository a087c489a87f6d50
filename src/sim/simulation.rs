//! [`Simulation`]: a scene spawned into an ECS world with [`SimPlugin`],
//! driven one request at a time; forks, copies and checked replays.

use std::collections::BTreeMap;

use bevy::ecs::change_detection::Tick;
use bevy::ecs::world::WorldId;
use bevy::prelude::*;

use crate::ids::Id;
use crate::scene::{Indexed, Problem, Scene, validate};
use crate::trace::{self, Event, Value};

use super::executor::{Step, WorldView};
use super::plugin::{CurrentSession, SimPlugin, SimSchedule};
use super::world::{self, *};
use super::{nav, perception};
use crate::trace::request::{Action, Request};

/// Why a recorded trace does not replay.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ReplayError {
    #[error("the trace's scene has {0} problems")]
    Scene(usize),
    #[error(
        "event {0} does not replay to the recorded event: the trace does not match this scene or hearth version"
    )]
    Mismatch(u64),
}

/// A household simulation: a scene spawned into an ECS world, driven one
/// request at a time.
pub struct Simulation {
    app: App,
    /// The world this one was last put in the state of, and both worlds'
    /// change ticks then ([`Simulation::copy_from`]).
    copied: Option<Copied>,
}

/// A copy between two worlds: from which, and from what change tick of
/// each a later copy from the same world must look for changes.
#[derive(Clone, Copy)]
struct Copied {
    from: WorldId,
    from_since: Tick,
    own_since: Tick,
}

/// The rooms a walk passes (the destination last) and, if it detours round a
/// closed door, that door with the room on the walker's side ([`Simulation::way`]).
pub type Way = (Vec<Id>, Option<(Id, Id)>);

impl Simulation {
    /// Spawns a scene; it must pass [`validate`].
    pub fn new(scene: Scene) -> Result<Self, Vec<Problem>> {
        let problems = validate(&scene);
        if !problems.is_empty() {
            return Err(problems);
        }
        let mut app = App::empty();
        app.add_plugins(SimPlugin { scene });
        Ok(Simulation { app, copied: None })
    }

    pub fn world(&self) -> &World {
        self.app.world()
    }

    pub fn registry(&self) -> &Registry {
        self.world().resource::<Registry>()
    }

    pub fn scene(&self) -> &Scene {
        &self.registry().scene
    }

    /// The scene with lookups by id (its index is built once, at spawn).
    pub fn lookup(&self) -> Indexed<'_> {
        let r = self.registry();
        r.index.over(&r.scene)
    }

    /// Start time of the latest event.
    pub fn now(&self) -> u64 {
        self.world().resource::<Clock>().now
    }

    /// Re-executes recorded `events` from the scene's initial state, checking
    /// that each gives the same event again: the state at any point of a
    /// trace, for mining, evaluation and the viewer.
    pub fn replay(scene: Scene, events: &[Event]) -> Result<Self, ReplayError> {
        let mut sim = Simulation::new(scene).map_err(|p| ReplayError::Scene(p.len()))?;
        for e in events {
            sim.replay_event(e)?;
        }
        Ok(sim)
    }

    /// An independent copy of this simulation in its current state: a
    /// fresh spawn of the same scene (same entities, same order) with every
    /// component a request can change, the clock and the session copied
    /// over. Costs one spawn, whatever the history: mining and evaluation
    /// run plans from a snapshot at their cutoff instead of replaying the
    /// trace up to it.
    pub fn fork(&self) -> Simulation {
        let mut copy =
            Simulation::new(self.scene().clone()).expect("a running simulation's scene is valid");
        copy.copy_from(self);
        copy
    }

    /// `spare` in this simulation's current state: forked the first time,
    /// then put in the state with [`Simulation::copy_from`]. For plans run
    /// from one cutoff after another on the same spare.
    pub fn fork_into<'s>(&self, spare: &'s mut Option<Simulation>) -> &'s mut Simulation {
        match spare {
            Some(s) => {
                s.copy_from(self);
                s
            }
            None => spare.insert(self.fork()),
        }
    }

    /// Puts this simulation in `src`'s current state, as [`Simulation::fork`]
    /// would give it, without a spawn: for a spare run again and again from
    /// cutoffs (requests only change components, never add or remove them).
    /// Both must be spawns of the same scene. Copied again from the same
    /// world, only the components either world changed since are: a plan
    /// and the events between two cutoffs touch a few things, and the
    /// months' stock makes the scene long.
    pub fn copy_from(&mut self, src: &Simulation) {
        let src = src.world();
        let dst = self.app.world_mut();
        let (src_now, dst_now) = (src.read_change_tick(), dst.change_tick());
        // Ticks further apart than this are clamped by Bevy's change
        // detection: then it is all copied.
        const FAR: u32 = 1 << 30;
        let near = |now: Tick, then: Tick| now.get().wrapping_sub(then.get()) < FAR;
        let since = (self.copied)
            .filter(|c| {
                c.from == src.id() && near(src_now, c.from_since) && near(dst_now, c.own_since)
            })
            .map(|c| [(c.from_since, src_now), (c.own_since, dst_now)]);
        let ids = src.resource::<Registry>();
        debug_assert!(
            (ids.ids()).all(|(id, &e)| dst.resource::<Registry>().get(id) == Some(e)),
            "a spawn of the same scene gives every id the same entity"
        );
        copy::<Placed>(src, dst, since);
        copy::<Receptacle>(src, dst, since);
        copy::<Hands>(src, dst, since);
        copy::<Bag>(src, dst, since);
        copy::<Openable>(src, dst, since);
        copy::<Device>(src, dst, since);
        copy::<Servings>(src, dst, since);
        copy::<Note>(src, dst, since);
        copy::<At>(src, dst, since);
        copy::<Busy>(src, dst, since);
        copy::<Standby>(src, dst, since);
        copy::<Beliefs>(src, dst, since);
        *dst.resource_mut::<Clock>() = src.resource::<Clock>().clone();
        *dst.resource_mut::<CurrentSession>() = src.resource::<CurrentSession>().clone();
        *dst.resource_mut::<Step>() = Step::default();
        // What either changes from here on is newer than both marks: a
        // change in `src` at its present tick is looked at again, and this
        // world's own copying (at its present tick) is not.
        self.copied = Some(Copied {
            from: src.id(),
            from_since: Tick::new(src_now.get().wrapping_sub(1)),
            own_since: dst.change_tick(),
        });
        dst.increment_change_tick();
    }

    /// Re-executes one recorded event (see [`Simulation::replay`]).
    pub fn replay_event(&mut self, e: &Event) -> Result<(), ReplayError> {
        self.set_session(e.session.clone());
        self.advance_to(e.t);
        // Accepted events start at their time; rejections take none.
        let mut again = self.execute(Request {
            actor: e.actor.clone(),
            action: e.action.clone(),
            at: e.outcome.is_ok().then_some(e.t),
        });
        // Who wrote the request is not the simulation's to check.
        again.source = e.source;
        if &again != e {
            return Err(ReplayError::Mismatch(e.id));
        }
        Ok(())
    }

    /// Lets time pass to `t` with nothing happening (a quiet hour between
    /// household sessions); never moves the clock back. Requests without
    /// an `at`, and rejections, are stamped from here on.
    pub fn advance_to(&mut self, t: u64) {
        let mut clock = self.app.world_mut().resource_mut::<Clock>();
        clock.now = clock.now.max(t);
    }

    /// When `actor` is free again (None if there is no such actor).
    pub fn busy_until(&self, actor: &str) -> Option<u64> {
        let e = self.registry().get(actor)?;
        self.world().get::<Busy>(e).map(|b| b.0)
    }

    /// Labels the events recorded from now on with a session id.
    pub fn set_session(&mut self, session: Option<String>) {
        self.app.world_mut().resource_mut::<CurrentSession>().0 = session;
    }

    /// Validates and executes one request and returns its event. A rejected
    /// request is an event too (execution feedback), and changes nothing.
    pub fn execute(&mut self, request: Request) -> Event {
        let world = self.app.world_mut();
        world.resource_mut::<Step>().request = Some(request);
        world.run_schedule(SimSchedule);
        let mut step = world.resource_mut::<Step>();
        step.request = None;
        step.event.take().expect("record_event ran")
    }

    /// Where an object is now (the truth).
    pub fn location(&self, object: &str) -> Option<trace::Location> {
        let world = self.world();
        let key = |e: Entity| world.get::<Key>(e).expect("spawned").0.clone();
        let placed = *world.get::<Placed>(self.registry().get(object)?)?;
        Some(world::location(placed, key))
    }

    /// Where an actor is now: its room and the fixture it stands at.
    pub fn position(&self, actor: &str) -> Option<trace::Position> {
        let world = self.world();
        let key = |e: Entity| world.get::<Key>(e).expect("spawned").0.clone();
        let at = world.get::<At>(self.registry().get(actor)?)?;
        Some(trace::Position {
            room: key(at.room),
            near: at.near.map(key),
        })
    }

    /// The room a fixture, object or actor is in.
    pub fn room_of(&self, id: &str) -> Option<Id> {
        let world = self.world();
        let e = self.registry().get(id)?;
        if let Some(f) = world.get::<Fixture>(e) {
            return Some(world.get::<Key>(f.room)?.0.clone());
        }
        if world.get::<Room>(e).is_some() {
            return Some(world.get::<Key>(e)?.0.clone());
        }
        match self.location(id) {
            Some(
                trace::Location::On(r)
                | trace::Location::In(r)
                | trace::Location::HeldBy(r)
                | trace::Location::CarriedBy(r),
            ) => self.room_of(&r),
            Some(trace::Location::Outside) => Some(Id::new(crate::scene::OUTSIDE)),
            None => self.position(id).map(|p| p.room),
        }
    }

    /// Where an entity can be walked to: its room and floor-plan point (as
    /// `WorldView::anchor`, on a read-only world).
    fn spot(&self, e: Entity) -> Option<(Entity, (f32, f32))> {
        let world = self.world();
        if let Some(r) = world.get::<Room>(e) {
            return Some((e, r.rect.center()));
        }
        if let Some(f) = world.get::<Fixture>(e) {
            return Some((f.room, f.pos));
        }
        if let Some(p) = world.get::<Placed>(e) {
            let (Placed::On(r) | Placed::In(r) | Placed::HeldBy(r) | Placed::CarriedBy(r)) = *p
            else {
                return None;
            };
            return self.spot(r);
        }
        let at = world.get::<At>(e)?;
        Some(match at.near.and_then(|n| world.get::<Fixture>(n)) {
            Some(f) => (at.room, f.pos),
            None => (at.room, world.get::<Room>(at.room)?.rect.center()),
        })
    }

    /// When every way from `actor` to `target` passes a closed door: that
    /// door (the first on the shortest route) and the room on the actor's
    /// side of it, where it can be opened. None when an open way exists.
    pub fn blocked_way(&self, actor: &str, target: &str) -> Option<(Id, Id)> {
        let world = self.world();
        let (from_room, from) = self.spot(self.registry().get(actor)?)?;
        let (to_room, to) = self.spot(self.registry().get(target)?)?;
        let open = |d: Entity| world.get::<Openable>(d).is_none_or(|o| o.open);
        let b = world
            .resource::<nav::RoomGraph>()
            .open_route(from_room, from, to_room, to, open)
            .err()?;
        let key = |e: Entity| world.get::<Key>(e).map(|k| k.0.clone());
        Some((key(b.door)?, key(b.near_side)?))
    }

    /// The rooms a walk from `actor` to `target` would pass with the doors
    /// as they are (the destination last; empty within a room), and the
    /// first closed door on the shortest route with the room on the
    /// actor's side of it, if the walk takes a detour round it. `None`
    /// when no open way exists ([`Self::blocked_way`]).
    pub fn way(&self, actor: &str, target: &str) -> Option<Way> {
        let world = self.world();
        let (from_room, from) = self.spot(self.registry().get(actor)?)?;
        let (to_room, to) = self.spot(self.registry().get(target)?)?;
        let graph = world.resource::<nav::RoomGraph>();
        let open = |d: Entity| world.get::<Openable>(d).is_none_or(|o| o.open);
        let walk = graph.open_route(from_room, from, to_room, to, open).ok()?;
        let key = |e: Entity| world.get::<Key>(e).map(|k| k.0.clone());
        let shortest = graph.route(from_room, from, to_room, to)?;
        let detour = shortest.doors.iter().position(|d| !open(*d)).and_then(|k| {
            let side = if k == 0 {
                from_room
            } else {
                shortest.rooms[k - 1]
            };
            Some((key(shortest.doors[k])?, key(side)?))
        });
        Some((walk.rooms.into_iter().filter_map(key).collect(), detour))
    }

    /// Opens the closed doors that stop `actor` walking to `target`, walking
    /// up to each first: what a navigation controller does on its way. Returns
    /// the events (empty when the way is open); stops at the first rejection.
    pub fn open_way(&mut self, actor: &str, target: &str) -> Vec<Event> {
        let mut out = Vec::new();
        // Each round opens one door, so there are at most as many rounds.
        for _ in 0..self.scene().doors.len() {
            let Some((door, side)) = self.blocked_way(actor, target) else {
                break;
            };
            let here = self.position(actor).map(|p| p.room);
            let mut steps = vec![];
            if here.as_ref() != Some(&side) {
                steps.push(Action::NavigateTo { target: side });
            }
            steps.push(Action::Open { target: door });
            for action in steps {
                let e = self.execute(Request {
                    actor: Id::new(actor),
                    action,
                    at: None,
                });
                let ok = e.outcome.is_ok();
                out.push(e);
                if !ok {
                    return out;
                }
            }
        }
        out
    }

    /// Whether `listener` would hear `speaker` from where they are now
    /// (the executor's earshot: same room, or next door through an opening).
    pub fn in_earshot(&self, speaker: &str, listener: &str) -> bool {
        let world = self.world();
        let room = |a: &str| Some(world.get::<At>(self.registry().get(a)?)?.room);
        let (Some(a), Some(b)) = (room(speaker), room(listener)) else {
            return false;
        };
        if self.registry().is_outside(a) || self.registry().is_outside(b) {
            return false;
        }
        a == b
            || world
                .resource::<nav::RoomGraph>()
                .neighbours(a)
                .any(|(r, d)| r == b && world.get::<Openable>(d).is_none_or(|o| o.open))
    }

    /// Whether an openable thing is open (things that do not open are).
    pub fn is_open(&self, id: &str) -> bool {
        self.registry()
            .get(id)
            .and_then(|e| self.world().get::<Openable>(e))
            .is_none_or(|o| o.open)
    }

    /// Objects `actor` holds.
    pub fn held_by(&self, actor: &str) -> Vec<Id> {
        let world = self.world();
        let Some(h) = self
            .registry()
            .get(actor)
            .and_then(|e| world.get::<Hands>(e))
        else {
            return vec![];
        };
        h.0.iter()
            .map(|e| world.get::<Key>(*e).expect("spawned").0.clone())
            .collect()
    }

    /// Objects `actor` carries out of the hands (bag, pocket).
    pub fn carried_by(&self, actor: &str) -> Vec<Id> {
        let world = self.world();
        let Some(b) = self.registry().get(actor).and_then(|e| world.get::<Bag>(e)) else {
            return vec![];
        };
        b.0.iter()
            .map(|e| world.get::<Key>(*e).expect("spawned").0.clone())
            .collect()
    }

    /// Whether `actor` is out of the house.
    pub fn is_out(&self, actor: &str) -> bool {
        self.registry()
            .get(actor)
            .and_then(|e| self.world().get::<At>(e))
            .is_some_and(|at| self.registry().is_outside(at.room))
    }

    /// A device field's current value.
    pub fn field(&self, device: &str, field: &str) -> Option<Value> {
        let d = self.world().get::<Device>(self.registry().get(device)?)?;
        d.fields.get(field).map(field_value)
    }

    /// The servings left in `object`, if it is used up a serving at a time.
    pub fn level(&self, object: &str) -> Option<u32> {
        let s = self.world().get::<Servings>(self.registry().get(object)?)?;
        Some(s.now())
    }

    /// What is written on `object`, if anything is yet.
    pub fn text(&self, object: &str) -> Option<&str> {
        let n = self.world().get::<Note>(self.registry().get(object)?)?;
        n.0.as_deref()
    }

    /// Free places on a receptacle surface.
    pub fn free_space(&self, receptacle: &str, inside: bool) -> u32 {
        let Some(r) = self
            .registry()
            .get(receptacle)
            .and_then(|e| self.world().get::<Receptacle>(e))
        else {
            return 0;
        };
        r.slot(inside)
            .map_or(0, |s| s.capacity.saturating_sub(s.items.len() as u32))
    }

    /// What `actor` last perceived of every (entity, attribute).
    pub fn beliefs(&self, actor: &str) -> Option<&Beliefs> {
        let e = self.registry().get(actor)?;
        self.world().get::<Beliefs>(e)
    }

    /// The true state: every (entity, attribute) with its value, ordered.
    pub fn state(&self) -> trace::State {
        let mut out = BTreeMap::new();
        for (id, &e) in self.registry().ids() {
            self.values_of(e, |attr, v| {
                out.insert((id.clone(), attr.clone()), v);
            });
        }
        out.into()
    }

    /// One (entity, attribute)'s value now, as [`Simulation::state`] has
    /// it: a question's checks and a plan's ask of a few keys, not the
    /// whole house (which grows with the months' stock).
    pub fn value(&self, (entity, attr): &trace::Key) -> Option<Value> {
        let mut found = None;
        self.values_of(self.registry().get(entity)?, |a, v| {
            if a == attr {
                found = Some(v);
            }
        });
        found
    }

    /// Each attribute of `e` with its value: where it is or stands, open
    /// or shut, its fields, how much is left, what is written on it.
    fn values_of(&self, e: Entity, mut put: impl FnMut(&Id, Value)) {
        let (world, attrs) = (self.world(), &self.registry().attrs);
        let key = |e: Entity| world.get::<Key>(e).expect("spawned").0.clone();
        if let Some(p) = world.get::<Placed>(e) {
            put(&attrs.location, Value::Location(world::location(*p, key)));
        }
        if let Some(at) = world.get::<At>(e) {
            let pos = trace::Position {
                room: key(at.room),
                near: at.near.map(key),
            };
            put(&attrs.position, Value::Position(pos));
        }
        if let Some(o) = world.get::<Openable>(e) {
            put(&attrs.open, Value::Bool(o.open));
        }
        if let Some(d) = world.get::<Device>(e) {
            for (name, f) in &d.fields {
                put(name, field_value(f));
            }
        }
        if let Some(n) = world.get::<world::Servings>(e).and_then(|s| s.left) {
            put(&attrs.level, Value::Int(n.into()));
        }
        if let Some(text) = world.get::<world::Note>(e).and_then(|n| n.0.clone()) {
            put(&attrs.text, Value::Text(text));
        }
    }

    /// What `actor` can see from where it stands now, as facts.
    pub fn visible_to(&mut self, actor: &str) -> Option<Vec<trace::Fact>> {
        let e = self.registry().get(actor)?;
        let room = self.world().get::<At>(e)?.room;
        if self.registry().is_outside(room) {
            return Some(vec![]);
        }
        let facts = self
            .app
            .world_mut()
            .run_system_cached_with(
                |In(room): In<Entity>, view: WorldView| {
                    let mut seen = perception::Seen::default();
                    view.room_facts(room, &mut seen);
                    seen.facts
                },
                room,
            )
            .expect("a read-only system runs");
        Some(facts)
    }

    /// Checks the world's invariants; returns every violation found.
    /// - each object is in exactly one place, listed by that place;
    /// - capacities of surfaces and hands are kept;
    /// - device values fit their schemas;
    /// - every actor's beliefs about what it can see are true (once it has
    ///   looked around after a standby).
    pub fn check_invariants(&mut self) -> Result<(), Vec<String>> {
        let mut errors = Vec::new();
        let world = self.app.world_mut();
        let mut listed: BTreeMap<Entity, Vec<Placed>> = BTreeMap::new();
        let mut q = world.query::<(Entity, &Key, &Receptacle)>();
        for (e, key, rec) in q.iter(world) {
            for (inside, slot) in [(false, &rec.on), (true, &rec.inside)] {
                let Some(slot) = slot else { continue };
                if slot.items.len() as u32 > slot.capacity {
                    errors.push(format!(
                        "{} holds {} items, capacity {}",
                        key.0,
                        slot.items.len(),
                        slot.capacity
                    ));
                }
                for &i in &slot.items {
                    listed.entry(i).or_default().push(if inside {
                        Placed::In(e)
                    } else {
                        Placed::On(e)
                    });
                }
            }
        }
        let mut q = world.query::<(Entity, &Key, &Actor, &Hands, &Bag)>();
        for (e, key, actor, hands, bag) in q.iter(world) {
            for &i in &bag.0 {
                listed.entry(i).or_default().push(Placed::CarriedBy(e));
            }
            if hands.0.len() as u32 > actor.hands {
                errors.push(format!(
                    "{} holds {} objects with {} hands",
                    key.0,
                    hands.0.len(),
                    actor.hands
                ));
            }
            for &i in &hands.0 {
                listed.entry(i).or_default().push(Placed::HeldBy(e));
            }
        }
        let mut q = world.query::<(Entity, &Key, &Placed)>();
        for (e, key, placed) in q.iter(world) {
            let places = listed.get(&e).map(Vec::as_slice).unwrap_or_default();
            // Outside with no one, an object is listed nowhere.
            let want: &[Placed] = if *placed == Placed::Outside {
                &[]
            } else {
                &[*placed]
            };
            if places != want {
                errors.push(format!(
                    "{} is at {placed:?} but listed at {places:?}",
                    key.0
                ));
            }
        }
        let mut q = world.query::<(&Key, &Device)>();
        for (key, d) in q.iter(world) {
            for (name, f) in &d.fields {
                if let Err(why) = crate::scene::validate::check_field(f) {
                    errors.push(format!("{}.{name}: {why}", key.0));
                }
            }
        }
        // Back from standby, an actor knows its room once it has looked.
        let actors: Vec<Id> = self
            .scene()
            .actors
            .iter()
            .map(|a| a.id.clone())
            .filter(|a| {
                self.registry()
                    .get(a)
                    .and_then(|e| self.world().get::<Standby>(e))
                    .is_none_or(|s| s.looked)
            })
            .collect();
        for a in actors {
            let visible = self.visible_to(&a).unwrap_or_default();
            let beliefs = self.beliefs(&a).expect("actors have beliefs");
            for f in visible {
                match beliefs.get(&(f.entity.clone(), f.attr.clone())) {
                    Some(b) if b.value == f.value => {}
                    other => errors.push(format!(
                        "{a} sees {}.{} = {} but believes {:?}",
                        f.entity,
                        f.attr,
                        f.value,
                        other.map(|b| &b.value)
                    )),
                }
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}

/// Overwrites an entity's `T` in `to` with its value in `from`, where both
/// have one and, after a copy from the same world (`since`: that copy,
/// and both worlds' ticks now), either world changed it (see
/// [`Simulation::copy_from`]).
/// Copies `T` from `src` to `dst`: where either world changed it between
/// its two ticks (`since`, for `src` then `dst`), else everywhere. The
/// entities are found by reading the component's column in each world, in
/// storage order, not looked up one by one through the months' stock.
fn copy<T: Component<Mutability = bevy::ecs::component::Mutable> + Clone>(
    src: &World,
    dst: &mut World,
    since: Option<[(Tick, Tick); 2]>,
) {
    let having = |w: &World, changed: Option<(Tick, Tick)>| -> Vec<Entity> {
        w.try_query::<(Entity, Ref<T>)>()
            .map_or_else(Vec::new, |mut q| {
                (q.iter(w))
                    .filter(|(_, r)| {
                        changed
                            .is_none_or(|(since, now)| r.last_changed().is_newer_than(since, now))
                    })
                    .map(|(e, _)| e)
                    .collect()
            })
    };
    let es = match since {
        Some([from, own]) => {
            let mut es = having(src, Some(from));
            es.extend(having(dst, Some(own)));
            es.sort_unstable();
            es.dedup();
            es
        }
        None => having(src, None),
    };
    for e in es {
        if let (Some(from), Some(mut to)) = (src.get::<T>(e), dst.get_mut::<T>(e)) {
            *to = from.clone();
        }
    }
}

/// Every attribute's value before the first event of a trace of `scene`
/// (empty if the scene does not load).
pub fn initial_state(scene: &Scene) -> trace::State {
    Simulation::new(scene.clone())
        .map(|s| s.state())
        .unwrap_or_default()
}
