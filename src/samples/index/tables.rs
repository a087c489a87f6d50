//! An index's tables ([`Tables`]): what the robot observed of each
//! attribute, the truth's changes, the claims it heard, its acts and the
//! comings and goings, appended to event by event ([`Tables::push`]) and
//! kept apart from the events, so that a memory indexes them once, as it
//! grows. What is worked out from them ([`Derived`]) is kept with them.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, OnceLock};

use bevy::platform::collections::HashMap;

use crate::ids::Id;
use crate::scene::OUTSIDE;
use crate::trace::request::{Action, Destination};
use crate::trace::{Claim, ClaimMode, Event, Key, Location, State, Value};

use crate::samples::act::act_of;
use crate::samples::model::Act;

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
    pub(in crate::samples) prev_same: Option<usize>,
    pub(super) next_same: Option<usize>,
}

/// A departure through an exterior door.
#[derive(Debug, Clone, PartialEq)]
pub struct Leaving {
    pub event: u64,
    pub day: u32,
    pub to: Destination,
    /// Whether the robot perceived it (saw or heard them go).
    pub perceived: bool,
}

/// A person's doings of acts alike but for their value (indexes into
/// [`Tables::acted`]): all of them, and the first with each value, so
/// that whether they ever did one is a look through its few values, not a
/// walk through every time they did it with another.
#[derive(Debug, Clone, Default)]
pub(super) struct Doings {
    pub(super) all: Vec<usize>,
    pub(super) firsts: Vec<usize>,
}

/// What an act is looked up by: its skill and arguments (the value, which
/// need not be ordered, is compared on lookup).
pub(super) type ActKey = (Cow<'static, str>, Option<Id>, Option<Id>, Option<Id>);

pub(super) fn act_key(a: &Act) -> ActKey {
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
    /// What the robot observed of each attribute, in event order. Looked
    /// up at every question (a hash, where a tree's string compares grew
    /// with the months' things); sort its keys to walk them in order.
    pub seen: HashMap<Key, Vec<Seen>>,
    /// The truth: each attribute's value before the first event.
    /// Shared: every memory an agent indexes starts from it.
    pub initial: Arc<State>,
    /// The truth: each attribute's changes, as (event, new value).
    pub changes: BTreeMap<Key, Vec<(u64, Value)>>,
    /// Claims of every mode the robot heard, in event order.
    pub heard: Vec<Heard>,
    /// `seen` with repeats of the same value dropped (see [`Place`]).
    pub(super) places: BTreeMap<Key, Vec<Place>>,
    /// Positions of the accepted events the robot perceived.
    pub(super) visible: Vec<usize>,
    /// Those of them with an act worth asking about, with the act.
    pub(super) acted: Vec<(usize, Act)>,
    /// Indexes into `acted`, by act.
    pub(super) by_act: BTreeMap<ActKey, Vec<usize>>,
    /// The same, by actor and act: whether a person ever did a thing is
    /// a short list, not all of everyone's doing it.
    pub(super) by_actor_act: BTreeMap<(Id, ActKey), Doings>,
    /// Positions of perceived device operations by (device, field), and of
    /// perceived place actions by object.
    pub(super) device_ops: BTreeMap<(Id, String), Vec<usize>>,
    pub(super) placed: BTreeMap<Id, Vec<usize>>,
    /// Indexes into `heard`, by (mode, entity, attribute).
    pub(super) claims: BTreeMap<(ClaimMode, Id, Id), Vec<usize>>,
    /// Each person's true comings and goings: (event, home after it).
    pub(super) inout: BTreeMap<Id, Vec<(u64, bool)>>,
    /// What the robot perceived of each person's presence: (event, home
    /// before it, home after it), from what they did and where it saw them.
    pub(super) sightings: BTreeMap<Id, Vec<(u64, bool, bool)>>,
    /// Every departure: (event, day, where to, whether the robot
    /// perceived it), by who left.
    pub(super) leaves: BTreeMap<Id, Vec<Leaving>>,
    /// What the freshness rule reads ([`Index::current`]): the robot's
    /// moves (event, room after it), its standby waits, and where it
    /// perceived others (event, room), by who.
    pub(in crate::samples) robot_rooms: Vec<(u64, Id)>,
    pub(in crate::samples) standby: Vec<u64>,
    pub(in crate::samples) whereabouts: BTreeMap<Id, Vec<(u64, Id)>>,
    /// Those three merged, in event order: what can make a current view
    /// possibly out of date.
    pub(in crate::samples) unsettling: Vec<u64>,
    /// Where the robot saw each thing come into the house: events in
    /// which it saw its place change from outside, in order.
    pub(super) came_in: BTreeMap<Id, Vec<u64>>,
    /// Things first seen in someone's hands or bag, not the robot's and
    /// not as they left: shopping brought in unseen at the door.
    pub(super) first_in_bag: BTreeMap<Id, u64>,
    /// Perceived place actions by (object, target), as event ids.
    pub(super) placed_on: BTreeMap<(Id, Id), Vec<u64>>,
    /// Worked out from the rest when first asked, and again once they
    /// have grown: kept with them, so that every index over them (a
    /// memory's, one a question) shares the work.
    pub(super) derived: Derived,
    /// Events indexed so far.
    pub(super) len: usize,
    /// Indexes every event as perceived (an observer who misses nothing):
    /// the world as it was, for what is true beside what the robot knew.
    pub(super) all_seeing: bool,
}

/// What the stock questions read of the tables, worked out from them and
/// the scene's stockroom (tables index one scene's events).
#[derive(Debug, Default)]
pub(super) struct Derived {
    /// Each thing the robot saw in a bin, and the first time it did
    /// ([`Index::binned`]).
    pub(super) binned: OnceLock<HashMap<Id, u64>>,
    /// Each kind used up, with the things of it the robot has seen, in
    /// the order it first did (then scene order), and their runs in the
    /// house or gone ([`Index::stock_seen`]).
    pub(super) stock: OnceLock<Stock>,
    /// The stock last worked out and the things the tables have gained
    /// sights of since: only theirs is worked out again, not every
    /// thing's over the whole history at each cutoff.
    pub(super) since: Mutex<(Option<Stock>, BTreeSet<Id>)>,
}

pub(super) type Stock = BTreeMap<String, KindStock>;

/// A kind's things the robot has seen, and each sight of one coming in
/// or going in a bin: when one last did is a search, not a walk through
/// every thing of the kind the months brought (at every question).
#[derive(Debug, Clone, Default)]
pub struct KindStock {
    /// In the order the robot first saw them, then scene order.
    pub(super) things: Vec<StockThing>,
    /// Each sight of one coming in, in order (then scene order).
    pub(super) ins: Vec<CameIn>,
    /// Each perceived placing of one in a bin: (event, its place in the
    /// kind, the robot's first sight of it), in order.
    pub(super) binned: Vec<(u64, usize, u64)>,
}

/// A sight of a thing coming into the house: carried in from outside
/// (`door`), or its first sight at all in someone's bag, which stands for
/// its coming in until the robot sees it come in (`until`).
#[derive(Debug, Clone, Copy)]
pub(super) struct CameIn {
    pub(super) event: u64,
    pub(super) pos: usize,
    pub(super) first: u64,
    pub(super) door: bool,
    pub(super) until: u64,
}

impl KindStock {
    pub(super) const EMPTY: KindStock = KindStock {
        things: Vec::new(),
        ins: Vec::new(),
        binned: Vec::new(),
    };

    pub(super) fn of(mut things: Vec<StockThing>) -> Self {
        things.sort_unstable_by_key(|t| (t.first, t.pos));
        let (mut ins, mut binned) = (Vec::new(), Vec::new());
        for t in &things {
            let (pos, first) = (t.pos, t.first);
            let until = t.came.first().copied().unwrap_or(u64::MAX);
            ins.extend(t.came.iter().map(|&event| CameIn {
                event,
                pos,
                first,
                door: true,
                until: u64::MAX,
            }));
            ins.extend(t.bag.map(|event| CameIn {
                event,
                pos,
                first,
                door: false,
                until,
            }));
            binned.extend(t.binned.iter().map(|&event| (event, pos, first)));
        }
        ins.sort_unstable_by_key(|c| (c.event, c.pos));
        binned.sort_unstable();
        KindStock {
            things,
            ins,
            binned,
        }
    }
}

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
                let doings = (self.by_actor_act.entry((e.actor.clone(), key.clone()))).or_default();
                if !(doings.firsts.iter()).any(|&i| self.acted[i].1.value == act.value) {
                    doings.firsts.push(self.acted.len());
                }
                doings.all.push(self.acted.len());
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
                    // Placed, if only heard: a stock thing's binning.
                    self.derived.touched(object);
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
    pub(super) fn saw_moves(&self, robot: &Id, e: &Event) -> bool {
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

/// A thing of a kind used up, as the index saw it over the whole trace.
#[derive(Debug, Clone)]
pub struct StockThing {
    pub id: Id,
    /// Its place among the things of its kind, in scene order.
    pub pos: usize,
    /// The robot's first sight of it.
    pub(super) first: u64,
    /// Where the robot's sights of where it is turn from in the house to
    /// gone (out of the house or in a bin, and for good once in a bin) or
    /// back: the first sight of each run, and whether it was of it gone.
    pub(super) runs: Vec<(u64, bool)>,
    /// How many sights of where it is the runs were worked out from, and
    /// whether one was in a bin (for good).
    pub(super) read: usize,
    pub(super) thrown: bool,
    /// The events in which the robot saw it come in from outside, and its
    /// first sight in someone's bag (not the robot's), if so.
    pub(super) came: Vec<u64>,
    pub(super) bag: Option<u64>,
    /// The perceived placings of it in a bin.
    pub(super) binned: Vec<u64>,
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
