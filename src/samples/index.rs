//! Indexes over a trace (WorldLines §3.3): each attribute's true timeline,
//! what the robot observed of it and when, the claims it heard, and the
//! sessions. Every query takes a cutoff and looks only before it.
//!
//! The tables are append-only in event order, so an index grows with the
//! trace ([`Index::extend`]): indexing the events before a cutoff and then
//! the rest gives the same tables as indexing them all at once, and every
//! query "before c" is a binary search in a list, not a scan of the past.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, OnceLock};

// Bevy's maps hash with a fixed foldhash, cheaper than std's SipHash on
// these keys; they are only looked up, never iterated into output.
use bevy::platform::collections::HashMap;

use crate::ids::Id;
use crate::scene::{OUTSIDE, ObjectDef, Scene};
use crate::sim::initial_state;
use crate::trace::request::{Action, Destination};
use crate::trace::{Claim, ClaimMode, Event, LEVEL, Location, State, Value};

use super::act::act_of;
use super::model::Act;
use super::stockroom::Stockroom;

/// The robot observed `entity.attr = value` in event `event`.
#[derive(Debug, Clone, PartialEq)]
pub struct Seen {
    pub event: u64,
    pub value: Value,
}

/// A claim the robot heard: said by `speaker` in event `event`.
#[derive(Debug, Clone, PartialEq)]
pub struct Heard {
    pub event: u64,
    pub speaker: Id,
    pub claim: Claim,
}

/// A change of value the robot saw (for a location: where it saw the
/// object lie, hands left out), linked to the other entries of the same
/// key with the same value, so "the only time it went there" is a lookup.
#[derive(Debug, Clone, PartialEq)]
pub struct Place {
    pub event: u64,
    pub value: Value,
    pub(super) prev_same: Option<usize>,
    next_same: Option<usize>,
}

pub use crate::trace::Key;

/// A departure through an exterior door.
#[derive(Debug, Clone, PartialEq)]
pub struct Leaving {
    pub event: u64,
    pub day: u32,
    pub to: Destination,
    /// Whether the robot perceived it (saw or heard them go).
    pub perceived: bool,
}

/// What an act is looked up by: its skill and arguments (the value, which
/// need not be ordered, is compared on lookup).
type ActKey = (String, Option<Id>, Option<Id>, Option<Id>);

fn act_key(a: &Act) -> ActKey {
    (
        a.skill.clone(),
        a.object.clone(),
        a.target.clone(),
        a.field.clone(),
    )
}

/// An index's tables, without the events they index (positions refer to
/// them): what a memory keeps between questions, so that it is indexed
/// once, as it grows.
#[derive(Debug, Clone, Default)]
pub struct Tables {
    /// What the robot observed of each attribute, in event order.
    pub seen: BTreeMap<Key, Vec<Seen>>,
    /// The truth: each attribute's value before the first event.
    /// Shared: every memory an agent indexes starts from it.
    pub initial: Arc<State>,
    /// The truth: each attribute's changes, as (event, new value).
    pub changes: BTreeMap<Key, Vec<(u64, Value)>>,
    /// Claims of every mode the robot heard, in event order.
    pub heard: Vec<Heard>,
    /// `seen` with repeats of the same value dropped (see [`Place`]).
    places: BTreeMap<Key, Vec<Place>>,
    /// Positions of the accepted events the robot perceived.
    visible: Vec<usize>,
    /// Those of them with an act worth asking about, with the act.
    acted: Vec<(usize, Act)>,
    /// Indexes into `acted`, by act.
    by_act: BTreeMap<ActKey, Vec<usize>>,
    /// The same, by actor and act: whether a person ever did a thing is
    /// a short list, not all of everyone's doing it.
    by_actor_act: BTreeMap<(Id, ActKey), Vec<usize>>,
    /// Positions of perceived device operations by (device, field), and of
    /// perceived place actions by object.
    device_ops: BTreeMap<(Id, String), Vec<usize>>,
    placed: BTreeMap<Id, Vec<usize>>,
    /// Indexes into `heard`, by (mode, entity, attribute).
    claims: BTreeMap<(ClaimMode, Id, Id), Vec<usize>>,
    /// Each person's true comings and goings: (event, home after it).
    inout: BTreeMap<Id, Vec<(u64, bool)>>,
    /// What the robot perceived of each person's presence: (event, home
    /// before it, home after it), from what they did and where it saw them.
    sightings: BTreeMap<Id, Vec<(u64, bool, bool)>>,
    /// Every departure: (event, day, where to, whether the robot
    /// perceived it), by who left.
    leaves: BTreeMap<Id, Vec<Leaving>>,
    /// What the freshness rule reads ([`Index::current`]): the robot's
    /// moves (event, room after it), its standby waits, and where it
    /// perceived others (event, room), by who.
    pub(super) robot_rooms: Vec<(u64, Id)>,
    pub(super) standby: Vec<u64>,
    pub(super) whereabouts: BTreeMap<Id, Vec<(u64, Id)>>,
    /// Those three merged, in event order: what can make a current view
    /// possibly out of date.
    pub(super) unsettling: Vec<u64>,
    /// Where the robot saw each thing come into the house: events in
    /// which it saw its place change from outside, in order.
    came_in: BTreeMap<Id, Vec<u64>>,
    /// Things first seen in someone's hands or bag, not the robot's and
    /// not as they left: shopping brought in unseen at the door.
    first_in_bag: BTreeMap<Id, u64>,
    /// Perceived place actions by (object, target), as event ids.
    placed_on: BTreeMap<(Id, Id), Vec<u64>>,
    /// Worked out from the rest when first asked, and again once they
    /// have grown: kept with them, so that every index over them (a
    /// memory's, one a question) shares the work.
    derived: Derived,
    /// Events indexed so far.
    len: usize,
    /// Indexes every event as perceived (an observer who misses nothing):
    /// the world as it was, for what is true beside what the robot knew.
    all_seeing: bool,
}

/// What the stock questions read of the tables, worked out from them and
/// the scene's stockroom (tables index one scene's events).
#[derive(Debug, Default)]
struct Derived {
    /// Each thing the robot saw in a bin, and the first time it did
    /// ([`Index::binned`]).
    binned: OnceLock<HashMap<Id, u64>>,
    /// Each kind used up, with its things in scene order and, for those
    /// the robot has seen, when it first did and their runs in the house
    /// or gone ([`Index::stock_seen`]).
    stock: OnceLock<Stock>,
    /// The stock last worked out and the things the tables have gained
    /// sights of since: only theirs is worked out again, not every
    /// thing's over the whole history at each cutoff.
    since: Mutex<(Option<Stock>, BTreeSet<Id>)>,
}

type Stock = BTreeMap<String, Vec<Option<StockThing>>>;

impl Clone for Derived {
    fn clone(&self) -> Self {
        Derived {
            binned: self.binned.clone(),
            stock: self.stock.clone(),
            since: Mutex::new(self.since.lock().expect("never poisoned").clone()),
        }
    }
}

impl Derived {
    /// The tables gained an event: what is worked out from all of them is
    /// stale.
    fn grew(&mut self) {
        self.binned = OnceLock::new();
        if let Some(stock) = self.stock.take() {
            *self.since.get_mut().expect("never poisoned") = (Some(stock), BTreeSet::new());
        }
    }

    /// The tables gained a sight of `thing` (and with it, maybe, its
    /// coming in: only in the event of a sight).
    fn touched(&mut self, thing: &Id) {
        if let (Some(_), touched) = self.since.get_mut().expect("never poisoned") {
            touched.insert(thing.clone());
        }
    }
}

impl Tables {
    pub fn new(initial: Arc<State>) -> Self {
        Tables {
            initial,
            ..Tables::default()
        }
    }

    /// Events indexed so far.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Indexes the next event, `e`, at position `self.len()` of the events.
    pub fn push(&mut self, robot: &Id, e: &Event) {
        self.derived.grew();
        let pos = self.len;
        self.len += 1;
        let observed = self.all_seeing || e.observers.contains(robot);
        let revealed = self.all_seeing || e.revealed_to.contains(robot);
        if e.outcome.is_ok() {
            let mut unsettled = false;
            for c in e.changes.iter().filter(|c| c.attr.as_str() == "position") {
                let (Value::Position(old), Value::Position(new)) = (&c.old, &c.new) else {
                    continue;
                };
                if (old.room.as_str() == OUTSIDE) != (new.room.as_str() == OUTSIDE) {
                    let to = (e.id, new.room.as_str() != OUTSIDE);
                    self.inout.entry(c.entity.clone()).or_default().push(to);
                }
                if old.room != new.room && observed {
                    unsettled = true;
                    if c.entity == *robot {
                        self.robot_rooms.push((e.id, new.room.clone()));
                    } else {
                        self.perceive_at(&c.entity, e.id, &new.room);
                    }
                }
            }
            if e.actor == *robot && matches!(e.action, Action::Wait { standby: true, .. }) {
                self.standby.push(e.id);
                unsettled = true;
            }
            if unsettled {
                self.unsettling.push(e.id);
            }
            if let Action::Leave { to, .. } = &e.action {
                let l = Leaving {
                    event: e.id,
                    day: e.day,
                    to: *to,
                    perceived: observed,
                };
                self.leaves.entry(e.actor.clone()).or_default().push(l);
            }
            if observed {
                let (before, after) = match e.action {
                    Action::Leave { .. } => (true, false),
                    Action::Arrive { .. } => (false, true),
                    _ => (true, true),
                };
                let seen = (e.id, before, after);
                self.sightings
                    .entry(e.actor.clone())
                    .or_default()
                    .push(seen);
            }
            for c in e.changes.iter().filter(|c| c.attr.as_str() != "position") {
                let key = (c.entity.clone(), c.attr.clone());
                self.changes
                    .entry(key.clone())
                    .or_default()
                    .push((e.id, c.new.clone()));
                if observed && (self.all_seeing || !e.heard_only(robot, c)) {
                    self.see(key, robot, e, &c.new);
                }
            }
            if observed && let Action::Say { claims, .. } = &e.action {
                for c in claims {
                    self.claims
                        .entry((c.mode, c.entity.clone(), c.attr.clone()))
                        .or_default()
                        .push(self.heard.len());
                    self.heard.push(Heard {
                        event: e.id,
                        speaker: e.actor.clone(),
                        claim: c.clone(),
                    });
                }
            }
        }
        if revealed {
            for f in &e.reveals {
                match &f.value {
                    Value::Position(p) if f.attr.as_str() == "position" => {
                        self.perceive_at(&f.entity, e.id, &p.room);
                        let home = p.room.as_str() != OUTSIDE;
                        let seen = self.sightings.entry(f.entity.clone()).or_default();
                        if seen.last().is_none_or(|s| s.0 != e.id) {
                            seen.push((e.id, home, home));
                        }
                    }
                    _ if f.attr.as_str() == "position" => {}
                    _ => self.see((f.entity.clone(), f.attr.clone()), robot, e, &f.value),
                }
            }
        }
        if e.outcome.is_ok() && (observed || revealed) {
            self.visible.push(pos);
            if let Some(act) = act_of(&e.action) {
                let key = act_key(&act);
                (self.by_actor_act.entry((e.actor.clone(), key.clone())))
                    .or_default()
                    .push(self.acted.len());
                self.by_act.entry(key).or_default().push(self.acted.len());
                self.acted.push((pos, act));
            }
            match &e.action {
                Action::SetDeviceState { device, field, .. } => self
                    .device_ops
                    .entry((device.clone(), field.clone()))
                    .or_default()
                    .push(pos),
                Action::Place { object, target, .. } => {
                    self.placed.entry(object.clone()).or_default().push(pos);
                    let on = (object.clone(), target.clone());
                    self.placed_on.entry(on).or_default().push(e.id);
                }
                _ => {}
            }
        }
        // A thing seen to come in from outside, in an event whose moves
        // the robot saw (not only heard).
        if e.outcome.is_ok() && self.saw_moves(robot, e) {
            let outside = Value::Location(Location::Outside);
            for c in &e.changes {
                if c.attr.as_str() == "location" && c.old == outside && c.new != outside {
                    let key = (c.entity.clone(), c.attr.clone());
                    if self.seen.get(&key).and_then(|s| s.last()).map(|s| s.event) != Some(e.id) {
                        continue;
                    }
                    let came = self.came_in.entry(c.entity.clone()).or_default();
                    if came.last() != Some(&e.id) {
                        came.push(e.id);
                    }
                }
            }
        }
    }

    /// Whether `robot` perceived `e` and saw, not only heard, what moved.
    fn saw_moves(&self, robot: &Id, e: &Event) -> bool {
        self.all_seeing
            || ((e.observers.contains(robot) || e.revealed_to.contains(robot))
                && !e.heard_by.contains(robot))
    }

    /// The robot perceived `who` in `room` in event `event`.
    fn perceive_at(&mut self, who: &Id, event: u64, room: &Id) {
        let w = self.whereabouts.entry(who.clone()).or_default();
        if w.last().is_none_or(|(_, r)| r != room) {
            w.push((event, room.clone()));
        }
    }

    fn see(&mut self, key: Key, robot: &Id, e: &Event, value: &Value) {
        let event = e.id;
        self.derived.touched(&key.0);
        if key.1.as_str() == "location"
            && !self.seen.contains_key(&key)
            && matches!(value, Value::Location(Location::CarriedBy(p)) if p != robot)
            && !matches!(e.action, Action::Leave { .. })
        {
            self.first_in_bag.insert(key.0.clone(), event);
        }
        let places = self.places.entry(key.clone()).or_default();
        let held = matches!(value, Value::Location(Location::HeldBy(_)));
        if !(key.1.as_str() == "location" && held)
            && places.last().is_none_or(|p| p.value != *value)
        {
            let i = places.len();
            let prev_same = places.iter().rposition(|p| p.value == *value);
            if let Some(j) = prev_same {
                places[j].next_same = Some(i);
            }
            places.push(Place {
                event,
                value: value.clone(),
                prev_same,
                next_same: None,
            });
        }
        self.seen.entry(key).or_default().push(Seen {
            event,
            value: value.clone(),
        });
    }
}

/// Whether `places[i]`'s value occurs nowhere else in `places` (a prefix of
/// one key's places).
pub fn only_once(places: &[Place], i: usize) -> bool {
    places[i].prev_same.is_none() && places[i].next_same.is_none_or(|n| n >= places.len())
}

pub struct Index<'a> {
    pub scene: &'a Scene,
    /// Events in id order: a whole trace, or a memory's subset of one.
    pub events: &'a [Event],
    pub robot: Id,
    pub tables: Cow<'a, Tables>,
    /// What of the scene the stock questions read, made when first asked.
    stockroom: OnceLock<Arc<Stockroom>>,
    /// By key and person: the robot's sights of the key they perceived
    /// too, as far as a sweep has scanned them ([`Index::scan_shared`]).
    shared: Mutex<HashMap<(Key, Id), Scanned>>,
}

/// A thing of a kind used up, as the index saw it over the whole trace.
#[derive(Debug, Clone)]
pub struct StockThing {
    pub id: Id,
    /// The robot's first sight of it.
    first: u64,
    /// Where the robot's sights of where it is turn from in the house to
    /// gone (out of the house or in a bin, and for good once in a bin) or
    /// back: the first sight of each run, and whether it was of it gone.
    runs: Vec<(u64, bool)>,
}

impl StockThing {
    /// Since when, by `cutoff`, the robot has seen it in the house, or gone
    /// (`true`): the first of its last run of sights alike. A lookup, where
    /// a walk back through the sights of a thing on a shelf for weeks grew
    /// with the months at every cutoff.
    pub fn since(&self, cutoff: u64) -> Option<(u64, bool)> {
        let before = self.runs.partition_point(|(e, _)| *e < cutoff);
        before.checked_sub(1).map(|i| self.runs[i])
    }
}

/// A forward scan of one key's sights for one person: how many were
/// scanned, and which of them the person perceived.
#[derive(Default)]
struct Scanned {
    upto: usize,
    shared: Vec<usize>,
}

/// Whether `person` perceived `key`'s value in `e`: a change of it they
/// observed, or a view that showed it to them.
pub fn perceived_in(e: &Event, person: &Id, key: &Key) -> bool {
    let is = |entity: &Id, attr: &Id| *entity == key.0 && *attr == key.1;
    (e.outcome.is_ok()
        && e.observers.contains(person)
        && (e.changes.iter()).any(|c| is(&c.entity, &c.attr) && !e.heard_only(person, c)))
        || (e.revealed_to.contains(person) && e.reveals.iter().any(|f| is(&f.entity, &f.attr)))
}

fn robot_of(scene: &Scene) -> Id {
    scene
        .robots()
        .into_iter()
        .next()
        .unwrap_or_else(|| Id::new("robot"))
}

impl<'a> Index<'a> {
    /// Indexes `events` of a trace of `scene` (ids dense from 1).
    pub fn new(scene: &'a Scene, events: &'a [Event]) -> Self {
        Self::with_initial(scene, events, Arc::new(initial_state(scene)))
    }

    /// As [`Index::new`], with the scene's initial state computed once by
    /// the caller.
    pub fn with_initial(scene: &'a Scene, events: &'a [Event], initial: Arc<State>) -> Self {
        Self::growing(scene, events, Tables::new(initial))
    }

    /// As [`Index::with_initial`], as an observer who perceived every event
    /// would index them: what was true, not what the robot knew.
    pub fn all_seeing(scene: &'a Scene, events: &'a [Event], initial: Arc<State>) -> Self {
        let tables = Tables {
            all_seeing: true,
            ..Tables::new(initial)
        };
        Self::growing(scene, events, tables)
    }

    /// `events` indexed into empty `tables`, which the index owns.
    fn growing(scene: &'a Scene, events: &'a [Event], tables: Tables) -> Self {
        let mut ix = Index {
            scene,
            events: &[],
            robot: robot_of(scene),
            tables: Cow::Owned(tables),
            stockroom: OnceLock::new(),
            shared: Mutex::default(),
        };
        ix.extend(events);
        ix
    }

    /// An index over `events` from tables kept by the caller, which indexed
    /// exactly these events.
    pub fn over(scene: &'a Scene, events: &'a [Event], tables: &'a Tables) -> Self {
        debug_assert_eq!(tables.len(), events.len(), "the tables index these events");
        Index {
            scene,
            events,
            robot: robot_of(scene),
            tables: Cow::Borrowed(tables),
            stockroom: OnceLock::new(),
            shared: Mutex::default(),
        }
    }

    /// Goes on to `events`, which start with the events indexed so far:
    /// indexes only the new ones.
    pub fn extend(&mut self, events: &'a [Event]) {
        debug_assert!(events.len() >= self.events.len(), "an index only grows");
        let new = &events[self.tables.len()..];
        if !new.is_empty() {
            let tables = self.tables.to_mut();
            for e in new {
                debug_assert!(
                    tables.len == 0 || events[tables.len - 1].id <= e.id,
                    "events are in id order"
                );
                tables.push(&self.robot, e);
            }
        }
        self.events = events;
    }

    /// What of the scene the stock questions read.
    pub fn stockroom(&self) -> &Stockroom {
        self.stockroom
            .get_or_init(|| Arc::new(Stockroom::of(self.scene)))
    }

    /// With `room`, this scene's stockroom made once by the caller, which
    /// asks over many indexes of one scene (a memory answering each
    /// question from the events it recalls).
    pub fn stocked(self, room: &Arc<Stockroom>) -> Self {
        let _ = self.stockroom.set(room.clone());
        self
    }

    /// The things of `kind` (the stockroom's) the robot had seen by
    /// `cutoff`, in scene order: of the months' stock, those come in
    /// (what is still in the shop, most of it in the last weeks, the robot
    /// knows nothing of).
    pub fn stock_seen(&self, kind: &str, cutoff: u64) -> impl Iterator<Item = &StockThing> {
        let stock = self.tables.derived.stock.get_or_init(|| {
            let (t, room) = (&self.tables, self.stockroom());
            let seen = |o: &Id, attr: &str| t.seen.get(&(o.clone(), Id::new(attr)));
            let thing = |o: &Id| {
                let came = t.came_in.get(o).and_then(|c| c.first().copied());
                let bag = t.first_in_bag.get(o).copied();
                let level = seen(o, LEVEL).and_then(|l| Some(l.first()?.event));
                let placed = seen(o, "location").map_or(&[][..], Vec::as_slice);
                let (mut runs, mut binned): (Vec<(u64, bool)>, _) = (Vec::new(), false);
                for s in placed {
                    // Rubbish never comes back: the empty carton seen
                    // carried out with the bag is gone, not in the house.
                    binned |= room.in_bin(&s.value);
                    let gone = binned || room.gone(&s.value);
                    if runs.last().is_none_or(|(_, g)| *g != gone) {
                        runs.push((s.event, gone));
                    }
                }
                let first = [placed.first().map(|s| s.event), level, came, bag];
                Some(StockThing {
                    id: o.clone(),
                    first: first.into_iter().flatten().min()?,
                    runs,
                })
            };
            let mut since = self.tables.derived.since.lock().expect("never poisoned");
            match std::mem::take(&mut *since) {
                // Worked out before from the same stockroom: the same
                // kinds, each with the same things.
                (Some(mut stock), touched) => {
                    for (things, slots) in room.kinds.values().zip(stock.values_mut()) {
                        for (o, slot) in things.iter().zip(slots) {
                            if touched.contains(o) {
                                *slot = thing(o);
                            }
                        }
                    }
                    stock
                }
                (None, _) => (room.kinds.iter())
                    .map(|(kind, things)| (kind.clone(), things.iter().map(thing).collect()))
                    .collect(),
            }
        });
        (stock.get(kind).into_iter().flatten().flatten()).filter(move |t| t.first < cutoff)
    }

    /// The last event before `cutoff` in which the robot saw `object` come
    /// into the house (carried in from outside, with `true`), or else its
    /// first sighting, if that was in someone's bag coming home (`false`).
    pub fn came_in(&self, object: &Id, cutoff: u64) -> Option<(&'a Event, bool)> {
        let t = &self.tables;
        let came = t.came_in.get(object).map_or(&[][..], Vec::as_slice);
        match came[..came.partition_point(|e| *e < cutoff)].last() {
            Some(e) => Some((self.event(*e)?, true)),
            None => {
                let e = t.first_in_bag.get(object).filter(|e| **e < cutoff)?;
                Some((self.event(*e)?, false))
            }
        }
    }

    /// The last place action before `cutoff` the robot perceived that put
    /// `object` on or in one of `targets`.
    pub fn last_placed_on(&self, object: &Id, targets: &[Id], cutoff: u64) -> Option<&'a Event> {
        let on = &self.tables.placed_on;
        let last = (targets.iter())
            .filter_map(|t| {
                let l = on.get(&(object.clone(), t.clone()))?;
                l[..l.partition_point(|e| *e < cutoff)].last()
            })
            .max()?;
        self.event(*last)
    }

    /// Whether the robot saw `object` in a bin before `cutoff`: thrown
    /// out, for good (rubbish never comes back: the lint's
    /// `rubbish_reused`).
    pub fn binned(&self, object: &Id, cutoff: u64) -> bool {
        self.binned_at(object).is_some_and(|e| e < cutoff)
    }

    /// The event in which the robot first saw `object` in a bin, if ever
    /// ([`Index::binned`] before any later cutoff).
    pub fn binned_at(&self, object: &Id) -> Option<u64> {
        let first = self.tables.derived.binned.get_or_init(|| {
            let (room, location) = (self.stockroom(), Id::new("location"));
            (self.tables.places.iter())
                .filter(|((_, attr), _)| *attr == location)
                .filter_map(|((thing, _), places)| {
                    let p = places.iter().find(|p| room.in_bin(&p.value))?;
                    Some((thing.clone(), p.event))
                })
                .collect()
        });
        first.get(object).copied()
    }

    /// The event with id `id`. A full trace has dense ids (a direct
    /// lookup); an agent's memory holds a subset (a binary search).
    pub fn event(&self, id: u64) -> Option<&'a Event> {
        let events = self.events;
        match usize::try_from(id)
            .ok()?
            .checked_sub(1)
            .and_then(|i| events.get(i))
        {
            Some(e) if e.id == id => Some(e),
            _ => events
                .binary_search_by_key(&id, |e| e.id)
                .ok()
                .map(|i| &events[i]),
        }
    }

    /// Events after `id`, in order.
    pub fn after(&self, id: u64) -> &'a [Event] {
        &self.events[self.events.partition_point(|e| e.id <= id)..]
    }

    /// Whether the robot saw what `e` moved: it perceived it, and not
    /// only by ear (a departure heard through a wall says who went, not
    /// what they took).
    pub fn saw_moves(&self, e: &Event) -> bool {
        self.tables.saw_moves(&self.robot, e)
    }

    /// Whether the robot perceived event `e` (saw or heard it, or saw what
    /// it revealed).
    pub fn robot_saw(&self, e: &Event) -> bool {
        self.tables.all_seeing
            || e.observers.contains(&self.robot)
            || e.revealed_to.contains(&self.robot)
    }

    /// The positions in `list` (in event order, none when absent) of
    /// events before `cutoff`.
    fn before(&self, list: Option<&'a Vec<usize>>, cutoff: u64) -> &'a [usize] {
        let list = list.map_or(&[][..], Vec::as_slice);
        let events = self.events;
        &list[..list.partition_point(|p| events[*p].id < cutoff)]
    }

    /// Accepted events the robot perceived, before `cutoff`.
    pub fn visible(&self, cutoff: u64) -> impl DoubleEndedIterator<Item = &'a Event> + '_ {
        let events = self.events;
        self.visible_positions(cutoff)
            .iter()
            .map(move |p| &events[*p])
    }

    fn visible_positions(&self, cutoff: u64) -> &[usize] {
        let events = self.events;
        let v = &self.tables.visible;
        &v[..v.partition_point(|p| events[*p].id < cutoff)]
    }

    /// The perceived events with an act worth asking about, before
    /// `cutoff`, with their act.
    pub fn acts(&self, cutoff: u64) -> impl DoubleEndedIterator<Item = (&'a Event, &Act)> + '_ {
        let (events, acted) = (self.events, &self.tables.acted);
        acted[..acted.partition_point(|(p, _)| events[*p].id < cutoff)]
            .iter()
            .map(move |(p, a)| (&events[*p], a))
    }

    /// Perceived events before `cutoff` of `act`, by `actor` if given.
    pub fn doing<'s>(
        &'s self,
        actor: Option<&'s Id>,
        act: &'s Act,
        cutoff: u64,
    ) -> impl DoubleEndedIterator<Item = &'a Event> + 's {
        let events = self.events;
        let list = match actor {
            Some(who) => self.tables.by_actor_act.get(&(who.clone(), act_key(act))),
            None => self.tables.by_act.get(&act_key(act)),
        };
        let list = list.map_or(&[][..], Vec::as_slice);
        let acted = &self.tables.acted;
        list[..list.partition_point(|i| events[acted[*i].0].id < cutoff)]
            .iter()
            .map(move |i| (&events[acted[*i].0], &acted[*i].1))
            .filter(move |(e, a)| *a == act && actor.is_none_or(|x| *x == e.actor))
            .map(|(e, _)| e)
    }

    /// How many perceived events before `cutoff` have an act looked up as
    /// `act` is (its skill and arguments, by anyone, any value): the list
    /// a habit of it is worked out from.
    pub fn acts_like(&self, act: &Act, cutoff: u64) -> usize {
        let (events, acted) = (self.events, &self.tables.acted);
        let list = self.tables.by_act.get(&act_key(act));
        let list = list.map_or(&[][..], Vec::as_slice);
        list.partition_point(|i| events[acted[*i].0].id < cutoff)
    }

    /// Perceived operations of `device.field` before `cutoff`.
    pub fn device_ops(
        &self,
        device: &Id,
        field: &str,
        cutoff: u64,
    ) -> impl ExactSizeIterator<Item = &'a Event> + DoubleEndedIterator + '_ {
        let list = self
            .tables
            .device_ops
            .get(&(device.clone(), field.to_string()));
        let events = self.events;
        self.before(list, cutoff).iter().map(move |p| &events[*p])
    }

    /// Perceived place actions of `object` before `cutoff`.
    pub fn placements(
        &self,
        object: &Id,
        cutoff: u64,
    ) -> impl ExactSizeIterator<Item = &'a Event> + DoubleEndedIterator + '_ {
        let events = self.events;
        self.before(self.tables.placed.get(object), cutoff)
            .iter()
            .map(move |p| &events[*p])
    }

    /// Objects the robot saw being placed before `cutoff`, in id order.
    pub fn placed_objects(&self, cutoff: u64) -> impl Iterator<Item = &Id> + '_ {
        let events = self.events;
        self.tables
            .placed
            .iter()
            .filter(move |(_, ps)| events[ps[0]].id < cutoff)
            .map(|(o, _)| o)
    }

    /// Each thing of the scene the robot ever saw somewhere, in scene
    /// order, with every sight of where it was: what the questions about
    /// where things are (and are thought to be) walk at every cutoff,
    /// found once (the months' stock makes the scene long, and most of it
    /// is not seen for weeks).
    pub fn located(&self) -> Vec<(&'a ObjectDef, &[Seen])> {
        let location = Id::new("location");
        (self.scene.objects.iter())
            .map(|o| {
                (
                    o,
                    self.seen_before(&(o.id.clone(), location.clone()), u64::MAX),
                )
            })
            .filter(|(_, seen)| !seen.is_empty())
            .collect()
    }

    /// The robot's observations of `key` before `cutoff`.
    pub fn seen_before(&self, key: &Key, cutoff: u64) -> &[Seen] {
        let all = self.tables.seen.get(key).map_or(&[][..], |v| v.as_slice());
        &all[..all.partition_point(|s| s.event < cutoff)]
    }

    /// The last of `seen` (the index's sights of `key` before a cutoff)
    /// that `person` perceived too: what they last saw it be, as far as the
    /// index can tell. Walked back from the cutoff, unless a sweep keeps
    /// the key's scan ([`Index::scan_shared`]).
    pub fn last_shared(&self, seen: &[Seen], person: &Id, key: &Key) -> Option<usize> {
        let mut memo = self.shared.lock().unwrap_or_else(|e| e.into_inner());
        match memo.get_mut(&(key.clone(), person.clone())) {
            Some(scan) => self.scanned(scan, seen, person, key),
            None => (seen.iter()).rposition(|s| {
                self.event(s.event)
                    .is_some_and(|e| perceived_in(e, person, key))
            }),
        }
    }

    /// [`Index::last_shared`], keeping the key's scan for `person`: its
    /// sights are read once, forward, as later cutoffs ask. A sweep asks of
    /// every thing at every cutoff, and the walk back from each (through
    /// all the sights of a thing someone rarely sees) grew with the months;
    /// a question asked once walks back less.
    pub fn scan_shared(&self, seen: &[Seen], person: &Id, key: &Key) -> Option<usize> {
        let mut memo = self.shared.lock().unwrap_or_else(|e| e.into_inner());
        let scan = memo.entry((key.clone(), person.clone())).or_default();
        self.scanned(scan, seen, person, key)
    }

    /// `scan` carried on to the end of `seen`, and the last of it shared.
    fn scanned(&self, scan: &mut Scanned, seen: &[Seen], person: &Id, key: &Key) -> Option<usize> {
        for (k, s) in seen.iter().enumerate().skip(scan.upto) {
            if self
                .event(s.event)
                .is_some_and(|e| perceived_in(e, person, key))
            {
                scan.shared.push(k);
            }
        }
        scan.upto = scan.upto.max(seen.len());
        // A sweep's `seen` only grows: then it is all of the scan, with no
        // search of it.
        let before = if seen.len() == scan.upto {
            scan.shared.len()
        } else {
            scan.shared.partition_point(|&k| k < seen.len())
        };
        scan.shared[..before].last().copied()
    }

    /// The values the robot saw `key` take before `cutoff`, one entry per
    /// change of value (where it saw an object lie: hands left out).
    pub fn places_before(&self, key: &Key, cutoff: u64) -> &[Place] {
        let all = self
            .tables
            .places
            .get(key)
            .map_or(&[][..], |v| v.as_slice());
        &all[..all.partition_point(|s| s.event < cutoff)]
    }

    /// Every key the robot saw, with its places before `cutoff`.
    pub fn all_places(&self, cutoff: u64) -> impl Iterator<Item = (&Key, &[Place])> + '_ {
        self.tables
            .places
            .iter()
            .map(move |(k, all)| (k, &all[..all.partition_point(|s| s.event < cutoff)]))
    }

    /// The true value of `key` just before event `cutoff`.
    pub fn truth(&self, key: &Key, cutoff: u64) -> Option<&Value> {
        let changes = self.changes_of(key);
        let n = changes.partition_point(|(e, _)| *e < cutoff);
        n.checked_sub(1)
            .map(|i| &changes[i].1)
            .or_else(|| self.tables.initial.get(key))
    }

    /// The true changes of `key`, as (event, new value).
    pub fn changes_of(&self, key: &Key) -> &[(u64, Value)] {
        self.tables
            .changes
            .get(key)
            .map_or(&[][..], |v| v.as_slice())
    }

    /// Claims heard before `cutoff`.
    pub fn heard_before(&self, cutoff: u64) -> &[Heard] {
        let heard = &self.tables.heard;
        &heard[..heard.partition_point(|h| h.event < cutoff)]
    }

    /// Claims of `mode` about `entity.attr` heard before `cutoff`, in order.
    pub fn claims(
        &self,
        mode: ClaimMode,
        entity: &Id,
        attr: &Id,
        cutoff: u64,
    ) -> impl DoubleEndedIterator<Item = &Heard> + '_ {
        let heard = &self.tables.heard;
        let list = self
            .tables
            .claims
            .get(&(mode, entity.clone(), attr.clone()))
            .map_or(&[][..], Vec::as_slice);
        list[..list.partition_point(|i| heard[*i].event < cutoff)]
            .iter()
            .map(move |i| &heard[*i])
    }

    /// The claims made in event `event`, if heard before `cutoff`.
    pub fn heard_in(&self, event: u64, cutoff: u64) -> &[Heard] {
        if event >= cutoff {
            return &[];
        }
        let heard = &self.tables.heard;
        &heard[heard.partition_point(|h| h.event < event)
            ..heard.partition_point(|h| h.event <= event)]
    }

    /// Whether `person` was home during event `x`, as the robot believed
    /// then: from the last thing it perceived of them up to `x` (what
    /// they did, a word, seeing them in a room, hearing them go out or
    /// come in), or else from the start (the household at home, visitors
    /// out). With the sighting it rests on (none for the start); `None`
    /// when they went out or came in unperceived since, so that nothing
    /// the robot perceived settles it.
    pub fn presence(&self, person: &Id, x: u64, cutoff: u64) -> Option<(bool, Option<u64>)> {
        let moves = self.tables.inout.get(person).map_or(&[][..], Vec::as_slice);
        let seen = self
            .tables
            .sightings
            .get(person)
            .map_or(&[][..], Vec::as_slice);
        let seen = &seen[..seen.partition_point(|s| s.0 < cutoff.min(x + 1))];
        let (from, home) = match seen.last() {
            Some(&(e, before, after)) => (e, if e == x { before } else { after }),
            None => {
                let start = self
                    .tables
                    .initial
                    .get(&(person.clone(), Id::new("position")));
                (
                    0,
                    !matches!(start, Some(Value::Position(p)) if p.room.as_str() == OUTSIDE),
                )
            }
        };
        // Nothing unperceived in between: then the belief is the truth.
        let moved = moves.iter().any(|(e, _)| from < *e && *e < x);
        (!moved).then_some((home, (from > 0).then_some(from)))
    }

    /// `person`'s departures before `cutoff`, perceived or not.
    pub fn leaves(&self, person: &Id, cutoff: u64) -> &[Leaving] {
        let all = self
            .tables
            .leaves
            .get(person)
            .map_or(&[][..], Vec::as_slice);
        &all[..all.partition_point(|l| l.event < cutoff)]
    }

    /// The true moments `person` went out (`false`) or came in (`true`).
    pub fn comings_and_goings(&self, person: &Id) -> &[(u64, bool)] {
        self.tables.inout.get(person).map_or(&[][..], Vec::as_slice)
    }

    /// The session of event `id`.
    pub fn session_of(&self, id: u64) -> Option<&'a str> {
        self.event(id)?.session.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ten days of the family apartment with the shop's stock for them, as
    /// `hearth generate` lives it: things come in, are used up and binned.
    fn ten_days() -> (Scene, Vec<Event>) {
        let src = crate::scene::BUILTIN[0].1;
        let base = crate::scene::parse("family_apartment", src).expect("it parses");
        let scene = crate::generation::scripted::provision(&base, 10, crate::catalogue::builtin());
        let events = crate::samples::sweep::lived(&scene, 10, 5);
        (scene, events)
    }

    /// Cutoffs through the trace, in order, as a sweep goes.
    fn cutoffs(events: &[Event]) -> impl Iterator<Item = u64> {
        (1..=events.len() as u64 + 1).step_by(61)
    }

    #[test]
    fn a_kept_scan_finds_what_a_walk_back_finds_at_every_cutoff() {
        let (scene, events) = ten_days();
        let (swept, asked_once) = (Index::new(&scene, &events), Index::new(&scene, &events));
        let people: Vec<&Id> = (scene.actors.iter())
            .filter(|a| a.lives_here())
            .map(|a| &a.id)
            .collect();
        let keys: Vec<&Key> = (swept.tables.seen.keys())
            .filter(|k| k.1.as_str() == "location")
            .collect();
        let mut shared = 0;
        for c in cutoffs(&events) {
            for key in &keys {
                let seen = swept.seen_before(key, c);
                for p in &people {
                    let walk = (seen.iter()).rposition(|s| {
                        perceived_in(swept.event(s.event).expect("indexed"), p, key)
                    });
                    assert_eq!(swept.scan_shared(seen, p, key), walk, "{key:?} {p} at {c}");
                    // Kept or not, the same answer.
                    assert_eq!(swept.last_shared(seen, p, key), walk);
                    assert_eq!(asked_once.last_shared(seen, p, key), walk);
                    shared += usize::from(walk.is_some());
                }
            }
        }
        // A sweep back to an earlier cutoff reads the kept scan.
        let (key, p) = (keys[0], people[0]);
        let early = swept.seen_before(key, 200);
        let walk = (early.iter())
            .rposition(|s| perceived_in(swept.event(s.event).expect("indexed"), p, key));
        assert_eq!(swept.scan_shared(early, p, key), walk);
        assert!(shared > 1000, "{shared} sights shared");
    }

    /// What the stock questions read is kept with the tables, for every
    /// index over them, and worked out again once they grow: tables pushed
    /// to each cutoff in turn, as a memory's are between questions, answer
    /// as the whole trace's index does there.
    #[test]
    fn tables_kept_between_questions_work_their_stock_out_again_as_they_grow() {
        let (scene, events) = ten_days();
        let whole = Index::new(&scene, &events);
        let mut tables = Tables::new(Arc::new(initial_state(&scene)));
        let (mut binned, mut stock) = (0, 0);
        for c in cutoffs(&events) {
            let upto = events.partition_point(|e| e.id < c);
            for e in &events[tables.len()..upto] {
                tables.push(&whole.robot, e);
            }
            let ix = Index::over(&scene, &events[..upto], &tables);
            for o in &scene.objects {
                assert_eq!(
                    ix.binned(&o.id, c),
                    whole.binned(&o.id, c),
                    "{} at {c}",
                    o.id
                );
                binned += usize::from(ix.binned(&o.id, c));
            }
            for kind in whole.stockroom().kinds.keys() {
                let seen = |ix: &Index| -> Vec<(Id, Option<(u64, bool)>)> {
                    (ix.stock_seen(kind, c).map(|t| (t.id.clone(), t.since(c)))).collect()
                };
                assert_eq!(seen(&ix), seen(&whole), "{kind} at {c}");
                stock += seen(&ix).len();
            }
        }
        assert!(binned > 0 && stock > 0, "{binned} binned, {stock} stock");
    }

    #[test]
    fn thrown_out_and_come_in_are_what_the_sightings_say() {
        let (scene, events) = ten_days();
        let ix = Index::new(&scene, &events);
        let room = ix.stockroom();
        let location = Id::new("location");
        let (mut binned, mut turned) = (0, 0);
        for c in cutoffs(&events) {
            for o in &scene.objects {
                let key = (o.id.clone(), location.clone());
                let thrown = (ix.places_before(&key, c).iter()).any(|p| room.in_bin(&p.value));
                assert_eq!(ix.binned(&o.id, c), thrown, "{} at {c}", o.id);
                binned += usize::from(thrown);
            }
            for (kind, things) in &room.kinds {
                // Seen by the cutoff: where it is, or how much is left.
                let seen =
                    |o: &Id, attr: &str| !ix.seen_before(&(o.clone(), Id::new(attr)), c).is_empty();
                let expected: Vec<&Id> = (things.iter())
                    .filter(|o| seen(o, "location") || seen(o, LEVEL))
                    .collect();
                let found: Vec<&StockThing> = ix.stock_seen(kind, c).collect();
                assert_eq!(found.iter().map(|t| &t.id).collect::<Vec<_>>(), expected);
                // Since when in the house or gone: the first of the last
                // run of sights alike, gone for good once seen in a bin.
                for t in &found {
                    let placed = ix.seen_before(&(t.id.clone(), location.clone()), c);
                    let gone: Vec<bool> = (0..placed.len())
                        .map(|i| {
                            room.gone(&placed[i].value)
                                || placed[..=i].iter().any(|s| room.in_bin(&s.value))
                        })
                        .collect();
                    let since = gone.last().map(|&last| {
                        let run = gone.iter().rposition(|g| *g != last);
                        (placed[run.map_or(0, |i| i + 1)].event, last)
                    });
                    assert_eq!(t.since(c), since, "{} at {c}", t.id);
                    turned += usize::from(since.is_some_and(|(e, _)| e > placed[0].event));
                }
            }
        }
        assert!(binned > 0 && turned > 0, "{binned} binned, {turned} turned");
    }

    /// One person's doing of an act, read from their own list, is
    /// everyone's doing of it by that person; and no one's for an act they
    /// never did.
    #[test]
    fn doing_by_one_person_is_everyones_doing_by_them() {
        let (scene, events) = ten_days();
        let ix = Index::new(&scene, &events);
        let people: Vec<&Id> = scene.actors.iter().map(|a| &a.id).collect();
        let (mut found, mut never) = (0, 0);
        for c in cutoffs(&events) {
            for (_, act) in ix.tables.acted.iter().step_by(7) {
                for p in &people {
                    let own: Vec<u64> = ix.doing(Some(p), act, c).map(|e| e.id).collect();
                    let all: Vec<u64> = (ix.doing(None, act, c))
                        .filter(|e| e.actor == **p)
                        .map(|e| e.id)
                        .collect();
                    assert_eq!(own, all, "{p} {act:?} before {c}");
                    if own.is_empty() {
                        never += 1;
                    } else {
                        found += 1;
                    }
                }
            }
        }
        assert!(found > 0 && never > 0, "{found} found, {never} never");
    }
}
