//! A trace's days in numbers: each person's minutes per activity, the
//! robot's busy time, events per day, and how the days vary.

use std::collections::BTreeMap;

use serde::Serialize;
use thiserror::Error;

use crate::catalogue::Roles;
use crate::ids::Id;
use crate::scene::{ActorKind, Scene};
use crate::trace::request::{Action, Destination};
use crate::trace::{DAY, Event, Value};

use super::reference::*;

/// One person's day, in minutes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PersonDay {
    pub person: Id,
    pub day: u32,
    pub minutes: BTreeMap<Activity, f64>,
    /// Time not counted for any activity.
    pub unscheduled: f64,
    /// Minutes out of the house by where to ([`out_group`]).
    pub out_by: BTreeMap<&'static str, f64>,
    pub housework: f64,
    pub screen: f64,
    /// `employed`, `student`, `retired` (from the actor's role), if known.
    pub kind: Option<String>,
    pub weekend: bool,
}

impl PersonDay {
    /// A figure banded by person kind, in minutes.
    pub fn figure(&self, name: &str) -> Option<f64> {
        match name {
            "housework" => Some(self.housework),
            "screen" => Some(self.screen),
            _ => name
                .strip_prefix("out_")
                .map(|g| self.out_by.get(g).copied().unwrap_or(0.0)),
        }
    }
}

/// The robot's day, in minutes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RobotDay {
    pub robot: Id,
    pub day: u32,
    pub busy: f64,
    pub idle: f64,
}

/// A trace's figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stats {
    pub scene: Id,
    pub days: u32,
    pub people: Vec<PersonDay>,
    pub robots: Vec<RobotDay>,
    pub events_per_day: f64,
    pub by_skill_per_day: BTreeMap<String, f64>,
    /// Opening and closing doors, as a share of all events.
    pub door_share: f64,
    /// How alike consecutive days are: the mean Jaccard overlap of their
    /// (session kind, hour) sets (1: every day the same). None for a trace
    /// of one day or without sessions.
    pub day_variety: Option<f64>,
    /// What came into the house, went for good and who called, per week.
    pub weeks: Vec<super::weeks::Week>,
}

impl Stats {
    /// Mean minutes per person-day of each activity.
    pub fn mean_minutes(&self) -> BTreeMap<Activity, f64> {
        mean_minutes(&self.people)
    }
}

#[derive(Debug, Error, PartialEq)]
pub enum StatsError {
    #[error("event {id} is by {actor}, who is not in scene {scene}")]
    UnknownActor { id: u64, actor: Id, scene: Id },
    #[error("event {id} at t={t} comes before the event before it: events must be in time order")]
    OutOfOrder { id: u64, t: u64 },
    #[error("the trace covers {days} days; it needs at least one")]
    NoDays { days: u32 },
}

/// The figures of a trace of `days` days. `sessions` maps session ids
/// (`d1s03`) to their kinds (`breakfast`), from `plan.json`; empty for a
/// trace without one.
pub fn stats(
    scene: &Scene,
    events: &[Event],
    days: u32,
    sessions: &BTreeMap<String, String>,
    t: &TimeUse,
) -> Result<Stats, StatsError> {
    if days == 0 {
        return Err(StatsError::NoDays { days });
    }
    let roles = Roles::builtin(scene);
    let role_activity = |fixture: &Id| {
        t.roles
            .iter()
            .find(|(r, _)| roles.has(fixture, *r))
            .map(|(_, a)| *a)
    };
    let mut last_t = 0;
    for e in events {
        if e.t < last_t {
            return Err(StatsError::OutOfOrder { id: e.id, t: e.t });
        }
        last_t = e.t;
        if !scene.actors.iter().any(|a| a.id == e.actor) {
            return Err(StatsError::UnknownActor {
                id: e.id,
                actor: e.actor.clone(),
                scene: scene.id.clone(),
            });
        }
    }
    let end = u64::from(days) * DAY;
    let mut people = Vec::new();
    let mut robots = Vec::new();
    for actor in &scene.actors {
        let mine: Vec<&Event> = events.iter().filter(|e| e.actor == actor.id).collect();
        if actor.kind == ActorKind::Robot {
            let mut busy = vec![0u64; days as usize];
            for e in mine
                .iter()
                .filter(|e| !matches!(e.action, Action::Wait { .. }))
            {
                spread(&mut busy, e.t, e.t + e.dur, end);
            }
            robots.extend(busy.iter().enumerate().map(|(d, b)| RobotDay {
                robot: actor.id.clone(),
                day: d as u32 + 1,
                busy: *b as f64 / 60.0,
                idle: (DAY - b) as f64 / 60.0,
            }));
            continue;
        }
        // A visitor (who starts outside) lives elsewhere: their days are
        // not the household's.
        if actor.is_visitor() {
            continue;
        }
        let mut secs: BTreeMap<Activity, Vec<u64>> = BTreeMap::new();
        let mut counted = vec![0u64; days as usize];
        let mut add = |a: Option<Activity>, from: u64, to: u64| {
            if let Some(a) = a {
                let v = secs.entry(a).or_insert_with(|| vec![0; days as usize]);
                spread(v, from, to, end);
                spread(&mut counted, from, to, end);
            }
        };
        let stay = |near: &Option<Id>| {
            near.as_ref()
                .and_then(role_activity)
                .filter(|a| t.stay.contains(a))
        };
        let mut near = actor.near.clone();
        let mut free_from = 0;
        let zero = || vec![0u64; days as usize];
        let (mut house, mut screen) = (zero(), zero());
        // Spells out of the house: (from, to, where to). A visitor's time
        // out before they first arrive is not counted: it is not their home.
        let mut outs: Vec<(u64, u64, Destination)> = Vec::new();
        let mut out: Option<(u64, Destination)> = None;
        // Whether the person's last action was screen time: sitting on
        // afterwards (the evening in front of the tv) is screen time too.
        let mut watching = false;
        for e in mine {
            if watching && stay(&near) == Some(Activity::Leisure) {
                spread(&mut screen, free_from, e.t.max(free_from), end);
            }
            add(stay(&near), free_from, e.t.max(free_from));
            let session = e
                .session
                .as_ref()
                .and_then(|s| sessions.get(s))
                .and_then(|k| t.sessions.get(k))
                .copied();
            let about = match &e.action {
                Action::NavigateTo { .. } => None,
                Action::Place { target, .. }
                | Action::Open { target }
                | Action::Close { target }
                | Action::Inspect { target } => Some(target.clone()),
                Action::SetDeviceState { device, .. } => Some(device.clone()),
                _ => near.clone(),
            };
            add(
                about.as_ref().and_then(role_activity).or(session),
                e.t,
                e.t + e.dur,
            );
            let kind = e.session.as_ref().and_then(|s| sessions.get(s));
            let overlay = |o: &Overlay| {
                kind.is_some_and(|k| o.sessions.contains(k))
                    || about
                        .as_ref()
                        .is_some_and(|f| o.roles.iter().any(|r| roles.has(f, *r)))
            };
            if overlay(&t.housework) {
                spread(&mut house, e.t, e.t + e.dur, end);
            }
            // Screen time is the session's, or switching the screen itself:
            // not looking it over (a tv gone dead) nor a word beside it.
            let on_screen = kind.is_some_and(|k| t.screen.sessions.contains(k))
                || matches!(&e.action, Action::SetDeviceState { device, .. }
                    if t.screen.roles.iter().any(|r| roles.has(device, *r)));
            watching = on_screen;
            if watching {
                spread(&mut screen, e.t, e.t + e.dur, end);
            }
            if e.outcome.is_ok() {
                match &e.action {
                    Action::Leave { to, .. } => out = Some((e.t + e.dur, *to)),
                    Action::Arrive { .. } => {
                        if let Some((from, to)) = out.take() {
                            outs.push((from, e.t, to));
                        }
                    }
                    _ => {}
                }
            }
            for c in e.changes.iter().filter(|c| c.entity == actor.id) {
                if let Value::Position(p) = &c.new {
                    near = p.near.clone();
                }
            }
            free_from = free_from.max(e.t + e.dur);
        }
        if watching && stay(&near) == Some(Activity::Leisure) {
            spread(&mut screen, free_from, end, end);
        }
        add(stay(&near), free_from, end);
        outs.extend(out.map(|(from, to)| (from, end, to)));
        let mut out_by: BTreeMap<&'static str, Vec<u64>> = ["work_school", "errands", "other"]
            .into_iter()
            .map(|g| (g, zero()))
            .collect();
        for (from, to_t, to) in outs {
            spread(
                out_by.entry(out_group(to)).or_insert_with(zero),
                from,
                to_t,
                end,
            );
            spread(
                secs.entry(Activity::Out).or_insert_with(zero),
                from,
                to_t,
                end,
            );
            spread(&mut counted, from, to_t, end);
        }
        // The weekly schedule says it best ("retiree"); else the role's words.
        let kind = actor
            .schedule
            .as_deref()
            .and_then(|s| t.kind_of(s))
            .or_else(|| t.kind_of(&actor.role))
            .map(String::from);
        let min = |secs: u64| secs as f64 / 60.0;
        for d in 0..days as usize {
            people.push(PersonDay {
                person: actor.id.clone(),
                day: d as u32 + 1,
                minutes: Activity::ALL
                    .iter()
                    .map(|a| (*a, secs.get(a).map_or(0, |v| v[d]) as f64 / 60.0))
                    .collect(),
                unscheduled: (DAY.saturating_sub(counted[d])) as f64 / 60.0,
                out_by: out_by.iter().map(|(g, v)| (*g, min(v[d]))).collect(),
                housework: min(house[d]),
                screen: min(screen[d]),
                kind: kind.clone(),
                weekend: is_weekend(d as u32 + 1),
            });
        }
    }
    let mut by_skill: BTreeMap<String, f64> = BTreeMap::new();
    for e in events {
        *by_skill.entry(e.action.skill_name().into()).or_default() += 1.0 / f64::from(days);
    }
    let door = |id: &Id| scene.doors.iter().any(|d| d.id == *id);
    let doors = events
        .iter()
        .filter(|e| matches!(&e.action, Action::Open { target } | Action::Close { target } if door(target)))
        .count();
    Ok(Stats {
        scene: scene.id.clone(),
        days,
        people,
        robots,
        events_per_day: events.len() as f64 / f64::from(days),
        by_skill_per_day: by_skill,
        door_share: if events.is_empty() {
            0.0
        } else {
            doors as f64 / events.len() as f64
        },
        day_variety: day_variety(events, days, sessions),
        weeks: super::weeks::weeks(scene, events, days),
    })
}

/// The mean Jaccard overlap of consecutive days' (session kind, hour of
/// its first event) sets; None with fewer than two days that have any.
pub fn day_variety(
    events: &[Event],
    days: u32,
    sessions: &BTreeMap<String, String>,
) -> Option<f64> {
    let mut per_day: Vec<std::collections::BTreeSet<(&str, u64)>> =
        vec![Default::default(); days as usize];
    let mut seen = std::collections::BTreeSet::new();
    for e in events {
        let Some(s) = e.session.as_deref() else {
            continue;
        };
        let Some(kind) = sessions.get(s) else {
            continue;
        };
        if seen.insert(s) && ((e.t / DAY) as usize) < per_day.len() {
            per_day[(e.t / DAY) as usize].insert((kind.as_str(), e.t % DAY / 3600));
        }
    }
    let pairs: Vec<f64> = per_day
        .windows(2)
        .filter(|w| !w[0].is_empty() && !w[1].is_empty())
        .map(|w| w[0].intersection(&w[1]).count() as f64 / w[0].union(&w[1]).count() as f64)
        .collect();
    (!pairs.is_empty()).then(|| pairs.iter().sum::<f64>() / pairs.len() as f64)
}

/// Adds the seconds of `[from, to)` (cut at `end`) to the days they fall on.
fn spread(days: &mut [u64], from: u64, to: u64, end: u64) {
    let (mut a, to) = (from, to.min(end));
    while a < to {
        let d = (a / DAY) as usize;
        let b = to.min((d as u64 + 1) * DAY);
        days[d] += b - a;
        a = b;
    }
}

/// Mean minutes per person-day of each activity over `days`.
pub fn mean_minutes(days: &[PersonDay]) -> BTreeMap<Activity, f64> {
    let n = days.len().max(1) as f64;
    Activity::ALL
        .iter()
        .map(|a| {
            let total: f64 = days
                .iter()
                .map(|d| d.minutes.get(a).copied().unwrap_or(0.0))
                .sum();
            (*a, total / n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_is_cut_at_midnight_and_at_the_end() {
        let mut d = vec![0; 2];
        spread(&mut d, DAY - 60, DAY + 30, 2 * DAY);
        assert_eq!(d, vec![60, 30]);
        spread(&mut d, 2 * DAY - 10, 3 * DAY, 2 * DAY);
        assert_eq!(d, vec![60, 40]);
    }
}
