//! The simulation core: the household as ECS entities, the executor of
//! skills, visibility and the event record, all run by [`SimSchedule`].
//!
//! One request is one run of the schedule: its systems validate and plan
//! the request, apply the changes, work out who perceived what, and record
//! the event. [`Simulation`] wraps an `App` with [`SimPlugin`] for callers
//! that just want to submit requests.

pub mod executor;
pub mod nav;
pub mod perception;
mod plugin;
mod simulation;
pub mod stress;
pub mod world;

pub use plugin::{CurrentSession, SimPlugin, SimSchedule, SimSystems, record_event};
pub use simulation::{ReplayError, Simulation, Way, initial_state};
