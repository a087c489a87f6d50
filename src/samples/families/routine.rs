//! Routine: habits seen on two or more days ("Where does the mug usually
//! go?", "On which days does Alice usually go to work?"): the value a
//! person usually sets, who usually sets it, where a thing usually goes,
//! at what hour someone usually does something, on which days of the week
//! they go out to work or school. A habit is clear when it holds on two
//! days or more and two thirds of the times.

mod phrasings;

use std::collections::BTreeSet;

use rand_chacha::ChaCha8Rng;

use crate::catalogue::schedules::Weekday;
use crate::ids::Id;
use crate::trace::request::{Action, Destination};
use crate::trace::{Location, Value};

use crate::samples::act::{act_of, placed_at};
use crate::samples::answered::{Answered, answered, habit};
use crate::samples::candidates::{At, Candidate, shared_home};
use crate::samples::index::Index;
use crate::samples::model::{Act, Answer, Cutoff, Family, Query};
use crate::samples::phrasing::Phrase;
use crate::samples::text::Namer;
use crate::samples::text::field_words;
use crate::samples::wording::{Tense, answer_words, verb_phrase};

use super::family::{QuestionFamily, Track};
use super::reader::{Read, Reading};

pub use phrasings::PHRASINGS;

pub struct Routine;

/// The kinds of query it asks.
pub const QUERIES: &[&str] = &[
    "usual_value",
    "usual_place",
    "usual_actor",
    "usual_hour",
    "out_days",
];

/// "Where does `object` usually go?"
pub fn usual_place(object: &Id) -> Query {
    Query::UsualPlace {
        object: object.clone(),
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

/// Who set `device.field` to what, in each setting the robot saw before
/// `cutoff`, with its event.
fn settings<'i>(
    ix: &'i Index,
    device: &'i Id,
    field: &'i Id,
    cutoff: u64,
) -> impl Iterator<Item = (&'i Id, &'i Value, u64)> {
    let ops = ix.device_ops(device, field.as_str(), cutoff);
    ops.filter_map(|e| match &e.action {
        Action::SetDeviceState { value, .. } => Some((&e.actor, value, e.id)),
        _ => None,
    })
}

pub const READINGS: &[Reading] = &[
    Reading {
        rank: 20,
        cue: |r| r.has(&["which days", "what days", "days of the week", "which ones"]),
        parse: |r: &Read| {
            Some(Query::OutDays {
                actor: r.person.clone()?,
                to: r.going()?,
            })
        },
    },
    Reading {
        rank: 80,
        cue: |r| {
            r.has(&[
                "usual",
                "normally",
                "typically",
                " tend",
                "as a rule",
                "belong",
                "most often",
            ])
        },
        parse: |r: &Read| {
            let device_act = || {
                r.top
                    .iter()
                    .filter(|e| r.about(e))
                    .find_map(|e| match &e.action {
                        Action::SetDeviceState {
                            device,
                            field,
                            value,
                        } => Some((device.clone(), Id::new(field), value.clone())),
                        _ => None,
                    })
            };
            Some(if r.has(&[" hour ", " time ", " when "]) {
                let (_, act) = r.act_by(r.person.as_ref())?;
                Query::UsualHour {
                    actor: r.person.clone()?,
                    act,
                }
            } else if r.has(&[" who ", "which person"]) {
                let (device, field, value) = device_act()?;
                Query::UsualActor {
                    device,
                    field,
                    value,
                }
            } else if r.has(&[" where ", " place ", " kept ", "belong", " go "]) {
                Query::UsualPlace {
                    object: r.thing.clone()?,
                }
            } else {
                let (device, field, _) = device_act()?;
                Query::UsualValue {
                    actor: r.person.clone()?,
                    device,
                    field,
                }
            })
        },
    },
];

/// The usual time of day of `items` (seconds of the day, event), as a
/// minute of the day: of the times within half an hour of each other, the
/// most (the tightest where two spans hold as many), when a clear habit (on
/// two days or more, two thirds of all the times, no other span as tight
/// with as many); said as the middle of their span to the nearest five
/// minutes, so 07:38, 07:44 and 07:47 are "around 07:45", never more than
/// 20 minutes from any time it stands for.
fn usual_time(ix: &Index, items: &[(u64, u64)]) -> Option<(u64, Vec<u64>)> {
    const SPAN: u64 = 1800;
    let mut v = items.to_vec();
    v.sort_unstable();
    let spans: Vec<(usize, usize)> = (0..v.len())
        .map(|i| (i, v.partition_point(|x| x.0 <= v[i].0 + SPAN)))
        .collect();
    let most = spans.iter().map(|(i, j)| j - i).max()?;
    let width = |&(i, j): &(usize, usize)| v[j - 1].0 - v[i].0;
    let top: Vec<&(usize, usize)> = spans.iter().filter(|(i, j)| j - i == most).collect();
    let tightest = top.iter().map(|s| width(s)).min()?;
    let top: Vec<&&(usize, usize)> = top.iter().filter(|s| width(s) == tightest).collect();
    let [&&(i, j)] = top[..] else {
        return None;
    };
    let mut events: Vec<u64> = v[i..j].iter().map(|x| x.1).collect();
    events.sort_unstable();
    let days: BTreeSet<u32> = events
        .iter()
        .filter_map(|e| ix.event(*e).map(|e| e.day))
        .collect();
    if days.len() < 2 || most * 3 < v.len() * 2 {
        return None;
    }
    let middle = (v[i].0 + v[j - 1].0) / 2;
    let minute = (middle + 150) / 300 * 5 % (24 * 60);
    Some((minute, events))
}

impl QuestionFamily for Routine {
    /// A question of every habit key whose first event is before the
    /// cutoff (a person's device setting, a device value, an object's
    /// place, a person's act), and after two weeks, of the days each
    /// person goes out to work or school.
    fn candidates<'c>(&self, at: &At<'c, '_>, _rng: &mut ChaCha8Rng) -> Vec<Candidate<'c>> {
        let (ix, n, c) = (at.ix, at.n, at.cutoff.event);
        // About one candidate for each first so far: they grow with the
        // months, and so would the copies of a list grown by doubling.
        let firsts = at.firsts.routine.partition_point(|f| f.event.id < c)
            + at.firsts.hours.partition_point(|h| h.event.id < c);
        let mut out = Vec::with_capacity(firsts);
        let mut push = |template, query, phrase: Box<dyn Fn() -> Phrase + 'c>| {
            out.push(Candidate::new(Family::Routine, template, query, phrase));
        };
        let shared = shared_home(ix);
        // Each first event is the first of its keys: none is keyed again.
        for first in at.firsts.routine.iter().take_while(|f| f.event.id < c) {
            let e = first.event;
            match &e.action {
                Action::SetDeviceState {
                    device,
                    field,
                    value,
                } => {
                    // Not a two-way switch ("what power do they usually
                    // pick?"): who and when are its habits.
                    if first.setter && !matches!(field.as_str(), "power" | "open") {
                        let (actor, device, field) =
                            (e.actor.clone(), device.clone(), field.clone());
                        let query = Query::UsualValue {
                            actor: actor.clone(),
                            device: device.clone(),
                            field: Id::new(&field),
                        };
                        push(
                            "usual_value",
                            query,
                            Box::new(move || {
                                let key = match field.as_str() {
                                    "drink" => "usual_drink",
                                    _ => "usual_value",
                                };
                                Phrase::new(
                                    PHRASINGS,
                                    key,
                                    &[
                                        ("who", &n.name(&actor)),
                                        ("field", &field_words(field.as_str())),
                                        ("thing", &n.name(&device)),
                                    ],
                                )
                            }),
                        );
                    }
                    if shared && first.value {
                        let query = Query::UsualActor {
                            device: device.clone(),
                            field: Id::new(field),
                            value: value.clone(),
                        };
                        push(
                            "who_usually",
                            query,
                            // The act is made only for the words: most
                            // candidates are never chosen.
                            Box::new(move || {
                                let act = act_of(&e.action).expect("a device action");
                                let does = verb_phrase(n, &act, Tense::Third);
                                Phrase::new(PHRASINGS, "who_usually", &[("does", &does)])
                            }),
                        );
                    }
                }
                // Not of a thing thrown out: nobody asks where the empty
                // milk carton usually goes.
                Action::Place { object, .. } if first.binned.is_none_or(|b| b >= c) => {
                    let object = object.clone();
                    let query = usual_place(&object);
                    push(
                        "usual_place",
                        query,
                        Box::new(move || {
                            Phrase::new(PHRASINGS, "usual_place", &[("thing", &n.name(&object))])
                        }),
                    );
                }
                _ => {}
            }
        }
        // A person's firsts of each act: one candidate each, but none of
        // a thing thrown out (nobody asks when the empty carton is
        // usually poured).
        for h in at.firsts.hours.iter().take_while(|h| h.event.id < c) {
            if h.binned.is_some_and(|b| b < c) {
                continue;
            }
            // The act is borrowed for the words: only the query owns one.
            let (actor, act): (&'c Id, &'c Act) = (&h.event.actor, h.act);
            let query = Query::UsualHour {
                actor: actor.clone(),
                act: act.clone(),
            };
            push(
                "usual_hour",
                query,
                Box::new(move || {
                    let who = n.name(actor);
                    let act = verb_phrase(n, act, Tense::Base);
                    Phrase::new(PHRASINGS, "usual_hour", &[("who", &who), ("act", &act)])
                }),
            );
        }
        // The weekly routine, once there are two weeks of it.
        if at.cutoff.day <= 14 {
            return out;
        }
        for person in at.humans {
            let tos: BTreeSet<Destination> = ix
                .leaves(person, c)
                .iter()
                .map(|l| l.to)
                .filter(|to| to.is_duty())
                .collect();
            for to in tos {
                let who = (*person).clone();
                let query = Query::OutDays {
                    actor: who.clone(),
                    to,
                };
                push(
                    "out_days",
                    query,
                    Box::new(move || {
                        let who = n.name(&who);
                        let slots = [("who", &*who), ("going", to.phrase()), ("away", to.away())];
                        Phrase::new(PHRASINGS, "out_days", &slots)
                    }),
                );
            }
        }
        out
    }

    fn answer(&self, ix: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answered> {
        let c = cutoff.event;
        match q {
            Query::UsualHour { actor, act } => {
                let items: Vec<(u64, u64)> = ix
                    .doing(Some(actor), act, c)
                    .map(|e| (e.t % crate::trace::DAY, e.id))
                    .collect();
                let (minute, events) = usual_time(ix, &items)?;
                let value = Value::Int(minute as i64);
                answered(Answer::Value { value }, events)
            }
            Query::UsualValue {
                actor,
                device,
                field,
            } => {
                let items: Vec<(String, u64)> = settings(ix, device, field, c)
                    .filter(|(who, ..)| *who == actor)
                    .filter_map(|(_, v, id)| Some((serde_json::to_string(v).ok()?, id)))
                    .collect();
                let (v, events) = habit(ix, &items)?;
                let value = serde_json::from_str(&v).ok()?;
                answered(Answer::Value { value }, events)
            }
            Query::UsualPlace { object } => {
                // Where people put it: the robot's own tidying is not
                // what the household does with it.
                let items: Vec<(Location, u64)> = ix
                    .placements(object, c)
                    .filter(|e| e.actor != ix.robot)
                    .filter_map(|e| Some((placed_at(&e.action)?, e.id)))
                    .collect();
                let (l, events) = habit(ix, &items)?;
                let value = Value::Location(l);
                answered(Answer::Value { value }, events)
            }
            Query::UsualActor {
                device,
                field,
                value,
            } => {
                let items: Vec<(Id, u64)> = settings(ix, device, field, c)
                    .filter(|(_, v, _)| *v == value)
                    .map(|(who, _, id)| (who.clone(), id))
                    .collect();
                let (actor, events) = habit(ix, &items)?;
                // Nobody asks the robot who usually does its own chores.
                if actor == ix.robot {
                    return None;
                }
                answered(
                    Answer::Actor {
                        actor,
                        stale: false,
                    },
                    events,
                )
            }
            Query::OutDays { actor, to } => {
                let (days, evidence) = usual_days(ix, cutoff, actor, *to, true)?;
                let (truth, _) = usual_days(ix, cutoff, actor, *to, false)?;
                (days == truth).then_some(())?;
                answered(Answer::Days { days }, evidence)
            }
            _ => None,
        }
    }

    /// A habit is answered from one list: a device field's operations, an
    /// object's placements, the events of an act.
    fn basis(&self, ix: &Index, q: &Query, cutoff: u64) -> Option<usize> {
        Some(match q {
            Query::UsualPlace { object } => ix.placements(object, cutoff).len(),
            Query::UsualValue { device, field, .. } | Query::UsualActor { device, field, .. } => {
                ix.device_ops(device, field.as_str(), cutoff).len()
            }
            Query::UsualHour { act, .. } => ix.acts_like(act, cutoff),
            _ => return None,
        })
    }

    /// A usual time is said as a time of day.
    fn answer_text(&self, n: &Namer, q: &Query, a: &Answer, options: &[String]) -> String {
        match (q, a) {
            (
                Query::UsualHour { .. },
                Answer::Value {
                    value: Value::Int(m),
                },
            ) => format!("Around {:02}:{:02}.", m / 60, m % 60),
            _ => answer_words(n, q.attr().map_or("location", |a| a.as_str()), a, options),
        }
    }

    fn needs<'q>(&self, q: &'q Query) -> Vec<Track<'q>> {
        match q {
            Query::UsualValue { device, field, .. } | Query::UsualActor { device, field, .. } => {
                vec![Track::Device(device, field)]
            }
            Query::UsualPlace { object } => vec![Track::Placed(object)],
            Query::UsualHour { act, .. } => vec![Track::Act(act)],
            Query::OutDays { actor, .. } => vec![Track::Leaves(actor)],
            _ => vec![],
        }
    }
}
