//! Questions that need a household that goes out (issue 32): who was home
//! when something happened, on which days someone goes to work or school,
//! and who changed what while someone was out. Every answer is checked
//! against what happened, worked out here from the events alone; a robot
//! that perceived nothing settles none of them.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::*;
use hearth::catalogue::schedules::Weekday;
use hearth::ids::Id;
use hearth::samples::answer::answer;
use hearth::samples::cutoff::cutoffs;
use hearth::samples::{self, Answer, Family, Index, QaSample, Query, Sample};
use hearth::scene::{ActorKind, OUTSIDE, Scene};
use hearth::trace::request::{Action, Destination};
use hearth::trace::{Event, Value};

fn qa(scene: &Scene, events: &[Event], seed: u64) -> Vec<QaSample> {
    samples::mine(scene, events, seed)
        .into_iter()
        .filter_map(|s| match s {
            Sample::Qa(q) => Some(q),
            Sample::Plan(_) => None,
        })
        .collect()
}

/// Who of the household and its guests (not the courier or the repair
/// technician, there for work) is in the house just before each event,
/// from the positions alone.
fn home_before(scene: &Scene, events: &[Event]) -> BTreeMap<u64, Vec<Id>> {
    use hearth::catalogue::schedules::{VisitorKind, schedules};
    let humans: Vec<&Id> = scene
        .actors
        .iter()
        .filter(|a| a.kind == ActorKind::Human)
        .filter(|a| {
            !schedules()
                .visitor_of(a)
                .is_some_and(|v| matches!(v.kind, VisitorKind::Courier | VisitorKind::Technician))
        })
        .map(|a| &a.id)
        .collect();
    let mut home: BTreeMap<&Id, bool> = scene
        .actors
        .iter()
        .map(|a| (&a.id, a.room.as_str() != OUTSIDE))
        .collect();
    let mut out = BTreeMap::new();
    for e in events {
        let now = humans.iter().filter(|h| home[*h]).map(|h| (*h).clone());
        out.insert(e.id, now.collect());
        for c in e.changes.iter().filter(|c| c.attr.as_str() == "position") {
            if let (Some(h), Value::Position(p)) = (home.get_mut(&c.entity), &c.new) {
                *h = p.room.as_str() != OUTSIDE;
            }
        }
    }
    out
}

/// The rule the questions state, from every departure: a day of the week
/// on which `who` went `to` in two or more weeks and on two thirds of its
/// occurrences among the whole days before `day`.
fn usual_days(events: &[Event], who: &Id, to: Destination, day: u32) -> Vec<Weekday> {
    let whole = day - 1;
    let went: BTreeSet<u32> = events
        .iter()
        .filter(|e| e.actor == *who && e.day <= whole && e.outcome.is_ok())
        .filter(|e| matches!(&e.action, Action::Leave { to: t, .. } if *t == to))
        .map(|e| e.day)
        .collect();
    Weekday::ALL
        .into_iter()
        .filter(|w| {
            let on = |d: &u32| Weekday::of_day(*d, Weekday::Mon) == *w;
            let n = went.iter().filter(|d| on(d)).count();
            let times = (1..=whole).filter(on).count();
            n >= 2 && n * 3 >= times * 2
        })
        .collect()
}

#[test]
fn presence_questions_answer_what_happened() {
    let mut told = BTreeMap::<&str, usize>::new();
    let mut answers = BTreeSet::new();
    for (scene_id, seed) in [("family_apartment", 4), ("large_house", 9)] {
        let (scene, events) = generated(scene_id, seed, 22);
        let home = home_before(&scene, &events);
        let by_id: BTreeMap<u64, &Event> = events.iter().map(|e| (e.id, e)).collect();
        for q in qa(&scene, &events, 1) {
            match (&q.query, &q.answer) {
                (Query::WhoHome { event }, Answer::People { people }) => {
                    assert_eq!(q.family, Family::Presence);
                    assert!(*event < q.cutoff.event, "{}: asks of the future", q.id);
                    assert_eq!(people, &home[event], "{}: {}", q.id, q.question);
                    answers.insert(people.len());
                    *told.entry("who_home").or_default() += 1;
                }
                (Query::OutDays { actor, to }, Answer::Days { days }) => {
                    assert!(
                        q.cutoff.day > 14,
                        "{}: a routine from under two weeks",
                        q.id
                    );
                    let truth = usual_days(&events, actor, *to, q.cutoff.day);
                    assert_eq!(days, &truth, "{}: {}", q.id, q.question);
                    *told.entry("out_days").or_default() += 1;
                }
                (
                    Query::WhileOut {
                        person,
                        leave,
                        back,
                        entity,
                        attr,
                    },
                    Answer::Actor { actor, stale },
                ) => {
                    assert_eq!(by_id[leave].actor, *person);
                    // The next arrival of theirs after the departure.
                    let next = events
                        .iter()
                        .find(|e| {
                            e.id > *leave
                                && e.actor == *person
                                && matches!(e.action, Action::Arrive { .. })
                                && e.outcome.is_ok()
                        })
                        .expect("back before the question")
                        .id;
                    assert_eq!(next, *back, "{}", q.id);
                    assert!(*back < q.cutoff.event, "{}", q.id);
                    let back = *back;
                    let changed: Vec<&Event> = events
                        .iter()
                        .filter(|e| *leave < e.id && e.id < back)
                        .filter(|e| {
                            e.changes
                                .iter()
                                .any(|c| c.entity == *entity && c.attr == *attr)
                        })
                        .collect();
                    let robot_saw = |e: &Event| e.observers.iter().any(|o| o.as_str() == "robot");
                    let seen: Vec<&Event> =
                        changed.iter().copied().filter(|e| robot_saw(e)).collect();
                    assert!(!seen.is_empty(), "{}: no change seen", q.id);
                    // What it saw was done by the one it names; said surely,
                    // that is every change there was.
                    for e in if *stale { seen } else { changed } {
                        assert_eq!(e.actor, *actor, "{}: {}", q.id, q.question);
                        assert!(robot_saw(e), "{}: a change missed, said surely", q.id);
                    }
                    let kind = if *stale {
                        "while_out_hedged"
                    } else {
                        "while_out"
                    };
                    *told.entry(kind).or_default() += 1;
                }
                (
                    q @ (Query::WhoHome { .. } | Query::OutDays { .. } | Query::WhileOut { .. }),
                    a,
                ) => {
                    panic!("{q:?} answered {a:?}")
                }
                _ => {}
            }
        }
    }
    // Each kind is asked, and who was home varies (someone out, all in).
    for kind in ["who_home", "out_days", "while_out_hedged"] {
        assert!(
            told.get(kind).copied().unwrap_or(0) >= 2,
            "{kind}: {told:?}"
        );
    }
    assert!(answers.len() >= 3, "sizes of who was home: {answers:?}");
}

#[test]
fn a_robot_that_perceived_nothing_settles_no_presence_question() {
    let (scene, mut events) = generated("family_apartment", 6, 16);
    let full = Index::new(&scene, &events);
    let last = cutoffs(&full).pop().unwrap();
    // Questions the whole trace settles, at its last cutoff.
    let went_out = |e: &Event| matches!(e.action, Action::Leave { .. });
    let leave = events.iter().rev().find(|e| went_out(e)).unwrap().clone();
    let middays: Vec<u64> = events
        .iter()
        .filter(|e| e.id < leave.id && e.t % 86_400 >= 12 * 3600 && e.t % 86_400 < 14 * 3600)
        .map(|e| e.id)
        .collect();
    let queries: Vec<Query> = middays
        .iter()
        .map(|e| Query::WhoHome { event: *e })
        .chain([
            Query::OutDays {
                actor: Id::new("lily"),
                to: Destination::School,
            },
            Query::OutDays {
                actor: Id::new("bob"),
                to: Destination::Work,
            },
        ])
        .collect();
    let settled = |ix: &Index| {
        queries
            .iter()
            .filter(|q| answer(ix, &last, q).is_some())
            .count()
    };
    let with_robot = settled(&full);
    assert!(
        with_robot >= 3,
        "only {with_robot} settled with the robot's senses"
    );
    for e in &mut events {
        e.observers.retain(|o| o.as_str() != "robot");
        e.revealed_to.retain(|o| o.as_str() != "robot");
    }
    let blind = Index::new(&scene, &events);
    // Only a question about a moment before anyone went out could stand
    // (the household starts at home); none of these is.
    let first_out = events.iter().find(|e| went_out(e)).unwrap().id;
    let standing = queries
        .iter()
        .filter(|q| !matches!(q, Query::WhoHome { event } if *event < first_out))
        .filter(|q| answer(&blind, &last, q).is_some())
        .count();
    assert_eq!(
        standing, 0,
        "a blind robot settled {standing} presence questions"
    );
}

#[test]
fn presence_queries_with_bad_arguments_are_unsettled() {
    let (scene, events) = generated("family_apartment", 2, 3);
    let ix = Index::new(&scene, &events);
    let cuts = cutoffs(&ix);
    let mid = &cuts[cuts.len() / 2];
    let leave = events
        .iter()
        .find(|e| e.id < mid.event && matches!(e.action, Action::Leave { .. }))
        .expect("someone went out");
    let someone_else = scene
        .actors
        .iter()
        .find(|a| a.kind == ActorKind::Human && a.id != leave.actor)
        .unwrap();
    let bad = [
        // An event at or after the cutoff.
        Query::WhoHome { event: mid.event },
        Query::WhoHome { event: u64::MAX },
        // A routine from three days.
        Query::OutDays {
            actor: leave.actor.clone(),
            to: Destination::Work,
        },
        // Back before leaving.
        Query::WhileOut {
            person: someone_else.id.clone(),
            leave: leave.id,
            back: leave.id,
            entity: Id::new("tv_1"),
            attr: Id::new("power"),
        },
        // Back after the cutoff.
        Query::WhileOut {
            person: leave.actor.clone(),
            leave: leave.id,
            back: mid.event + 1,
            entity: Id::new("tv_1"),
            attr: Id::new("power"),
        },
        // Someone who is not in the scene.
        Query::OutDays {
            actor: Id::new("nobody"),
            to: Destination::School,
        },
    ];
    for q in bad {
        assert_eq!(answer(&ix, mid, &q), None, "{q:?} was answered");
    }
}
