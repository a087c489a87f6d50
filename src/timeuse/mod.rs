//! A day in numbers (`hearth trace stats`): per person per day the minutes
//! asleep, eating, preparing food, on hygiene, out of the house and at
//! leisure; the robot's busy and idle time; events per day by skill; the
//! share of door events; and, against reference bands from the American
//! Time Use Survey (`assets/timeuse.ron`), which figures fall outside.
//!
//! How a day is read (the rules are data, in `assets/timeuse.ron`):
//! - Each action of a person takes its `dur`. It counts for the activity
//!   of the first role (in the file's order) of the fixture it is about:
//!   its target (`place`, `open`, `close`, `inspect`, a device set), or
//!   the fixture the person stands at (`wait`, `say`, `pick`). An action
//!   about no such fixture counts for its session's kind (`plan.json`),
//!   and otherwise for nothing. Walking counts for its session only.
//! - Between actions a person stays where the last one left them; that
//!   time counts for a `stay` activity (asleep in bed, leisure on the
//!   sofa) when the fixture they stand at has one of its roles, else as
//!   unscheduled. Days are calendar days, so a night is split at midnight.
//! - The robot is busy for the `dur` of every action but `wait`, idle the
//!   rest of the day.
//!
//! No I/O: the caller reads the trace and its plan.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::catalogue::Roles;
use crate::ids::Id;
use crate::scene::{ActorKind, Role, Scene};
use crate::trace::request::{Action, Destination};
use crate::trace::{DAY, Event, Value};

/// The embedded `assets/timeuse.ron`.
pub const DEFAULT_SOURCE: &str = include_str!("../../assets/timeuse.ron");

/// What a person's time is spent on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Activity {
    Asleep,
    Eating,
    FoodPrep,
    Hygiene,
    Out,
    Leisure,
}

impl Activity {
    pub const ALL: [Activity; 6] = [
        Activity::Asleep,
        Activity::Eating,
        Activity::FoodPrep,
        Activity::Hygiene,
        Activity::Out,
        Activity::Leisure,
    ];

    /// The column name (`food_prep`).
    pub fn name(self) -> &'static str {
        match self {
            Activity::Asleep => "asleep",
            Activity::Eating => "eating",
            Activity::FoodPrep => "food_prep",
            Activity::Hygiene => "hygiene",
            Activity::Out => "out",
            Activity::Leisure => "leisure",
        }
    }
}

/// A reference band in hours per person per day, with the survey's mean.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Band {
    pub lo: f64,
    pub hi: f64,
    pub atus: f64,
}

/// `assets/timeuse.ron`: how activities are read, and the bands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeUse {
    pub roles: Vec<(Role, Activity)>,
    pub sessions: BTreeMap<String, Activity>,
    pub stay: Vec<Activity>,
    pub bands: BTreeMap<Activity, Band>,
    /// What counts as housework and as screen time (overlays: the same
    /// minutes also count for their activity above).
    #[serde(default)]
    pub housework: Overlay,
    #[serde(default)]
    pub screen: Overlay,
    /// A person's kind from the words of their actor `role`, first match wins.
    #[serde(default)]
    pub kinds: Vec<(String, Vec<String>)>,
    /// Bands by person kind, then `weekday` or `weekend`, then figure
    /// (`out_work_school`, `out_errands`, `out_other`, `housework`, `screen`).
    #[serde(default)]
    pub groups: BTreeMap<String, BTreeMap<String, BTreeMap<String, Band>>>,
}

/// Fixture roles and session kinds an overlay figure counts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Overlay {
    #[serde(default)]
    pub roles: Vec<Role>,
    #[serde(default)]
    pub sessions: Vec<String>,
}

impl TimeUse {
    /// The kind of a person with actor role `role` (`employed`, `student`,
    /// `retired`), if a word of it says.
    pub fn kind_of(&self, role: &str) -> Option<&str> {
        let role = role.to_lowercase();
        self.kinds
            .iter()
            .find(|(_, words)| words.iter().any(|w| role.contains(w.as_str())))
            .map(|(k, _)| k.as_str())
    }
}

/// Where a destination's hours out count: `work_school`, `errands`
/// (shopping, errands, appointments) or `other`.
pub fn out_group(to: Destination) -> &'static str {
    match to {
        Destination::Work | Destination::School => "work_school",
        Destination::Shopping | Destination::Errand | Destination::Appointment => "errands",
        _ => "other",
    }
}

/// Day 1 is a Monday: days 6 and 7 of each week are the weekend.
pub fn is_weekend(day: u32) -> bool {
    (day - 1) % 7 >= 5
}

#[derive(Debug, Error, PartialEq)]
pub enum TimeUseError {
    #[error(transparent)]
    Syntax(#[from] crate::located::SyntaxError),
    #[error(
        "{origin}: band {activity} runs from {lo} to {hi} hours; it needs 0 <= lo <= atus <= hi <= 24"
    )]
    BadBand {
        origin: String,
        activity: &'static str,
        lo: f64,
        hi: f64,
    },
}

/// Parses and checks a time-use file; `origin` names it in errors.
pub fn parse(origin: &str, src: &str) -> Result<TimeUse, TimeUseError> {
    let t: TimeUse = crate::located::parse_ron(ron::Options::default(), origin, src)?;
    let groups = t
        .groups
        .values()
        .flat_map(|d| d.values())
        .flat_map(|f| f.values());
    let all = t
        .bands
        .iter()
        .map(|(a, b)| (a.name(), b))
        .chain(groups.map(|b| ("group", b)));
    for (a, b) in all {
        if !(0.0 <= b.lo && b.lo <= b.atus && b.atus <= b.hi && b.hi <= 24.0) {
            return Err(TimeUseError::BadBand {
                origin: origin.into(),
                activity: a,
                lo: b.lo,
                hi: b.hi,
            });
        }
    }
    Ok(t)
}

/// The embedded rules and bands.
pub fn builtin() -> &'static TimeUse {
    static T: std::sync::OnceLock<TimeUse> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        parse("assets/timeuse.ron", DEFAULT_SOURCE).expect("the embedded file is valid")
    })
}

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
}

impl Stats {
    /// Mean minutes per person-day of each activity.
    pub fn mean_minutes(&self) -> BTreeMap<Activity, f64> {
        mean_minutes(&self.people)
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

/// Where a figure sits against its band.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    pub activity: Activity,
    /// Hours per person per day.
    pub hours: f64,
    pub band: Band,
    pub inside: bool,
}

/// Each banded activity's mean beside its band.
pub fn compare(mean_minutes: &BTreeMap<Activity, f64>, t: &TimeUse) -> Vec<Comparison> {
    t.bands
        .iter()
        .map(|(a, b)| {
            let hours = mean_minutes.get(a).copied().unwrap_or(0.0) / 60.0;
            Comparison {
                activity: *a,
                hours,
                band: *b,
                inside: (b.lo..=b.hi).contains(&hours),
            }
        })
        .collect()
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

/// A kind-and-day-type figure's mean over the person-days it covers,
/// beside its band.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupComparison {
    pub kind: String,
    /// `weekday` or `weekend`.
    pub days: String,
    pub figure: String,
    pub hours: f64,
    pub band: Band,
    pub inside: bool,
    pub person_days: usize,
}

/// Every banded figure of [`TimeUse::groups`] that has person-days.
pub fn compare_groups(days: &[PersonDay], t: &TimeUse) -> Vec<GroupComparison> {
    let mut out = Vec::new();
    for (kind, by_day) in &t.groups {
        for (daytype, figures) in by_day {
            let mine: Vec<&PersonDay> = (days.iter())
                .filter(|d| d.kind.as_deref() == Some(kind) && d.weekend == (daytype == "weekend"))
                .collect();
            if mine.is_empty() {
                continue;
            }
            for (figure, band) in figures {
                let total: f64 = mine.iter().filter_map(|d| d.figure(figure)).sum();
                let hours = total / mine.len() as f64 / 60.0;
                out.push(GroupComparison {
                    kind: kind.clone(),
                    days: daytype.clone(),
                    figure: figure.clone(),
                    hours,
                    band: *band,
                    inside: (band.lo..=band.hi).contains(&hours),
                    person_days: mine.len(),
                });
            }
        }
    }
    out
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

    #[test]
    fn the_embedded_file_parses_and_bad_bands_are_refused() {
        let t = builtin();
        assert!(t.bands.contains_key(&Activity::Asleep));
        let bad = DEFAULT_SOURCE.replace("lo: 7.5, hi: 10.0", "lo: 11.0, hi: 10.0");
        assert!(matches!(
            parse("x.ron", &bad),
            Err(TimeUseError::BadBand {
                activity: "asleep",
                ..
            })
        ));
        assert!(matches!(
            parse("x.ron", "TimeUse(roles: [(sleepy, Asleep)])"),
            Err(TimeUseError::Syntax(_))
        ));
    }
}
