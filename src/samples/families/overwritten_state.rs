//! Overwritten state: what a value was before the robot saw it change
//! ("Where was the mug before Alice put it on the shelf?"). A standing
//! question of each change the robot saw to a value the attribute took
//! only once, so that "before it was put there" names one move.

mod phrasings;

use crate::ids::Id;
use crate::trace::{LEVEL, Location, TEXT, Value};

use crate::samples::answered::{Answered, answered};
use crate::samples::candidates::Candidate;
use crate::samples::index::{Index, Place, only_once};
use crate::samples::model::{Answer, Cutoff, Family, Query};
use crate::samples::phrasing::Phrase;
use crate::samples::text::Namer;

use super::family::{QuestionFamily, Track};
use super::reader::{Read, Reading};

pub use phrasings::PHRASINGS;

pub struct OverwrittenState;

/// The kinds of query it asks.
pub const QUERIES: &[&str] = &["before"];

/// Whether a change of `attr` to `value` is asked about: not a two-way state's
/// (open or closed, on or off), whose change to open says it was closed.
pub fn asks(attr: &Id, value: &Value) -> bool {
    // How much milk was left before the last glass is no one's question;
    // how much is left now is (the current state's).
    // Nor what a list said before each line was added.
    ![LEVEL, TEXT].contains(&attr.as_str()) && !matches!(value, Value::Bool(_))
}

/// "What was it before?": the value of `entity.attr` before the change
/// the robot saw at `p[i]`, a value the attribute took only once.
pub fn candidate<'c>(
    ix: &'c Index,
    n: &'c Namer,
    entity: &'c Id,
    attr: &'c Id,
    p: &'c [Place],
    i: usize,
) -> Candidate<'c> {
    let change = p[i].event;
    let query = Query::Before {
        entity: entity.clone(),
        attr: attr.clone(),
        change,
    };
    let phrase = move || {
        let new = &p[i].value;
        let mover = ix
            .event(change)
            .filter(|e| {
                e.changes
                    .iter()
                    .any(|ch| &ch.entity == entity && &ch.attr == attr)
            })
            .map(|e| e.actor.clone());
        let (thing, place) = (n.name(entity), n.value(attr, new));
        let phrase = |key, slots: &[(&'static str, &str)]| Phrase::new(PHRASINGS, key, slots);
        match (attr.as_str(), mover) {
            // Into the mover's own hands or bag: "put it with Ben" is no
            // way to say it.
            ("location", Some(m)) if new_holder(new) == Some(&m) => {
                let key = match new {
                    Value::Location(Location::CarriedBy(_)) => "before_carried_out",
                    _ => "before_picked",
                };
                phrase(key, &[("thing", &thing), ("who", &n.name(&m))])
            }
            ("location", Some(m)) => phrase(
                "before_moved_by",
                &[("thing", &thing), ("who", &n.name(&m)), ("place", &place)],
            ),
            ("location", None) => phrase("before_moved", &[("thing", &thing), ("place", &place)]),
            (a, _) => phrase(
                "before_changed",
                &[("what", &n.attribute(entity, a)), ("value", &place)],
            ),
        }
    };
    let family = Family::OverwrittenState;
    Candidate::new(family, "before_change", query, Box::new(phrase))
}

/// Whose hands or bag a location is.
fn new_holder(v: &Value) -> Option<&Id> {
    match v {
        Value::Location(l) => l.holder(),
        _ => None,
    }
}

pub const READINGS: &[Reading] = &[Reading {
    rank: 100,
    cue: |r| r.has(&[" before ", " prior ", "previously", " until ", " used to "]),
    parse: |r: &Read| {
        let attr = r.attr();
        let entity = r.thing.clone()?;
        let change = r
            .top
            .iter()
            .find(|e| {
                e.outcome.is_ok()
                    && e.changes
                        .iter()
                        .any(|c| c.entity == entity && c.attr == attr)
            })?
            .id;
        Some(Query::Before {
            entity,
            attr,
            change,
        })
    },
}];

impl QuestionFamily for OverwrittenState {
    fn answer(&self, ix: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answered> {
        let Query::Before {
            entity,
            attr,
            change,
        } = q
        else {
            return None;
        };
        let k = (entity.clone(), attr.clone());
        let p = ix.places_before(&k, cutoff.event);
        let i = p.partition_point(|x| x.event < *change);
        if p.get(i).is_none_or(|x| x.event != *change) {
            return None;
        }
        // "Before it was moved to X" must name one move.
        if i == 0 || !only_once(p, i) {
            return None;
        }
        let (was_at, was) = (p[i - 1].event, &p[i - 1].value);
        // Nobody is their own place: "before Noah put the purse down" is
        // not asked when it was with Noah (it answers itself).
        if let Value::Location(Location::CarriedBy(a) | Location::HeldBy(a)) = was
            && ix.event(*change).is_some_and(|e| e.actor == *a)
        {
            return None;
        }
        // Unseen changes in between would make the last seen value the
        // wrong answer ("before Alice moved it" = where she took it from).
        let changes = ix.changes_of(&k);
        let between = &changes[changes.partition_point(|(e, _)| *e <= was_at)
            ..changes.partition_point(|(e, _)| e < change)];
        let missed = between
            .iter()
            .any(|(_, v)| v != was && !matches!(v, Value::Location(Location::HeldBy(_))));
        if missed {
            return None;
        }
        answered(Answer::Value { value: was.clone() }, [was_at, *change])
    }

    fn needs<'q>(&self, q: &'q Query) -> Vec<Track<'q>> {
        match q {
            Query::Before { entity, attr, .. } => vec![Track::State(entity, attr)],
            _ => vec![],
        }
    }
}
