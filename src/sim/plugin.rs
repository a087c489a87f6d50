//! The schedule one request runs through, its systems in order, and the
//! system that records the step as an event.

use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
use bevy::prelude::*;

use crate::ids::Id;
use crate::trace::request::Action;
use crate::trace::{self, Event, EventKind, Outcome};

use super::executor::{Step, WorldView, apply_step, plan_request};
use super::perception::{perceive_initial, perceive_step};
use super::world::spawn_scene;
use crate::scene::Scene;

/// Runs once per request; single-threaded, like a physics step, so that
/// the order of effects never depends on thread timing.
#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
pub struct SimSchedule;

/// The phases of one request, in this order (configured in [`SimPlugin`]):
/// 1. `Validate`: check the request and plan its changes, or reject it;
/// 2. `Apply`: change components, advance the clock, occupy the actor;
/// 3. `Perceive`: observers, reveals and belief updates;
/// 4. `Record`: turn the step into a trace [`Event`].
///
/// Only [`SimPlugin`] adds systems to [`SimSchedule`]: generation and the
/// LLM backends drive it from outside, one request per run
/// ([`crate::sim::Simulation::execute`]), and read the event it returns;
/// `LlmActorPlugin` runs its own systems in `Update`.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub enum SimSystems {
    Validate,
    Apply,
    Perceive,
    Record,
}

/// The session label stamped on the events being recorded.
#[derive(Resource, Debug, Clone, Default)]
pub struct CurrentSession(pub Option<String>);

/// Spawns a scene and installs [`SimSchedule`] with its systems.
pub struct SimPlugin {
    pub scene: Scene,
}

impl Plugin for SimPlugin {
    fn build(&self, app: &mut App) {
        let mut schedule = Schedule::new(SimSchedule);
        schedule.set_executor(SingleThreadedExecutor::new());
        schedule.configure_sets(
            (
                SimSystems::Validate,
                SimSystems::Apply,
                SimSystems::Perceive,
                SimSystems::Record,
            )
                .chain(),
        );
        schedule.add_systems((
            plan_request.in_set(SimSystems::Validate),
            apply_step.in_set(SimSystems::Apply),
            perceive_step.in_set(SimSystems::Perceive),
            record_event.in_set(SimSystems::Record),
        ));
        app.add_schedule(schedule);
        app.init_resource::<Step>()
            .init_resource::<CurrentSession>();
        let world = app.world_mut();
        spawn_scene(world, &self.scene);
        world
            .run_system_cached(perceive_initial)
            .expect("initial perception runs");
    }
}

/// System: record the step as an event.
pub fn record_event(view: WorldView, mut step: ResMut<Step>, session: Res<CurrentSession>) {
    let Some(req) = step.request.as_ref() else {
        return;
    };
    let ids = |es: &[Entity]| es.iter().map(|e| view.id(*e).clone()).collect::<Vec<Id>>();
    let mut mentions: Vec<Id> = Vec::new();
    for id in req.action.entity_args() {
        if view.registry.get(id).is_some() && !mentions.contains(id) {
            mentions.push(id.clone());
        }
    }
    let kind = if matches!(req.action, Action::Say { .. }) {
        EventKind::Utterance
    } else {
        EventKind::Action
    };
    let outcome = step
        .rejection
        .clone()
        .map_or(Outcome::Ok, Outcome::Rejected);
    let event = Event {
        id: view.clock.last_event,
        day: trace::day_of(step.t),
        t: step.t,
        time: trace::clock_time(step.t),
        dur: step.dur,
        session: session.0.clone(),
        kind,
        actor: req.actor.clone(),
        action: req.action.clone(),
        outcome,
        changes: std::mem::take(&mut step.changes),
        observers: ids(&step.observers),
        heard_by: ids(&step.heard_by),
        via: ids(&step.via),
        reveals: std::mem::take(&mut step.reveals),
        revealed_to: ids(&step.revealed_to),
        mentions,
        source: None,
    };
    step.event = Some(event);
}
