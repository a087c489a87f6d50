//! A trace replayed once, forward, to one cutoff after another: the state
//! just before each cutoff, for the plans of mining, checks and evaluation
//! to run from (on a spare, [`Simulation::fork_into`]), without replaying
//! from the first event at every cutoff.

use crate::scene::Scene;
use crate::sim::{ReplayError, Simulation};
use crate::trace::Event;

pub struct Replay<'a> {
    events: &'a [Event],
    sim: Simulation,
    /// How many of `events` are replayed.
    done: usize,
}

impl<'a> Replay<'a> {
    /// `scene` spawned, none of `events` replayed yet.
    pub fn new(scene: Scene, events: &'a [Event]) -> Result<Self, ReplayError> {
        let sim = Simulation::new(scene).map_err(|p| ReplayError::Scene(p.len()))?;
        Ok(Replay {
            events,
            sim,
            done: 0,
        })
    }

    /// The state just before the event `cutoff`: the events before it not
    /// replayed yet are replayed (cutoffs never go back). After an error
    /// the replay is of no further use.
    pub fn to(&mut self, cutoff: u64) -> Result<&Simulation, ReplayError> {
        while let Some(e) = self.events.get(self.done).filter(|e| e.id < cutoff) {
            self.sim.replay_event(e)?;
            self.done += 1;
        }
        Ok(&self.sim)
    }

    /// The state as far as it is replayed.
    pub fn sim(&self) -> &Simulation {
        &self.sim
    }
}
