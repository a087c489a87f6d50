//! Reference answers: a [`Query`] answered from the indexes at a cutoff.
//! Mining and the validity checks both call [`answer`]; the checks call it
//! again on the trace cut at the cutoff, so no answer can use the future.

use std::collections::{BTreeMap, BTreeSet};

// Bevy's maps hash with a fixed foldhash, cheaper than std's SipHash on
// these keys; they are only looked up, never iterated into output.
use bevy::platform::collections::HashMap;

use crate::catalogue::schedules::Weekday;
use crate::ids::Id;
use crate::scene::ActorKind;
use crate::trace::request::{Action, Destination};
use crate::trace::{ClaimMode, Location, Value, clock_time, day_of};

use super::act::{main_target, placed_at};
use super::index::{Index, Key, only_once};
use super::model::{Act, Answer, Cutoff, Moment, Progress, Query, Source};

/// A commitment counts as overdue this long after it was due.
pub const GRACE: u64 = 3600;

/// An answer with the events that support it.
#[derive(Debug, Clone, PartialEq)]
pub struct Answered {
    pub answer: Answer,
    pub evidence: Vec<u64>,
}

fn answered(answer: Answer, evidence: impl IntoIterator<Item = u64>) -> Option<Answered> {
    let evidence: BTreeSet<u64> = evidence.into_iter().collect();
    Some(Answered {
        answer,
        evidence: evidence.into_iter().collect(),
    })
}

pub fn time(t: u64) -> Answer {
    let Moment { t, day, time } = moment(t);
    Answer::Time { t, day, time }
}

/// `t` with its day and clock time to the minute.
pub fn moment(t: u64) -> Moment {
    Moment {
        t,
        day: day_of(t),
        time: clock_time(t)[..5].to_string(),
    }
}

/// Observations of a location with hands left out: where the robot saw
/// the object lie, one entry per change of place.
pub fn places(seen: &[super::index::Seen], attr: &str) -> Vec<(u64, Value)> {
    let mut out: Vec<(u64, Value)> = Vec::new();
    for s in seen {
        if attr == "location" && matches!(s.value, Value::Location(Location::HeldBy(_))) {
            continue;
        }
        if out.last().is_none_or(|(_, v)| *v != s.value) {
            out.push((s.event, s.value.clone()));
        }
    }
    out
}

/// The most common value among `(value, event)` pairs, when it is a clear
/// habit: on two or more days and at least two thirds of the occurrences.
pub fn habit<V: Ord + Clone>(ix: &Index, items: &[(V, u64)]) -> Option<(V, Vec<u64>)> {
    let mut by: BTreeMap<&V, Vec<u64>> = BTreeMap::new();
    for (v, e) in items {
        by.entry(v).or_default().push(*e);
    }
    let (v, events) = by.iter().max_by_key(|(_, es)| es.len())?;
    let ties = by.values().filter(|es| es.len() == events.len()).count();
    let days: BTreeSet<u32> = events
        .iter()
        .filter_map(|e| ix.event(*e).map(|e| e.day))
        .collect();
    (ties == 1 && days.len() >= 2 && events.len() * 3 >= items.len() * 2)
        .then(|| ((*v).clone(), events.clone()))
}

/// The one claim about `entity` in the utterance `event` (heard before
/// `cutoff`); `None` when the utterance makes several, which a question
/// naming only the entity could not tell apart.
fn unique_claim<'a>(
    ix: &'a Index,
    cutoff: u64,
    event: u64,
    entity: &Id,
) -> Option<&'a super::index::Heard> {
    let mut about = ix
        .heard_in(event, cutoff)
        .iter()
        .filter(|h| h.claim.entity == *entity);
    let h = about.next()?;
    about.next().is_none().then_some(h)
}

/// Answers to habit questions kept across cutoffs, for a sweep through a
/// trace: a habit is answered again only when its events grew (see
/// [`Index::basis`]), not from the whole past at every cutoff.
#[derive(Default)]
pub struct Memo(HashMap<String, (usize, Option<Answered>)>);

impl Memo {
    /// As [`answer`], at cutoffs that never go back.
    pub fn answer(&mut self, ix: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answered> {
        let Some(n) = ix.basis(q, cutoff.event) else {
            return answer(ix, cutoff, q);
        };
        let key = serde_json::to_string(q).unwrap_or_default();
        if let Some((m, a)) = self.0.get(&key)
            && *m == n
        {
            return a.clone();
        }
        let a = answer(ix, cutoff, q);
        self.0.insert(key, (n, a.clone()));
        a
    }
}

/// Whether nothing the robot perceived before `cutoff` bears on `q`, for
/// the queries an unanswerable question takes: a state never seen nor
/// told of, a claim or preference the person never made in its hearing, an
/// act never seen done by that person. Other queries are never
/// unanswerable (their answer may still be unsettled: `None`).
pub fn unsupported(ix: &Index, cutoff: u64, q: &Query) -> bool {
    match q {
        Query::State { entity, attr } => {
            ix.seen_before(&(entity.clone(), attr.clone()), cutoff)
                .is_empty()
                && [ClaimMode::Fact, ClaimMode::Preference, ClaimMode::Request]
                    .into_iter()
                    .all(|m| ix.claims(m, entity, attr, cutoff).next().is_none())
        }
        Query::AccordingTo {
            speaker,
            entity,
            attr,
        } => !ix
            .claims(ClaimMode::Fact, entity, attr, cutoff)
            .any(|h| h.speaker == *speaker),
        Query::Preference {
            holder,
            entity,
            attr,
        } => !ix
            .claims(ClaimMode::Preference, entity, attr, cutoff)
            .any(|h| h.claim.holder.as_ref() == Some(holder)),
        Query::LastTime { actor, act } => ix.doing(Some(actor), act, cutoff).next().is_none(),
        _ => false,
    }
}

/// The reference answer to `q` at `cutoff`, from `ix`: [`Answer::Unknown`]
/// when nothing the robot perceived before the cutoff bears on it
/// ([`unsupported`]); `None` when its history bears on it but does not
/// settle it.
pub fn answer(ix: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answered> {
    let c = cutoff.event;
    if unsupported(ix, c, q) {
        return answered(Answer::Unknown, []);
    }
    let key = |e: &Id, a: &Id| -> Key { (e.clone(), a.clone()) };
    match q {
        Query::State { entity, attr } => {
            let k = key(entity, attr);
            let last = ix.seen_before(&k, c).last()?;
            let answer = if ix.current(&k, last, c) {
                Answer::Value {
                    value: last.value.clone(),
                }
            } else {
                Answer::LastSeen {
                    value: last.value.clone(),
                    seen_at: ix.event(last.event)?.t,
                    stale: true,
                }
            };
            answered(answer, [last.event])
        }
        Query::Before {
            entity,
            attr,
            change,
        } => {
            let k = key(entity, attr);
            let p = ix.places_before(&k, c);
            let i = p.partition_point(|x| x.event < *change);
            if p.get(i).is_none_or(|x| x.event != *change) {
                return None;
            }
            // "Before it was moved to X" must name one move.
            if i == 0 || !only_once(p, i) {
                return None;
            }
            let (was_at, was) = (p[i - 1].event, &p[i - 1].value);
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
        Query::LastTime { actor, act } => {
            let e = ix.doing(Some(actor), act, c).next_back()?;
            answered(time(e.t), [e.id])
        }
        Query::First {
            a_actor,
            a,
            b_actor,
            b,
        } => {
            // Each must name exactly one perceived event before the cutoff.
            let unique = |actor: &Id, act: &Act| {
                let mut found = ix.doing(Some(actor), act, c);
                let first = found.next()?;
                found.next().is_none().then_some(first.id)
            };
            let (ea, eb) = (unique(a_actor, a)?, unique(b_actor, b)?);
            if ea == eb {
                return None;
            }
            answered(
                Answer::Choice {
                    option: if ea < eb { "A".into() } else { "B".into() },
                },
                [ea, eb],
            )
        }
        Query::Next { event } => {
            let e = ix.event(*event)?;
            if e.id >= c || !e.outcome.is_ok() || !ix.robot_saw(e) {
                return None;
            }
            let next = ix.after(e.id).iter().take_while(|n| n.id < c).find(|n| {
                n.actor == e.actor
                    && n.outcome.is_ok()
                    && !matches!(n.action, Action::Say { .. } | Action::Wait { .. })
            })?;
            if !ix.robot_saw(next) || next.session != e.session {
                return None;
            }
            answered(
                Answer::Action {
                    skill: next.action.skill_name().into(),
                    target: main_target(&next.action),
                },
                [e.id, next.id],
            )
        }
        Query::Preference {
            holder,
            entity,
            attr,
        } => {
            let h = ix
                .claims(ClaimMode::Preference, entity, attr, c)
                .rev()
                .find(|h| h.claim.holder.as_ref() == Some(holder))?;
            answered(
                Answer::Value {
                    value: h.claim.value.clone(),
                },
                [h.event],
            )
        }
        Query::WhoPrefers {
            entity,
            attr,
            value,
        } => {
            // Each holder's latest preference for this setting.
            let mut latest: BTreeMap<&Id, (&Value, u64)> = BTreeMap::new();
            for h in ix.claims(ClaimMode::Preference, entity, attr, c) {
                if let Some(holder) = &h.claim.holder {
                    latest.insert(holder, (&h.claim.value, h.event));
                }
            }
            let mut who = latest.iter().filter(|(_, (v, _))| *v == value);
            let (holder, (_, event)) = who.next()?;
            if who.next().is_some() {
                return None;
            }
            answered(
                Answer::Actor {
                    actor: (*holder).clone(),
                },
                [*event],
            )
        }
        Query::UsualHour { actor, act } => {
            let items: Vec<(u64, u64)> = ix
                .doing(Some(actor), act, c)
                .map(|e| (e.t % crate::trace::DAY / 3600, e.id))
                .collect();
            let (hour, events) = habit(ix, &items)?;
            answered(
                Answer::Value {
                    value: Value::Int(hour as i64),
                },
                events,
            )
        }
        Query::UsualValue {
            actor,
            device,
            field,
        } => {
            let items: Vec<(String, u64)> = ix
                .device_ops(device, field.as_str(), c)
                .filter(|e| e.actor == *actor)
                .filter_map(|e| match &e.action {
                    Action::SetDeviceState { value, .. } => {
                        Some((serde_json::to_string(value).ok()?, e.id))
                    }
                    _ => None,
                })
                .collect();
            let (v, events) = habit(ix, &items)?;
            let value = serde_json::from_str(&v).ok()?;
            answered(Answer::Value { value }, events)
        }
        Query::UsualPlace { object } => {
            let items: Vec<(Location, u64)> = ix
                .placements(object, c)
                .filter_map(|e| Some((placed_at(&e.action)?, e.id)))
                .collect();
            let (l, events) = habit(ix, &items)?;
            answered(
                Answer::Value {
                    value: Value::Location(l),
                },
                events,
            )
        }
        Query::UsualActor {
            device,
            field,
            value,
        } => {
            let items: Vec<(Id, u64)> = ix
                .device_ops(device, field.as_str(), c)
                .filter(
                    |e| matches!(&e.action, Action::SetDeviceState { value: v, .. } if v == value),
                )
                .map(|e| (e.actor.clone(), e.id))
                .collect();
            let (actor, events) = habit(ix, &items)?;
            answered(Answer::Actor { actor }, events)
        }
        Query::WhoSaid {
            entity,
            attr,
            value,
        } => {
            let said: Vec<_> = ix
                .claims(ClaimMode::Fact, entity, attr, c)
                .filter(|h| h.claim.value == *value)
                .collect();
            let speakers: BTreeSet<&Id> = said.iter().map(|h| &h.speaker).collect();
            if speakers.len() != 1 {
                return None;
            }
            answered(
                Answer::Actor {
                    actor: said[0].speaker.clone(),
                },
                said.iter().map(|h| h.event),
            )
        }
        Query::SeenOrTold { claim, entity } => {
            let h = unique_claim(ix, c, *claim, entity)?;
            if h.claim.mode != ClaimMode::Fact {
                return None;
            }
            let since: Vec<_> = ix
                .seen_before(&key(entity, &h.claim.attr), c)
                .iter()
                .filter(|s| s.event > *claim)
                .collect();
            let (source, evidence) = match since.last() {
                None => (Source::Told, vec![*claim]),
                Some(s) if s.value == h.claim.value => (Source::Seen, vec![*claim, s.event]),
                Some(s) => (Source::Contradicted, vec![*claim, s.event]),
            };
            answered(Answer::Source { source }, evidence)
        }
        Query::AccordingTo {
            speaker,
            entity,
            attr,
        } => {
            let h = ix
                .claims(ClaimMode::Fact, entity, attr, c)
                .rev()
                .find(|h| h.speaker == *speaker)?;
            answered(
                Answer::Value {
                    value: h.claim.value.clone(),
                },
                [h.event],
            )
        }
        Query::Asked { request, entity }
        | Query::Due { request, entity }
        | Query::Status { request, entity } => {
            let h = unique_claim(ix, c, *request, entity)
                .filter(|h| h.claim.mode == ClaimMode::Request)?;
            let due = h.claim.due?;
            match q {
                Query::Asked { .. } => answered(
                    Answer::Value {
                        value: h.claim.value.clone(),
                    },
                    [h.event],
                ),
                Query::Due { .. } => answered(time(due), [h.event]),
                _ => {
                    let done = ix
                        .seen_before(&key(entity, &h.claim.attr), c)
                        .iter()
                        .find(|s| s.event > h.event && s.value == h.claim.value);
                    let (status, evidence) = match done {
                        Some(s) => (Progress::Done, vec![h.event, s.event]),
                        None if cutoff.t < due => (Progress::Pending, vec![h.event]),
                        None if cutoff.t >= due + GRACE => (Progress::Overdue, vec![h.event]),
                        None => return None,
                    };
                    answered(Answer::Status { status }, evidence)
                }
            }
        }
        Query::Count { actor, act, day } => {
            // Latest first, back to the day: not the whole past.
            let events: Vec<u64> = ix
                .doing(actor.as_ref(), act, c)
                .rev()
                .take_while(|e| e.day >= *day)
                .filter(|e| e.day == *day)
                .map(|e| e.id)
                .collect();
            if events.is_empty() {
                return None;
            }
            answered(
                Answer::Count {
                    count: events.len() as u32,
                },
                events,
            )
        }
        Query::WhoHome { event } => {
            let x = ix.event(*event)?;
            if x.id >= c || !ix.robot_saw(x) {
                return None;
            }
            let mut people = Vec::new();
            let mut evidence = vec![x.id];
            // The household and its guests: the courier at the door for a
            // minute, or the technician at work, is not "home".
            for p in ix
                .scene
                .actors
                .iter()
                .filter(|a| a.kind == ActorKind::Human && !calls_for_work(a))
            {
                let (home, seen) = ix.presence(&p.id, x.id, c)?;
                if home {
                    people.push(p.id.clone());
                }
                evidence.extend(seen);
            }
            answered(Answer::People { people }, evidence)
        }
        Query::OutDays { actor, to } => {
            let (days, evidence) = usual_days(ix, cutoff, actor, *to, true)?;
            let (truth, _) = usual_days(ix, cutoff, actor, *to, false)?;
            (days == truth).then_some(())?;
            answered(Answer::Days { days }, evidence)
        }
        Query::WhileOut {
            leave,
            back,
            entity,
            attr,
            ..
        } => {
            if back >= &c || leave >= back {
                return None;
            }
            let changes = ix.changes_of(&key(entity, attr));
            let during = &changes[changes.partition_point(|(e, _)| e <= leave)
                ..changes.partition_point(|(e, _)| e < back)];
            let mut by = BTreeSet::new();
            for (e, _) in during {
                // Every change in the meantime seen, by one person.
                let e = ix.event(*e).filter(|e| ix.robot_saw(e))?;
                by.insert(&e.actor);
            }
            (by.len() == 1).then_some(())?;
            let actor = (*by.first()?).clone();
            answered(Answer::Actor { actor }, during.iter().map(|(e, _)| *e))
        }
    }
}

/// The days of the week on which `actor` usually went out `to` over the
/// whole days before the cutoff's: a day of the week on which they went in
/// two weeks or more and on two thirds of its occurrences (day 1 is a
/// Monday). From the departures the robot perceived (`perceived`), or from
/// all of them; with the perceived departures of those days. `None` before
/// two whole weeks have passed.
fn usual_days(
    ix: &Index,
    cutoff: &Cutoff,
    actor: &Id,
    to: Destination,
    perceived: bool,
) -> Option<(Vec<Weekday>, Vec<u64>)> {
    let whole = cutoff.day.checked_sub(1).filter(|d| *d >= 14)?;
    let leaves: Vec<_> = ix
        .leaves(actor, cutoff.event)
        .iter()
        .filter(|l| l.to == to && l.day <= whole && (l.perceived || !perceived))
        .collect();
    let mut days = Vec::new();
    let mut evidence = Vec::new();
    for w in Weekday::ALL {
        let on = |d: u32| Weekday::of_day(d, Weekday::Mon) == w;
        let went: BTreeSet<u32> = leaves.iter().map(|l| l.day).filter(|d| on(*d)).collect();
        let times = (1..=whole).filter(|d| on(*d)).count();
        if went.len() >= 2 && went.len() * 3 >= times * 2 {
            days.push(w);
            evidence.extend(
                leaves
                    .iter()
                    .filter(|l| on(l.day) && l.perceived)
                    .map(|l| l.event),
            );
        }
    }
    (!days.is_empty()).then_some((days, evidence))
}

/// How sure an answer is: what calibrated scoring compares beside the
/// answer itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Certainty {
    /// Said as so: a current value, a time, a name.
    Sure,
    /// The last value seen, said to be possibly out of date.
    PossiblyChanged,
    /// "Not known".
    NotKnown,
}

pub fn certainty(a: &Answer) -> Certainty {
    match a {
        Answer::LastSeen { stale: true, .. } => Certainty::PossiblyChanged,
        Answer::Unknown => Certainty::NotKnown,
        _ => Certainty::Sure,
    }
}

/// Whether `a` is the calibrated `reference`: the same answer
/// ([`same_answer`]) said as surely, no more and no less.
pub fn calibrated(a: &Answer, reference: &Answer) -> bool {
    same_answer(a, reference) && certainty(a) == certainty(reference)
}

/// Whether two answers agree as scored: state values regardless of the
/// staleness flag, times to the minute, everything else exactly.
pub fn same_answer(a: &Answer, b: &Answer) -> bool {
    let value = |x: &Answer| match x {
        Answer::Value { value } | Answer::LastSeen { value, .. } => Some(value.clone()),
        _ => None,
    };
    match (a, b) {
        (
            Answer::Time {
                day: d1, time: t1, ..
            },
            Answer::Time {
                day: d2, time: t2, ..
            },
        ) => d1 == d2 && t1 == t2,
        _ => match (value(a), value(b)) {
            (Some(x), Some(y)) => same_value(&x, &y),
            (None, None) => a == b,
            _ => false,
        },
    }
}

fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Int(x), Value::Float(y)) | (Value::Float(y), Value::Int(x)) => {
            (*x as f64 - y).abs() < 1e-9
        }
        _ => a == b,
    }
}

/// Whether `a` calls only for work (the courier, the repair technician).
fn calls_for_work(a: &crate::scene::ActorDef) -> bool {
    use crate::catalogue::schedules::VisitorKind;
    crate::catalogue::schedules()
        .visitor_of(a)
        .is_some_and(|v| matches!(v.kind, VisitorKind::Courier | VisitorKind::Technician))
}
