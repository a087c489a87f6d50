//! Indexes over a trace (WorldLines §3.3): each attribute's true timeline,
//! what the robot observed of it and when, the claims it heard, and the
//! sessions. Every query takes a cutoff and looks only before it.

use std::collections::BTreeMap;

use crate::ids::Id;
use crate::scene::Scene;
use crate::sim::Simulation;
use crate::trace::{Claim, Event, Value};

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

pub type Key = (Id, Id);

/// Every attribute's value before the first event.
pub fn initial_state(scene: &Scene) -> BTreeMap<Key, Value> {
    Simulation::new(scene.clone())
        .map(|s| s.state())
        .unwrap_or_default()
}

pub struct Index<'a> {
    pub scene: &'a Scene,
    /// Events in id order: a whole trace, or a memory's subset of one.
    pub events: &'a [Event],
    pub robot: Id,
    /// What the robot observed of each attribute, in event order.
    pub seen: BTreeMap<Key, Vec<Seen>>,
    /// The truth: each attribute's value before the first event.
    pub initial: BTreeMap<Key, Value>,
    /// The truth: each attribute's changes, as (event, new value).
    pub changes: BTreeMap<Key, Vec<(u64, Value)>>,
    /// Claims of every mode the robot heard, in event order.
    pub heard: Vec<Heard>,
}

impl<'a> Index<'a> {
    /// Indexes `events` of a trace of `scene` (ids dense from 1).
    pub fn new(scene: &'a Scene, events: &'a [Event]) -> Self {
        Self::with_initial(scene, events, initial_state(scene))
    }

    /// As [`Index::new`], with the scene's initial state computed once by
    /// the caller (agents index their memory for every question).
    pub fn with_initial(
        scene: &'a Scene,
        events: &'a [Event],
        initial: BTreeMap<Key, Value>,
    ) -> Self {
        let robot = scene
            .robots()
            .into_iter()
            .next()
            .unwrap_or_else(|| Id::new("robot"));
        let mut ix = Index {
            scene,
            events,
            robot,
            seen: BTreeMap::new(),
            initial,
            changes: BTreeMap::new(),
            heard: Vec::new(),
        };
        for e in events {
            debug_assert_eq!(Some(e), ix.event(e.id), "events are in id order");
            let observed = e.observers.contains(&ix.robot);
            if e.outcome.is_ok() {
                for c in e.changes.iter().filter(|c| c.attr.as_str() != "position") {
                    let key = (c.entity.clone(), c.attr.clone());
                    ix.changes
                        .entry(key.clone())
                        .or_default()
                        .push((e.id, c.new.clone()));
                    if observed {
                        ix.seen.entry(key).or_default().push(Seen {
                            event: e.id,
                            value: c.new.clone(),
                        });
                    }
                }
                if observed && let crate::trace::request::Action::Say { claims, .. } = &e.action {
                    ix.heard.extend(claims.iter().map(|c| Heard {
                        event: e.id,
                        speaker: e.actor.clone(),
                        claim: c.clone(),
                    }));
                }
            }
            if e.revealed_to.contains(&ix.robot) {
                for f in e.reveals.iter().filter(|f| f.attr.as_str() != "position") {
                    ix.seen
                        .entry((f.entity.clone(), f.attr.clone()))
                        .or_default()
                        .push(Seen {
                            event: e.id,
                            value: f.value.clone(),
                        });
                }
            }
        }
        ix
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

    /// Whether the robot perceived event `e` (saw or heard it, or saw what
    /// it revealed).
    pub fn robot_saw(&self, e: &Event) -> bool {
        e.observers.contains(&self.robot) || e.revealed_to.contains(&self.robot)
    }

    /// Accepted events the robot perceived, before `cutoff`.
    pub fn visible(&self, cutoff: u64) -> impl Iterator<Item = &'a Event> + '_ {
        self.events
            .iter()
            .take_while(move |e| e.id < cutoff)
            .filter(|e| e.outcome.is_ok() && self.robot_saw(e))
    }

    /// The robot's observations of `key` before `cutoff`.
    pub fn seen_before(&self, key: &Key, cutoff: u64) -> &[Seen] {
        let all = self.seen.get(key).map_or(&[][..], |v| v.as_slice());
        &all[..all.partition_point(|s| s.event < cutoff)]
    }

    /// The true value of `key` just before event `cutoff`.
    pub fn truth(&self, key: &Key, cutoff: u64) -> Option<&Value> {
        let changes = self.changes.get(key).map_or(&[][..], |v| v.as_slice());
        let n = changes.partition_point(|(e, _)| *e < cutoff);
        n.checked_sub(1)
            .map(|i| &changes[i].1)
            .or_else(|| self.initial.get(key))
    }

    /// Claims heard before `cutoff`.
    pub fn heard_before(&self, cutoff: u64) -> &[Heard] {
        &self.heard[..self.heard.partition_point(|h| h.event < cutoff)]
    }

    /// The session of event `id`.
    pub fn session_of(&self, id: u64) -> Option<&'a str> {
        self.event(id)?.session.as_deref()
    }
}
