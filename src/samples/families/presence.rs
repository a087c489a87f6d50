//! Presence: who was home when something happened, and who changed
//! something while someone was out ("Who moved the keys while Bob was at
//! work today?"). Drawn at each cutoff from today's and yesterday's acts in
//! the working day (at breakfast and in the evening it is nearly always
//! everyone) and from the outings of the household.

mod phrasings;

use std::collections::BTreeSet;

use rand_chacha::ChaCha8Rng;

use crate::catalogue::schedules::VisitorKind;
use crate::ids::Id;
use crate::scene::{ActorDef, ActorKind};
use crate::trace::request::Action;
use crate::trace::{Event, LEVEL, TEXT};

use crate::samples::answered::{Answered, answered};
use crate::samples::candidates::{At, Candidate};
use crate::samples::index::Index;
use crate::samples::model::{Answer, Cutoff, Family, QaSample, Query};
use crate::samples::phrasing::Phrase;
use crate::samples::text::Namer;
use crate::samples::text::field_words;
use crate::samples::wording::act_phrase;

use super::family::{CheckAt, QuestionFamily, Track, sure_is_true};
use super::reader::{Read, Reading};

pub use phrasings::PHRASINGS;

pub struct Presence;

/// The kinds of query it asks.
pub const QUERIES: &[&str] = &["who_home", "while_out"];

/// How a question says that `attr` changed: "moved", "opened or shut".
fn changed_verb(attr: &Id) -> String {
    match attr.as_str() {
        "location" => "moved".into(),
        "open" => "opened or shut".into(),
        "power" => "switched on or off".into(),
        LEVEL => "had some of".into(),
        TEXT => "wrote on".into(),
        "playing" => "changed what was playing on".into(),
        field => format!("changed the {} of", field_words(field)),
    }
}

/// Whether `a` calls only for work (the courier, the repair technician).
fn calls_for_work(a: &ActorDef) -> bool {
    crate::catalogue::schedules()
        .visitor_of(a)
        .is_some_and(|v| matches!(v.kind, VisitorKind::Courier | VisitorKind::Technician))
}

pub const READINGS: &[Reading] = &[
    Reading {
        rank: 30,
        cue: |r| r.going().is_some() && r.has(&[" while ", "meantime", " then "]),
        parse: |r: &Read| {
            let to = r.going()?;
            let who = r.person.clone()?;
            let day = r.day()?;
            // The asker names the outing: the reader finds it in memory.
            let before = r.cutoff.t;
            let leave = r.events.iter().rev().find(|e| {
                e.actor == who
                    && e.day == day
                    && e.t < before
                    && matches!(&e.action, Action::Leave { to: d, .. } if *d == to)
            })?;
            let back = r.events.iter().find(|e| {
                e.id > leave.id && e.actor == who && matches!(e.action, Action::Arrive { .. })
            })?;
            let attr = if r.has(&[" moved "]) {
                Id::new("location")
            } else {
                r.attr()
            };
            Some(Query::WhileOut {
                person: who,
                leave: leave.id,
                back: back.id,
                entity: r.thing.clone()?,
                attr,
            })
        },
    },
    Reading {
        rank: 40,
        cue: |r| {
            r.has(&[" home ", " in the house ", " at home ", " who was in "])
                && r.has(&[" who ", "which of"])
        },
        // The moment is the act the question describes, at the time it
        // gives ("day 3 at 13:30").
        parse: |r: &Read| {
            Some(Query::WhoHome {
                event: r.at_moment()?.id,
            })
        },
    },
];

impl QuestionFamily for Presence {
    fn candidates<'c>(&self, at: &At<'c, '_>, _rng: &mut ChaCha8Rng) -> Vec<Candidate<'c>> {
        let (ix, n, cutoff) = (at.ix, at.n, at.cutoff);
        let c = cutoff.event;
        let mut out = Vec::new();
        for (e, act) in at.acts.acts.iter().rev().take(60) {
            if e.day + 1 < cutoff.day {
                break;
            }
            let hour = e.t % crate::trace::DAY / 3600;
            if matches!(act.skill.as_ref(), "leave" | "arrive") || !(9..18).contains(&hour) {
                continue;
            }
            let (actor, act, t) = (e.actor.clone(), (*act).clone(), e.t);
            let phrase = Box::new(move || {
                let done = act_phrase(n, &actor, &act);
                Phrase::new(
                    PHRASINGS,
                    "who_home",
                    &[("done", &done), ("when", &n.when(t))],
                )
            });
            let query = Query::WhoHome { event: e.id };
            out.push(Candidate::new(Family::Presence, "who_home", query, phrase));
        }
        // Who changed what while someone was out, today or yesterday.
        for person in at.humans {
            let leaves = ix.leaves(person, c);
            for l in leaves.iter().rev().take_while(|l| l.day + 1 >= cutoff.day) {
                let Some(&(back, _)) = ix
                    .comings_and_goings(person)
                    .iter()
                    .find(|(e, home)| *e > l.event && *home)
                else {
                    continue;
                };
                if back >= c {
                    continue;
                }
                let mut keys = BTreeSet::new();
                for e in ix.after(l.event).iter().take_while(|e| e.id < back) {
                    for ch in &e.changes {
                        if ch.attr.as_str() != "position"
                            && !ix.scene.actors.iter().any(|a| a.id == ch.entity)
                        {
                            keys.insert((ch.entity.clone(), ch.attr.clone()));
                        }
                    }
                }
                let day = match l.day {
                    d if d == cutoff.day => "today".to_string(),
                    d if d + 1 == cutoff.day => "yesterday".to_string(),
                    d => format!("on day {d}"),
                };
                for (entity, attr) in keys.into_iter().take(8) {
                    let (who, to, day) = ((*person).clone(), l.to, day.clone());
                    let (thing, changed) = (entity.clone(), changed_verb(&attr));
                    let query = Query::WhileOut {
                        person: who.clone(),
                        leave: l.event,
                        back,
                        entity,
                        attr,
                    };
                    let phrase = Box::new(move || {
                        Phrase::new(
                            PHRASINGS,
                            "while_out",
                            &[
                                ("who", &n.name(&who)),
                                ("away", to.away()),
                                ("day", &day),
                                ("changed", &changed),
                                ("thing", &n.name(&thing)),
                            ],
                        )
                    });
                    out.push(Candidate::new(Family::Presence, "while_out", query, phrase));
                }
            }
        }
        out
    }

    fn answer(&self, ix: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answered> {
        let c = cutoff.event;
        match q {
            Query::WhoHome { event } => {
                let x = ix.event(*event)?;
                if x.id >= c || !ix.robot_saw(x) {
                    return None;
                }
                let mut people = Vec::new();
                let mut evidence = vec![x.id];
                // The household and its guests: the courier at the door
                // for a minute, or the technician at work, is not "home".
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
                let key = (entity.clone(), attr.clone());
                let changes = ix.changes_of(&key);
                let during: Vec<&Event> = changes[changes.partition_point(|(e, _)| e <= leave)
                    ..changes.partition_point(|(e, _)| e < back)]
                    .iter()
                    .filter_map(|(e, _)| ix.event(*e))
                    .filter(|e| ix.saw_moves(e))
                    .collect();
                // The changes the robot saw in the meantime, by one person.
                let by: BTreeSet<&Id> = during.iter().map(|e| &e.actor).collect();
                (by.len() == 1).then_some(())?;
                let actor = (*by.first()?).clone();
                // Sure only where the robot heard them go and come back,
                // and watched the thing the whole time: no change of it
                // escaped it. Else the one it saw may not be the only one.
                let heard = |e: &u64| ix.event(*e).is_some_and(|e| ix.robot_saw(e));
                let stale = !(heard(leave) && heard(back) && ix.watched_over(&key, *leave, *back));
                answered(Answer::Actor { actor, stale }, during.iter().map(|e| e.id))
            }
            _ => None,
        }
    }

    /// Someone seen changing a thing while a person was out, where the
    /// robot could have missed others.
    fn hedge(&self, _ix: &Index, _n: &Namer, q: &Query, a: &Answered) -> Option<String> {
        let a = &a.answer;
        match (q, a) {
            (Query::WhileOut { .. }, Answer::Actor { stale: true, .. }) => Some(
                "The only one the robot saw change it; someone else may have too, out of its sight."
                    .into(),
            ),
            _ => None,
        }
    }

    /// A person said surely is the only one who changed it.
    fn check(&self, q: &QaSample, _at: &CheckAt, fail: &mut dyn FnMut(String)) -> bool {
        if matches!(q.query, Query::WhileOut { .. }) {
            sure_is_true(q, fail);
        }
        false
    }

    fn needs<'q>(&self, q: &'q Query) -> Vec<Track<'q>> {
        match q {
            // The last sign of each person up to the moment (one is
            // enough: going out or coming in is itself one).
            Query::WhoHome { event } => vec![Track::Event(*event), Track::PresenceAt(*event)],
            // What changed in the window the question gives, and whether the
            // robot watched it throughout; the departure and the return
            // are moves, in the whereabouts (whole tracks: kept and
            // extended, not gathered again for every question); a thing's
            // other attribute is as current as its place.
            Query::WhileOut { entity, attr, .. } => {
                vec![
                    Track::State(entity, attr),
                    Track::Place(entity),
                    Track::Whereabouts,
                ]
            }
            _ => vec![],
        }
    }
}
