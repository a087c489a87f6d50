//! A trace's weeks in numbers: what comes into the house for the first
//! time, what is used and used up, what is thrown in a bin, what leaves it
//! for good, and who calls, per week. A household
//! that keeps living brings things home every week; one whose world froze
//! brings them in week 1 and never again.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::catalogue::schedules::VisitorKind;
use crate::ids::Id;
use crate::scene::{Placement, Role, Scene};
use crate::trace::request::Action;
use crate::trace::{DAY, Event, LEVEL, Location, Value};

/// One week (days 7w-6 ..= 7w; the last may be short).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Week {
    /// 1-based.
    pub week: u32,
    /// Days of the trace in this week.
    pub days: u32,
    /// Things put down in the house for the first time that were not in
    /// it when the trace began (delivered, bought, brought as a gift).
    pub new_things: usize,
    /// Servings used (`use`: a glass of milk, a measure of detergent).
    pub servings_used: usize,
    /// Things whose last serving was used (their `level` down to 0).
    pub used_up: usize,
    /// Things put in a bin (a `waste` fixture) for the first time: used
    /// up, gone off, thrown out.
    pub thrown_out: usize,
    /// Things that went out of the house this week and were outside it,
    /// with no one, when the trace ended (lost, taken out with the
    /// rubbish, left for good).
    pub gone: usize,
    /// Arrivals of callers (anyone who does not live here).
    pub visits: usize,
    /// Of which the courier's.
    pub courier_calls: usize,
}

/// The weeks of a trace of `days` days.
pub fn weeks(scene: &Scene, events: &[Event], days: u32) -> Vec<Week> {
    let n = days.div_ceil(7);
    let mut out: Vec<Week> = (1..=n)
        .map(|w| Week {
            week: w,
            days: days.min(7 * w) - 7 * (w - 1),
            ..Week::default()
        })
        .collect();
    let week = |e: &Event| ((e.t / DAY) / 7) as usize;
    let visitor = |id: &Id| scene.actors.iter().find(|a| a.id == *id && a.is_visitor());
    // Not in the house at the start: outside, or in a caller's hands.
    let mut away: BTreeSet<&Id> = scene
        .objects
        .iter()
        .filter(|o| match &o.at {
            Placement::Outside => true,
            Placement::HeldBy(a) => visitor(a).is_some(),
            _ => false,
        })
        .map(|o| &o.id)
        .collect();
    let started_inside: BTreeSet<&Id> = scene
        .objects
        .iter()
        .map(|o| &o.id)
        .filter(|id| !away.contains(id))
        .collect();
    let mut inside_once = started_inside;
    let bins = crate::catalogue::Roles::builtin(scene);
    let bins = bins.fixtures(Role::Waste);
    let mut binned: BTreeSet<&Id> = BTreeSet::new();
    // The week each thing last went outside with no one.
    let mut went_out: BTreeMap<&Id, Option<usize>> = BTreeMap::new();
    for e in events.iter().filter(|e| e.outcome.is_ok()) {
        let w = week(e).min(out.len().saturating_sub(1));
        if let Action::Arrive { .. } = e.action
            && let Some(a) = visitor(&e.actor)
        {
            out[w].visits += 1;
            let courier = crate::catalogue::schedules()
                .visitor_of(a)
                .is_some_and(|v| v.kind == VisitorKind::Courier);
            out[w].courier_calls += usize::from(courier);
        }
        for c in e.changes.iter().filter(|c| c.attr.as_str() == LEVEL) {
            out[w].servings_used += 1;
            out[w].used_up += usize::from(c.new == Value::Int(0));
        }
        for c in e.changes.iter().filter(|c| c.attr.as_str() == "location") {
            let Value::Location(l) = &c.new else { continue };
            if let Location::On(_) | Location::In(_) = l {
                if away.remove(&c.entity) {
                    out[w].new_things += 1;
                }
                inside_once.insert(&c.entity);
            }
            if let Location::In(b) = l
                && bins.contains(b)
                && binned.insert(&c.entity)
            {
                out[w].thrown_out += 1;
            }
            went_out.insert(&c.entity, (*l == Location::Outside).then_some(w));
        }
    }
    for (id, w) in went_out {
        if let Some(w) = w
            && inside_once.contains(id)
        {
            out[w].gone += 1;
        }
    }
    out
}

/// Week `last` over week 1 of `f`, where week 1 has any and the last week
/// is a whole one.
pub fn ratio(weeks: &[Week], f: impl Fn(&Week) -> usize) -> Option<f64> {
    let (first, last) = (weeks.first()?, weeks.last()?);
    (weeks.len() > 1 && last.days == 7 && f(first) > 0).then(|| f(last) as f64 / f(first) as f64)
}
