//! What people did: when someone last did something, which of two things
//! came first, what they did next, how many times (temporal, counting),
//! and their habits (routine): docs/samples.md, the families table.

use std::collections::BTreeSet;

use hearth::catalogue::schedules::Weekday;
use hearth::ids::Id;
use hearth::samples::{Act, Answer, Cutoff};
use hearth::trace::request::{Action, Destination, Relation};
use hearth::trace::{Event, Location, Value};

use super::{Eyes, Got, Reference, Unsettled, habit, time_answer};

impl<'a> Reference<'a> {
    /// The perceived events before `c` of `act` done by `actor`.
    fn doing(&self, eyes: Eyes, actor: &Id, act: &Act, c: u64) -> Vec<&'a Event> {
        self.acts(eyes, c)
            .into_iter()
            .filter(|(e, a)| e.actor == *actor && a == act)
            .map(|(e, _)| e)
            .collect()
    }

    /// When `actor` last did `act`; not known if never seen doing it.
    pub fn last_time(&self, eyes: Eyes, actor: &Id, act: &Act, c: u64) -> Result<Got, Unsettled> {
        Ok(match self.doing(eyes, actor, act, c).last() {
            Some(e) => {
                let mut at = time_answer(e.t);
                if let Answer::Time { stale, .. } = &mut at {
                    *stale = eyes == Eyes::Robot
                        && *actor != self.robot
                        && !self.watched_since(act, e.id, c);
                }
                Got::new(at, [e.id])
            }
            None => Got::unknown(),
        })
    }

    /// Whether the robot watched what `act` is done to without a break
    /// from event `s` to `c`, so that it would have seen it done again.
    fn watched_since(&self, act: &Act, s: u64, c: u64) -> bool {
        let Some(thing) = act.object.as_ref().or(act.target.as_ref()) else {
            return false;
        };
        let attr = if self.fixed(thing) {
            "open"
        } else {
            "location"
        };
        self.watched_over(thing, &Id::new(attr), s, c)
    }

    /// Which of two acts, each seen done once, came first ("A" or "B").
    pub fn first(
        &self,
        eyes: Eyes,
        (a_actor, a): (&Id, &Act),
        (b_actor, b): (&Id, &Act),
        c: u64,
    ) -> Result<Got, Unsettled> {
        let once = |actor, act| match self.doing(eyes, actor, act, c)[..] {
            [e] => Ok(e.id),
            ref all => Err(format!("{} events of {actor} {act:?}", all.len())),
        };
        let (ea, eb) = (once(a_actor, a)?, once(b_actor, b)?);
        if ea == eb {
            return Err("the two are one event".into());
        }
        let option = if ea < eb { "A" } else { "B" }.to_string();
        Ok(Got::new(Answer::Choice { option }, [ea, eb]))
    }

    /// What the actor of event `x` did right after it (talking and
    /// waiting aside): the skill and what it was done to, when that was
    /// seen too, in the same session.
    pub fn next(&self, eyes: Eyes, x: u64, c: u64) -> Result<Got, Unsettled> {
        let e = self.event(x).ok_or("no such event")?;
        if x >= c || !e.outcome.is_ok() || !self.perceived(eyes, e) {
            return Err("the act asked about was not perceived before the cutoff".into());
        }
        let next = self.before(c)[x as usize..]
            .iter()
            .find(|n| {
                n.actor == e.actor
                    && n.outcome.is_ok()
                    && !matches!(n.action, Action::Say { .. } | Action::Wait { .. })
            })
            .ok_or("nothing done next before the cutoff")?;
        if !self.perceived(eyes, next) {
            return Err(format!(
                "what came next (event {}) was not perceived",
                next.id
            ));
        }
        if next.session != e.session {
            return Err("what came next was in another session".into());
        }
        let target = match &next.action {
            Action::NavigateTo { target }
            | Action::Inspect { target }
            | Action::Open { target }
            | Action::Close { target } => Some(target.clone()),
            Action::Pick { object }
            | Action::Place { object, .. }
            | Action::Handoff { object, .. }
            | Action::Use { object }
            | Action::Write { object, .. } => Some(object.clone()),
            Action::SetDeviceState { device, .. }
            | Action::FindBroken { device }
            | Action::Repair { device } => Some(device.clone()),
            Action::Leave { door, .. } | Action::Arrive { door, .. } => Some(door.clone()),
            Action::Say { .. } | Action::Wait { .. } => None,
        };
        let skill = next.action.skill_name().to_string();
        let setting = match &next.action {
            Action::SetDeviceState { field, value, .. } => {
                Some(Box::new((Id::new(field.as_str()), value.clone())))
            }
            _ => None,
        };
        let a = Answer::Action {
            skill,
            target,
            setting,
        };
        Ok(Got::new(a, [x, next.id]))
    }

    /// How many times `act` was seen done on `day` before `c`, by `actor`
    /// or by anyone of the household (not the robot's own acts).
    pub fn count(
        &self,
        eyes: Eyes,
        actor: Option<&Id>,
        act: &Act,
        day: u32,
        c: u64,
    ) -> Result<Got, Unsettled> {
        let events: Vec<u64> = self
            .acts(eyes, c)
            .into_iter()
            .filter(|(e, a)| a == act && e.day == day)
            .filter(|(e, _)| match actor {
                Some(who) => e.actor == *who,
                None => e.actor != self.robot,
            })
            .map(|(e, _)| e.id)
            .collect();
        if events.is_empty() {
            return Err("never seen done that day".into());
        }
        let count = events.len() as u32;
        Ok(Got::new(Answer::Count { count }, events))
    }

    /// The settings of `device.field` perceived before `c`.
    fn settings(&self, eyes: Eyes, device: &Id, field: &Id, c: u64) -> Vec<(&'a Event, &'a Value)> {
        self.before(c)
            .iter()
            .filter(|e| e.outcome.is_ok() && self.perceived(eyes, e))
            .filter_map(|e| match &e.action {
                Action::SetDeviceState {
                    device: d,
                    field: f,
                    value,
                } if d == device && f == field.as_str() => Some((e, value)),
                _ => None,
            })
            .collect()
    }

    /// The value `actor` usually sets `device.field` to.
    pub fn usual_value(
        &self,
        eyes: Eyes,
        actor: &Id,
        device: &Id,
        field: &Id,
        c: u64,
    ) -> Result<Got, Unsettled> {
        let items: Vec<(String, &Event)> = self
            .settings(eyes, device, field, c)
            .into_iter()
            .filter(|(e, _)| e.actor == *actor)
            .map(|(e, v)| (serde_json::to_string(v).unwrap(), e))
            .collect();
        let (v, events) = habit(&items)?;
        let value: Value = serde_json::from_str(&v).unwrap();
        Ok(Got::new(Answer::Value { value }, events))
    }

    /// Who usually sets `device.field` to `value`.
    pub fn usual_actor(
        &self,
        eyes: Eyes,
        device: &Id,
        field: &Id,
        value: &Value,
        c: u64,
    ) -> Result<Got, Unsettled> {
        let items: Vec<(Id, &Event)> = self
            .settings(eyes, device, field, c)
            .into_iter()
            .filter(|(_, v)| *v == value)
            .map(|(e, _)| (e.actor.clone(), e))
            .collect();
        let (actor, events) = habit(&items)?;
        Ok(Got::new(
            Answer::Actor {
                actor,
                stale: false,
            },
            events,
        ))
    }

    /// Where `object` is usually put.
    pub fn usual_place(&self, eyes: Eyes, object: &Id, c: u64) -> Result<Got, Unsettled> {
        let items: Vec<(Location, &Event)> = self
            .before(c)
            .iter()
            .filter(|e| e.outcome.is_ok() && e.actor != self.robot && self.perceived(eyes, e))
            .filter_map(|e| match &e.action {
                Action::Place {
                    object: o,
                    target,
                    relation,
                } if o == object => Some((
                    match relation {
                        Relation::On => Location::On(target.clone()),
                        Relation::In => Location::In(target.clone()),
                    },
                    e,
                )),
                _ => None,
            })
            .collect();
        let (place, events) = habit(&items)?;
        let value = Value::Location(place);
        Ok(Got::new(Answer::Value { value }, events))
    }

    /// The hour nearest to the times `actor` usually does `act` (07:35 is
    /// 8, never more than half an hour away).
    pub fn usual_hour(&self, eyes: Eyes, actor: &Id, act: &Act, c: u64) -> Result<Got, Unsettled> {
        let mut times: Vec<(u64, &Event)> = self
            .doing(eyes, actor, act, c)
            .into_iter()
            .map(|e| (e.t % 86_400, e))
            .collect();
        times.sort_by_key(|(t, e)| (*t, e.id));
        // Every run of times within half an hour of its first.
        let runs: Vec<&[(u64, &Event)]> = (0..times.len())
            .map(|i| {
                let n = times[i..]
                    .iter()
                    .take_while(|(t, _)| *t <= times[i].0 + 1800)
                    .count();
                &times[i..i + n]
            })
            .collect();
        let most = runs.iter().map(|r| r.len()).max().ok_or("nothing seen")?;
        let width = |r: &[(u64, &Event)]| r[r.len() - 1].0 - r[0].0;
        let full: Vec<&[(u64, &Event)]> = runs.into_iter().filter(|r| r.len() == most).collect();
        let tight = full.iter().map(|r| width(r)).min().expect("one run");
        let best: Vec<&[(u64, &Event)]> = full.into_iter().filter(|r| width(r) == tight).collect();
        if best.len() != 1 {
            return Err(format!("{} half hours hold {most} times", best.len()));
        }
        let run = best[0];
        let days: BTreeSet<u32> = run.iter().map(|(_, e)| e.day).collect();
        if days.len() < 2 {
            return Err("a usual time on one day".into());
        }
        if most * 3 < times.len() * 2 {
            return Err(format!("{most} of {}: under two thirds", times.len()));
        }
        // The middle of the run, to the nearest five minutes.
        let middle = (run[0].0 + run[run.len() - 1].0) / 2;
        let minute = ((middle + 150) / 300 * 5 % 1440) as i64;
        Ok(Got::new(
            Answer::Value {
                value: Value::Int(minute),
            },
            run.iter().map(|(_, e)| e.id),
        ))
    }

    /// The days of the week `actor` usually goes out `to`: each weekday
    /// they went on in two weeks or more and on two thirds of its
    /// occurrences among the whole days before the question's (day 1 a
    /// Monday); asked from day 15, only when the departures the robot
    /// perceived give the days all of them give.
    pub fn out_days(
        &self,
        eyes: Eyes,
        actor: &Id,
        to: Destination,
        cutoff: &Cutoff,
    ) -> Result<Got, Unsettled> {
        let whole = cutoff.day - 1;
        if whole < 14 {
            return Err(format!("only {whole} whole days before"));
        }
        let leaves: Vec<&Event> = self
            .before(cutoff.event)
            .iter()
            .filter(|e| e.actor == *actor && e.outcome.is_ok() && e.day <= whole)
            .filter(|e| matches!(&e.action, Action::Leave { to: d, .. } if *d == to))
            .collect();
        let usual = |seen: &dyn Fn(&Event) -> bool| {
            let mut days = Vec::new();
            let mut evidence = Vec::new();
            for (i, w) in Weekday::ALL.into_iter().enumerate() {
                let on = |d: u32| (d - 1) as usize % 7 == i;
                let went: BTreeSet<u32> = leaves
                    .iter()
                    .filter(|e| seen(e) && on(e.day))
                    .map(|e| e.day)
                    .collect();
                let times = (1..=whole).filter(|d| on(*d)).count();
                if went.len() >= 2 && went.len() * 3 >= times * 2 {
                    days.push(w);
                    evidence.extend(leaves.iter().filter(|e| seen(e) && on(e.day)).map(|e| e.id));
                }
            }
            (days, evidence)
        };
        let (days, evidence) = usual(&|e| self.perceived(eyes, e));
        let (truth, _) = usual(&|_| true);
        if days != truth {
            return Err(format!("perceived {days:?}, truly {truth:?}"));
        }
        if days.is_empty() {
            return Err("no usual day".into());
        }
        Ok(Got::new(Answer::Days { days }, evidence))
    }
}
