//! Playback of a trace: the true state and the robot's view after any
//! number of events, instantly. One replay at open time checks the trace
//! against the executor and stores keyframes every [`KEYFRAME_EVERY`]
//! events; a seek copies the nearest keyframe before it and applies at most
//! that many events' changes. Headless: the viewer draws from it, tests
//! check it against the executor.

use std::collections::BTreeMap;

use crate::ids::Id;
use crate::scene::{Indexed, Scene, SceneIndex};
use crate::sim::{ReplayError, Simulation};
use crate::trace::{Event, Key, State, Value};

/// Events between keyframes: a seek applies at most this many.
pub const KEYFRAME_EVERY: usize = 128;

/// What the robot believes of an attribute, and the event it last saw it
/// in (0: before the trace, from where it started).
pub type Beliefs = BTreeMap<Key, (Value, u64)>;

pub struct Playback {
    pub scene: Scene,
    index: SceneIndex,
    pub events: Vec<Event>,
    pub robot: Id,
    truth: Vec<State>,
    beliefs: Vec<Beliefs>,
}

impl Playback {
    /// Replays `events` once (each must re-execute to the recorded event),
    /// keyframing the state and the robot's beliefs.
    pub fn new(scene: Scene, events: Vec<Event>) -> Result<Self, ReplayError> {
        let robot = scene
            .robots()
            .into_iter()
            .next()
            .unwrap_or_else(|| Id::new("robot"));
        let mut sim = Simulation::new(scene.clone()).map_err(|p| ReplayError::Scene(p.len()))?;
        let snapshot = |sim: &Simulation| -> Beliefs {
            sim.beliefs(robot.as_str())
                .into_iter()
                .flatten()
                .map(|(k, b)| (k.clone(), (b.value.clone(), b.event)))
                .collect()
        };
        let (mut truth, mut beliefs) = (vec![sim.state()], vec![snapshot(&sim)]);
        for (i, e) in events.iter().enumerate() {
            sim.replay_event(e)?;
            if (i + 1) % KEYFRAME_EVERY == 0 {
                truth.push(sim.state());
                beliefs.push(snapshot(&sim));
            }
        }
        Ok(Playback {
            index: SceneIndex::new(&scene),
            scene,
            events,
            robot,
            truth,
            beliefs,
        })
    }

    /// The scene with lookups by id.
    pub fn lookup(&self) -> Indexed<'_> {
        self.index.over(&self.scene)
    }

    pub fn len(&self) -> usize {
        self.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// The true state after the first `n` events.
    pub fn state_at(&self, n: usize) -> State {
        let n = n.min(self.events.len());
        let k = (n / KEYFRAME_EVERY).min(self.truth.len() - 1);
        let mut state = self.truth[k].clone();
        for e in &self.events[k * KEYFRAME_EVERY..n] {
            state.apply(e);
        }
        state
    }

    /// What the robot believes after the first `n` events: what it saw
    /// change and what events revealed to it, on top of the keyframe.
    pub fn beliefs_at(&self, n: usize) -> Beliefs {
        let n = n.min(self.events.len());
        let k = (n / KEYFRAME_EVERY).min(self.beliefs.len() - 1);
        let mut view = self.beliefs[k].clone();
        for e in &self.events[k * KEYFRAME_EVERY..n] {
            if e.outcome.is_ok() && e.observers.contains(&self.robot) {
                // Heard through a wall: who went, not what was carried.
                for c in e.changes.iter().filter(|c| !e.heard_only(&self.robot, c)) {
                    view.insert((c.entity.clone(), c.attr.clone()), (c.new.clone(), e.id));
                }
            }
            if e.revealed_to.contains(&self.robot) {
                for f in &e.reveals {
                    view.insert((f.entity.clone(), f.attr.clone()), (f.value.clone(), e.id));
                }
            }
        }
        view
    }

    /// Index of the first event at or after trace time `t`.
    pub fn at_time(&self, t: u64) -> usize {
        self.events.partition_point(|e| e.t < t)
    }

    /// How `entity` changed, up to the first `n` events: (event, attr, value).
    pub fn history(&self, entity: &Id, n: usize) -> Vec<(u64, Id, Value)> {
        self.events[..n.min(self.events.len())]
            .iter()
            .filter(|e| e.outcome.is_ok())
            .flat_map(|e| {
                e.changes
                    .iter()
                    .filter(|c| &c.entity == entity)
                    .map(move |c| (e.id, c.attr.clone(), c.new.clone()))
            })
            .collect()
    }
}
