//! Indexes over a trace (WorldLines §3.3): each attribute's true timeline,
//! what the robot observed of it and when, the claims it heard, and the
//! sessions. Every query takes a cutoff and looks only before it.
//!
//! The tables are append-only in event order, so an index grows with the
//! trace ([`Index::extend`]): indexing the events before a cutoff and then
//! the rest gives the same tables as indexing them all at once, and every
//! query "before c" is a binary search in a list, not a scan of the past.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, OnceLock};

// Bevy's maps hash with a fixed foldhash, cheaper than std's SipHash on
// these keys; they are only looked up, never iterated into output.
use bevy::platform::collections::HashMap;

use crate::ids::Id;
use crate::scene::{OUTSIDE, ObjectDef, Scene};
use crate::sim::initial_state;
use crate::trace::{ClaimMode, Event, LEVEL, State, Value};

use super::model::Act;
use super::stockroom::Stockroom;

mod tables;

use tables::act_key;

pub use crate::trace::Key;
pub use tables::{Heard, KindStock, Leaving, Place, Seen, StockThing, Tables, only_once};

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
    /// `cutoff`, in the order it first saw them (then scene order,
    /// [`StockThing::pos`]): of the months' stock, those come in (what is
    /// still in the shop, most of it in the last weeks, the robot knows
    /// nothing of, and is not walked past).
    pub fn stock_seen(&self, kind: &str, cutoff: u64) -> impl Iterator<Item = &StockThing> {
        let seen = &self.stock(kind).things;
        seen[..seen.partition_point(|t| t.first < cutoff)].iter()
    }

    /// The latest event before `cutoff` in which the robot saw a thing of
    /// `kind` come into the house (carried in from outside, with `true`),
    /// or else first saw it in someone's bag coming home (`false`): of two
    /// things in one event (two cartons in a bag), the later in scene
    /// order.
    pub fn stock_came_in(&self, kind: &str, cutoff: u64) -> Option<(&'a Event, bool)> {
        let ins = &self.stock(kind).ins;
        let c = ins[..ins.partition_point(|c| c.event < cutoff)]
            .iter()
            .rev()
            .find(|c| c.first < cutoff && (c.door || cutoff <= c.until))?;
        Some((self.event(c.event)?, c.door))
    }

    /// The latest perceived placing before `cutoff` of a thing of `kind`
    /// in a bin (the later thing in scene order, of two).
    pub fn stock_binned(&self, kind: &str, cutoff: u64) -> Option<&'a Event> {
        let binned = &self.stock(kind).binned;
        let (e, ..) = binned[..binned.partition_point(|b| b.0 < cutoff)]
            .iter()
            .rev()
            .find(|b| b.2 < cutoff)?;
        self.event(*e)
    }

    /// What the robot has seen of the things of `kind` over the whole
    /// index, worked out when first asked (again, for the things seen
    /// since, once the index has grown).
    fn stock(&self, kind: &str) -> &KindStock {
        let stock = self.tables.derived.stock.get_or_init(|| {
            let (t, room) = (&self.tables, self.stockroom());
            let seen = |o: &Id, attr: &str| t.seen.get(&(o.clone(), Id::new(attr)));
            // From what was worked out of it before, if anything: its
            // sights are only ever added to.
            let thing = |pos: usize, o: &Id, before: Option<StockThing>| {
                let came = t.came_in.get(o).cloned().unwrap_or_default();
                let bag = t.first_in_bag.get(o).copied();
                let level = seen(o, LEVEL).and_then(|l| Some(l.first()?.event));
                let placed = seen(o, "location").map_or(&[][..], Vec::as_slice);
                let (mut runs, mut thrown, read) =
                    before.map_or((Vec::new(), false, 0), |t| (t.runs, t.thrown, t.read));
                for s in &placed[read..] {
                    // Rubbish never comes back: the empty carton seen
                    // carried out with the bag is gone, not in the house.
                    thrown |= room.in_bin(&s.value);
                    let gone = thrown || room.gone(&s.value);
                    if runs.last().is_none_or(|(_, g)| *g != gone) {
                        runs.push((s.event, gone));
                    }
                }
                let first = [
                    placed.first().map(|s| s.event),
                    level,
                    came.first().copied(),
                    bag,
                ];
                let binned = (room.bins.iter())
                    .filter_map(|b| t.placed_on.get(&(o.clone(), b.clone())))
                    .flatten()
                    .copied()
                    .collect();
                Some(StockThing {
                    id: o.clone(),
                    pos,
                    first: first.into_iter().flatten().min()?,
                    runs,
                    read: placed.len(),
                    thrown,
                    came,
                    bag,
                    binned,
                })
            };
            let mut since = self.tables.derived.since.lock().expect("never poisoned");
            match std::mem::take(&mut *since) {
                // Worked out before from the same stockroom: the same
                // kinds, each with the same things; only the things seen
                // since are worked out again (not the months' stock).
                (Some(mut stock), touched) => {
                    let mut grown = BTreeSet::new();
                    for o in &touched {
                        let Some((kind, pos)) = room.things.get(o) else {
                            continue;
                        };
                        let seen = &mut stock.get_mut(kind).expect("the same kinds").things;
                        let before =
                            (seen.iter().position(|t| t.pos == *pos)).map(|i| seen.swap_remove(i));
                        seen.extend(thing(*pos, o, before));
                        grown.insert(kind);
                    }
                    for kind in grown {
                        let k = stock.get_mut(kind).expect("the same kinds");
                        *k = KindStock::of(std::mem::take(&mut k.things));
                    }
                    stock
                }
                (None, _) => (room.kinds.iter())
                    .map(|(kind, things)| {
                        let seen =
                            (things.iter().enumerate()).filter_map(|(p, o)| thing(p, o, None));
                        (kind.clone(), KindStock::of(seen.collect()))
                    })
                    .collect(),
            }
        });
        static NONE: KindStock = KindStock::EMPTY;
        stock.get(kind).unwrap_or(&NONE)
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
            Some(who) => {
                (self.tables.by_actor_act.get(&(who.clone(), act_key(act)))).map(|d| &d.all)
            }
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

    /// Whether `actor` did `act` (value and all) in a perceived event
    /// before `cutoff`: whether [`Index::doing`] finds one.
    pub fn did(&self, actor: &Id, act: &Act, cutoff: u64) -> bool {
        let (t, events) = (&self.tables, self.events);
        let Some(doings) = t.by_actor_act.get(&(actor.clone(), act_key(act))) else {
            return false;
        };
        (doings.firsts.iter())
            .find(|&&i| t.acted[i].1 == *act)
            .is_some_and(|&i| events[t.acted[i].0].id < cutoff)
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
mod tests;
