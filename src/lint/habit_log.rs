//! What the habit rules keep as the walk goes: where each door was last
//! passed, what was put out of place, each person's run of walks and of
//! opening and shutting; and their thresholds.

use std::collections::{BTreeMap, BTreeSet};

use crate::catalogue::Belongs;
use crate::ids::Id;
use crate::scene::{ActorKind, Scene};

/// A door opened or closed counts as used when someone walks through it
/// this long before (a close) or after (an open), or when it is the door
/// the actor came through within [`BEHIND`] (closed behind them) or next
/// goes through (opened on the way out).
pub const DOOR_PASS: u64 = 5 * 60;
/// An object out of place this long (or overnight) was left there.
pub const LEFT: u64 = 4 * 3600;
/// A door the actor came through this long before closing it was closed
/// behind them (into a room to stay: a bedroom at night).
pub const BEHIND: u64 = 30 * 60;
/// This many walks in a row with nothing else done is aimless.
pub const AIMLESS: usize = 6;
/// A break this long between an actor's events ends a run of walks.
pub(super) const RUN_GAP: u64 = 10 * 60;

/// An actor's current run of walks with nothing else done.
#[derive(Debug, Default)]
pub(super) struct Run {
    /// Where each walk went, the spot before the first walk first.
    pub(super) spots: Vec<Id>,
    /// Consecutive walks back to the spot before last.
    pub(super) back: usize,
    pub(super) first_event: u64,
    /// The previous walk, and the first of the back-and-forth: (event, time).
    pub(super) prev_walk: (u64, u64),
    pub(super) back_from: (u64, u64),
    pub(super) walks: usize,
    pub(super) aimless_found: bool,
}

#[derive(Debug, Default)]
pub(super) struct Habits {
    pub(super) belongs: Belongs,
    /// (object, receptacle) placements the plan made on purpose.
    pub(super) deliberate: BTreeSet<(Id, Id)>,
    /// Room → the humans who sleep there.
    pub(super) sleepers: BTreeMap<Id, BTreeSet<Id>>,
    pub(super) runs: BTreeMap<Id, Run>,
    /// Door → when a walk through it last ended.
    pub(super) passed: BTreeMap<Id, u64>,
    /// Doors opened and not yet walked through: → (event, time, actor,
    /// whether the actor has since walked through other doors).
    pub(super) opened: BTreeMap<Id, (u64, u64, Id, bool)>,
    /// (actor, door) → when the actor last walked through it.
    pub(super) came_through: BTreeMap<(Id, Id), u64>,
    /// Objects an actor put where they do not belong: → (event, time, where).
    pub(super) misplaced: BTreeMap<Id, (u64, u64, Id)>,
    /// Actor → what they have opened and shut, or switched, in a row:
    /// (the thing, times, first event, its time, reported).
    pub(super) fidget: BTreeMap<Id, (String, usize, u64, u64, bool)>,
}

/// Opening or shutting the same thing this many times in a row (three
/// times open and shut) with nothing else done is a loop.
pub(super) const FIDGET: usize = 6;

/// Setting the same device field this many times in a row (on, off, on)
/// with nothing else done is a loop too.
pub(super) const SWITCH: usize = 3;

impl Habits {
    pub(super) fn new(scene: &Scene, deliberate: &BTreeSet<(Id, Id)>) -> Self {
        let mut sleepers: BTreeMap<Id, BTreeSet<Id>> = BTreeMap::new();
        for a in scene.actors.iter().filter(|a| a.kind == ActorKind::Human) {
            sleepers
                .entry(a.room.clone())
                .or_default()
                .insert(a.id.clone());
        }
        Habits {
            belongs: Belongs::new(scene, crate::catalogue::builtin()),
            deliberate: deliberate.clone(),
            sleepers,
            ..Default::default()
        }
    }
}
