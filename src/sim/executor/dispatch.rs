//! Validating a request: its actor and time, then the skill's own planning.

use bevy::prelude::*;

use super::plan::{Doer, Plan};
use super::step::{Reveal, Step};
use super::view::WorldView;
use crate::trace::request::{Action, Request};
use crate::trace::{DAY, Rejection, RejectionCode};

impl WorldView<'_, '_> {
    /// Validates a request and plans its effects; the time is checked first.
    fn plan(&self, req: &Request) -> (Option<Entity>, u64, Result<Plan, Rejection>) {
        let now = self.clock.now;
        let Some(actor) = self.registry.get(&req.actor).filter(|e| self.is_actor(*e)) else {
            let all: Vec<&str> = self
                .registry
                .actors
                .iter()
                .map(|a| self.id(*a).as_str())
                .collect();
            let r = Rejection::new(
                RejectionCode::UnknownActor,
                format!("there is no actor {}", req.actor),
                format!("actors are: {}", all.join(", ")),
            );
            return (None, req.at.unwrap_or(now).max(now), Err(r));
        };
        let busy = self.actors.get(actor).map(|a| a.3.0).unwrap_or(0);
        let t = match req.at {
            Some(at) if at < now => {
                let r = Rejection::new(
                    RejectionCode::TimeInPast,
                    format!("requested start {at} is before the current time {now}"),
                    format!("give \"at\" of {now} or later, or leave it out"),
                );
                return (Some(actor), now, Err(r));
            }
            Some(at) if at < busy => {
                let r = Rejection::new(
                    RejectionCode::ActorBusy,
                    format!("{} is busy until {busy}", req.actor),
                    format!("wait, or give \"at\" of {busy} or later"),
                );
                return (Some(actor), at, Err(r));
            }
            Some(at) => at,
            None => now.max(busy),
        };
        (Some(actor), t, self.plan_action(actor, &req.action))
    }

    fn plan_action(&self, actor: Entity, action: &Action) -> Result<Plan, Rejection> {
        let (me, at, hands, _) = self.actors.get(actor).expect("resolved actor");
        let d = Doer {
            actor,
            who: self.id(actor),
            me,
            at,
            hands,
        };
        // Someone out of the house only comes back or lets time pass.
        let out = self.registry.is_outside(at.room);
        if out
            && !matches!(
                action,
                Action::Arrive { .. } | Action::Wait { .. } | Action::Leave { .. }
            )
        {
            let doors = self.exterior_doors();
            return Err(Rejection::new(
                RejectionCode::ActorOutside,
                format!(
                    "{} is out of the house and cannot {}",
                    d.who,
                    action.skill_name()
                ),
                match doors.first() {
                    Some(door) => format!("arrive through {door} first, or wait"),
                    None => "wait: this home has no exterior door to arrive through".into(),
                },
            ));
        }
        match action {
            Action::NavigateTo { target } => self.navigate_to(d, target),
            Action::Inspect { target } => self.inspect(d, target),
            Action::Pick { object } => self.pick(d, object),
            Action::Place {
                object,
                target,
                relation,
            } => self.place(d, object, target, *relation),
            Action::Open { target } => self.set_open(d, target, true),
            Action::Close { target } => self.set_open(d, target, false),
            Action::SetDeviceState {
                device,
                field,
                value,
            } => self.set_device_state(d, device, field, value),
            Action::Handoff { object, to } => self.handoff(d, object, to),
            Action::Say { text, to, claims } => self.say(d, text, to, claims),
            Action::Wait { seconds, .. } => wait(*seconds),
            Action::Leave { door, take, .. } => self.leave(d, door, take),
            Action::Arrive { door, bring } => self.arrive(d, door, bring),
            Action::FindBroken { device } => self.set_broken(d, device, true),
            Action::Repair { device } => self.set_broken(d, device, false),
            Action::Use { object } => self.use_one(d, object),
            Action::Write { object, text } => self.write(d, object, text),
        }
    }
}

/// A wait of `seconds`, at most a day.
fn wait(seconds: u64) -> Result<Plan, Rejection> {
    if seconds == 0 || seconds > DAY {
        return Err(Rejection::new(
            RejectionCode::BadWait,
            format!("cannot wait {seconds} s"),
            format!("wait between 1 and {DAY} seconds"),
        ));
    }
    Ok(Plan::new(seconds, vec![]))
}

/// System: validate the pending request and plan its effects.
pub fn plan_request(view: WorldView, mut step: ResMut<Step>) {
    let Some(req) = step.request.as_ref() else {
        return;
    };
    let (actor, t, result) = view.plan(req);
    step.actor = actor;
    step.t = t;
    match result {
        Ok(plan) => {
            step.dur = plan.dur;
            step.ops = plan.ops;
            step.via = plan.via;
            step.reveal = plan.reveal;
            step.rejection = None;
        }
        Err(r) => {
            // A rejection takes no time and must not move the clock (a
            // far-future "at" would otherwise push everyone's next request).
            step.t = view.clock.now;
            step.dur = 0;
            step.ops.clear();
            step.via.clear();
            step.reveal = Reveal::Nothing;
            step.rejection = Some(r);
        }
    }
}
