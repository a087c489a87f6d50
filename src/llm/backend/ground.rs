//! Grounding a model's steps before the executor sees them, so the model
//! is spared the walking and its day is not a string of refusals: a step
//! about something out of reach is preceded by the walk there (a door
//! opened on the way, as the script's errands do), and putting down what
//! the actor does not hold by picking it up first (with the walk to it); a
//! step that would
//! change nothing is left out with its hint, not asked about again, and
//! so is one a household would not take (a device field an actor already
//! set in the session, a switch loop; a program set on a machine that is
//! off, a machine run empty or stopped mid-program; morning words in the
//! evening); a request refused once in a turn, asked for again, ends the
//! model's part of the turn, and one refused in an earlier turn that would
//! still be refused is left out. Each step is tried on a spare copy of the
//! world first, which records nothing.

use crate::generation::{Goal, Proposal, TurnProgress, errand};
use crate::ids::Id;
use crate::scene::Surface;
use crate::sim::Simulation;
use crate::trace::request::{Action, Relation, Request};
use crate::trace::{Location, RejectionCode, Value};

use super::LlmBackend;

/// Steps put before one step at most (walks, doors, the pick before a
/// place): past them, the step goes to the executor as it is and its
/// rejection says what cannot be done.
const WALKS: u32 = 5;

/// What to do with the next step of a model's reply.
#[derive(Debug, Clone, PartialEq)]
pub enum Ground {
    /// Propose it.
    Ready,
    /// Propose this first (a walk, a door opened on the way, or the pick
    /// of what is to be put down).
    Walk(Request),
    /// Leave it out, for this reason.
    Skip(String),
    /// It was refused once this turn already: end the model's part.
    Again,
}

/// A request as a key (what it asks, not when).
pub fn key(r: &Request) -> String {
    format!(
        "{} {}",
        r.actor,
        serde_json::to_string(&r.action).unwrap_or_default()
    )
}

/// Where `req`'s actor has to be for it: what it is about.
fn reach(sim: &Simulation, req: &Request) -> Option<Id> {
    match &req.action {
        Action::NavigateTo { target } => Some(target.clone()),
        Action::Pick { object } => Some(object.clone()),
        Action::Place { target, .. }
        | Action::Open { target }
        | Action::Close { target }
        | Action::Inspect { target } => Some(target.clone()),
        Action::SetDeviceState { device, .. } => Some(device.clone()),
        Action::Handoff { to, .. } => Some(to.clone()),
        Action::Say { to, .. } => to.iter().find(|l| !sim.in_earshot(&req.actor, l)).cloned(),
        _ => None,
    }
}

/// Whether `target` has a surface for things put `relation` it.
fn takes(sim: &Simulation, target: &Id, relation: Relation) -> bool {
    let scene = sim.scene();
    let index = crate::scene::SceneIndex::new(scene);
    index.over(scene).fixture(target.as_str()).is_some_and(|f| {
        f.surfaces.iter().any(|s| {
            matches!(
                (s, relation),
                (Surface::On(_), Relation::On) | (Surface::In(_), Relation::In)
            )
        })
    })
}

/// What a household would not do, though the executor allows it: why,
/// or `None`.
fn senseless(sim: &Simulation, req: &Request) -> Option<String> {
    let powered = |d: &Id| sim.field(d, "power") == Some(Value::Bool(true));
    // A machine that holds things: an oven, a dishwasher, a washer.
    let vessel = |d: &Id| {
        sim.scene()
            .devices
            .iter()
            .any(|x| &x.id == d && x.fields.contains_key("power") && !x.surfaces.is_empty())
    };
    let empty = |d: &Id| {
        !sim.scene()
            .objects
            .iter()
            .any(|o| matches!(sim.location(&o.id), Some(Location::In(r)) if &r == d))
    };
    match &req.action {
        // "Put the apple on the hallway": a room is no place to put a
        // thing down (what a small model writes from a room's name).
        Action::Place { target, .. } if sim.scene().rooms.iter().any(|r| &r.id == target) => Some(
            format!("{target} is a room; things go on or in its furniture"),
        ),
        Action::SetDeviceState { device, field, .. }
            if matches!(field.as_str(), "program" | "timer")
                && sim.field(device, "power") == Some(Value::Bool(false)) =>
        {
            Some(format!("{device} is off; a {field} is set once it is on"))
        }
        Action::SetDeviceState {
            device,
            field,
            value: Value::Bool(on),
        } if field == "power" && vessel(device) => match on {
            true if empty(device) => Some(format!("{device} has nothing in it to run")),
            false if powered(device) => Some(format!("{device} is running its program")),
            _ => None,
        },
        Action::Open { target } if vessel(target) && powered(target) => {
            Some(format!("{target} is running its program"))
        }
        Action::Say { text, .. }
            if crate::lint::words_off_time(
                text,
                sim.now().max(sim.busy_until(&req.actor).unwrap_or(0)),
            ) =>
        {
            Some(format!("\"{text}\" does not fit the time of day"))
        }
        _ => None,
    }
}

impl LlmBackend {
    /// What to do with `req`, the next step of the model's reply.
    pub(super) fn ground(&mut self, sim: &Simulation, req: &Request, robot: bool) -> Ground {
        if self.turn.refused.contains(&key(req)) {
            return Ground::Again;
        }
        if let Action::SetDeviceState { device, field, .. } = &req.action
            && self
                .set
                .contains(&(req.actor.clone(), device.clone(), Id::new(field)))
        {
            return Ground::Skip(format!("{} set {device} {field} already", req.actor));
        }
        if let Some(why) = senseless(sim, req) {
            return Ground::Skip(why);
        }
        let probe = sim.fork_into(&mut self.spare).execute(req.clone());
        let Some(r) = probe.outcome.rejection() else {
            return Ground::Ready;
        };
        // Refused in an earlier turn and still refused: what a small model
        // asks for session after session ("put the apple on the hallway").
        if self.refused_before.contains(&key(req)) {
            return Ground::Skip(format!(
                "refused before, and still: {} ({})",
                r.message, r.hint
            ));
        }
        use RejectionCode as C;
        match r.code {
            C::NoChange | C::AlreadyThere | C::AlreadyOpen | C::AlreadyClosed => {
                Ground::Skip(format!("{} ({})", r.message, r.hint))
            }
            // Putting down what one never picked up: pick it up first, as a
            // person would (walking to it), where it can go where it is put
            // (else the pick leaves it out of place) and nothing needs
            // opening (which is left open).
            C::NotHolding if self.turn.walks < WALKS => match &req.action {
                Action::Place {
                    object,
                    target,
                    relation,
                } if takes(sim, target, *relation) => {
                    let pick = Action::Pick {
                        object: object.clone(),
                    };
                    self.first(sim, req, pick, robot)
                }
                _ => Ground::Ready,
            },
            C::NotColocated | C::PartnerNotColocated | C::DoorClosed | C::NotInEarshot
                if self.turn.walks < WALKS =>
            {
                let Some(target) = reach(sim, req) else {
                    return Ground::Ready;
                };
                let go = Goal::GoTo { target };
                match errand::next(sim, &req.actor, &go, &TurnProgress::default(), false, robot) {
                    Proposal::Act(w) if w.action != req.action => Ground::Walk(w),
                    _ => Ground::Ready,
                }
            }
            _ => Ground::Ready,
        }
    }

    /// `step` put before `req` (its actor's): proposed if it can be done,
    /// the walk or the opening it needs first if that is all that stands
    /// in its way; otherwise `req` goes as it is.
    fn first(&mut self, sim: &Simulation, req: &Request, step: Action, robot: bool) -> Ground {
        let step = Request {
            actor: req.actor.clone(),
            action: step,
            at: None,
        };
        if self.turn.refused.contains(&key(&step)) {
            return Ground::Ready;
        }
        let tried = sim.fork_into(&mut self.spare).execute(step.clone());
        use RejectionCode as C;
        match tried.outcome.rejection().map(|r| r.code) {
            None => Ground::Walk(step),
            Some(C::NotColocated | C::DoorClosed) => match self.ground(sim, &step, robot) {
                Ground::Walk(w) => Ground::Walk(w),
                _ => Ground::Ready,
            },
            Some(_) => Ground::Ready,
        }
    }
}
