//! Temporal: when someone last did something, which of two things
//! happened first, what someone did next ("When did Bob last open the
//! fridge?"). Drawn at each cutoff from the latest acts; a choice between
//! two is drawn from what the robot perceived, never asked of what it
//! missed (it would invite a guess).

mod phrasings;

use std::collections::BTreeSet;

use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use crate::ids::Id;
use crate::trace::Event;
use crate::trace::request::Action;

use crate::samples::act::{act_of, main_target};
use crate::samples::answered::{Answered, answered, time};
use crate::samples::candidates::{At, Candidate};
use crate::samples::index::Index;
use crate::samples::model::{Act, Answer, Cutoff, Family, QaSample, Query};
use crate::samples::phrasing::Phrase;
use crate::samples::text::Namer;
use crate::samples::wording::{Tense, act_phrase, verb_phrase};

use super::family::{CheckAt, QuestionFamily, Track, sure_is_true};
use super::reader::{Read, Reading};

pub use phrasings::PHRASINGS;

pub struct Temporal;

/// The kinds of query it asks.
pub const QUERIES: &[&str] = &["last_time", "first", "next"];

/// "When did Alice last open the fridge?"
pub fn when_last(n: &Namer, actor: &Id, act: &Act) -> Phrase {
    Phrase::new(
        PHRASINGS,
        "when_last",
        &[
            ("who", &n.name(actor)),
            ("act", &verb_phrase(n, act, Tense::Base)),
            ("acted", &verb_phrase(n, act, Tense::Past)),
        ],
    )
}

pub const READINGS: &[Reading] = &[
    Reading {
        rank: 10,
        // A choice: each option is the event that best matches it.
        cue: |r| r.options.len() == 2,
        parse: |r: &Read| {
            let first = |o: &str| {
                let e = (r.best)(o)?;
                Some((e.actor.clone(), act_of(&e.action)?))
            };
            let ((a_actor, a), (b_actor, b)) = (first(&r.options[0])?, first(&r.options[1])?);
            Some(Query::First {
                a_actor,
                a,
                b_actor,
                b,
            })
        },
    },
    Reading {
        rank: 110,
        cue: |r| r.has(&[" after ", " next "]),
        parse: |r: &Read| {
            let (e, _) = r.act_by(r.person.as_ref())?;
            Some(Query::Next { event: e.id })
        },
    },
    Reading {
        rank: 120,
        cue: |r| {
            r.has(&[
                " when ",
                "what time",
                "last time",
                "latest time",
                "most recent",
            ])
        },
        parse: |r: &Read| {
            let actor = r.person.clone().or_else(|| r.robot.cloned())?;
            let (_, act) = r.act_by(Some(&actor))?;
            Some(Query::LastTime { actor, act })
        },
    },
];

impl QuestionFamily for Temporal {
    fn candidates<'c>(&self, at: &At<'c, '_>, rng: &mut ChaCha8Rng) -> Vec<Candidate<'c>> {
        let (n, acts) = (at.n, at.acts);
        let mut out = Vec::new();
        let mut seen_keys = BTreeSet::new();
        for ((e, act), key) in acts.acts.iter().zip(acts.keys).rev().take(60) {
            if seen_keys.insert(key) {
                let (actor, act) = (e.actor.clone(), (*act).clone());
                let query = Query::LastTime {
                    actor: actor.clone(),
                    act: act.clone(),
                };
                let phrase = Box::new(move || when_last(n, &actor, &act));
                out.push(Candidate::new(Family::Temporal, "when_last", query, phrase));
            }
        }
        // Which came first is never asked of what the robot missed (a
        // choice invites a guess), so the pair is drawn from what it
        // perceived (all of the acts unless asked of the household).
        let unique: Vec<&(&Event, &Act)> = acts
            .tally
            .unique
            .iter()
            .filter(|&&i| acts.saw[i])
            .map(|&i| &acts.acts[i])
            .collect();
        for _ in 0..4 {
            let (Some(a), Some(b)) = (unique.choose(rng), unique.choose(rng)) else {
                break;
            };
            if a.0.session == b.0.session {
                continue;
            }
            let options = vec![
                act_phrase(n, &a.0.actor, a.1),
                act_phrase(n, &b.0.actor, b.1),
            ];
            let (oa, ob) = (options[0].clone(), options[1].clone());
            let query = Query::First {
                a_actor: a.0.actor.clone(),
                a: a.1.clone(),
                b_actor: b.0.actor.clone(),
                b: b.1.clone(),
            };
            let phrase =
                Box::new(move || Phrase::new(PHRASINGS, "which_first", &[("a", &oa), ("b", &ob)]));
            out.push(
                Candidate::new(Family::Temporal, "which_first", query, phrase)
                    .with_options(options),
            );
        }
        for ((e, act), key) in acts.acts.iter().zip(acts.keys).rev().take(40) {
            if at.humans.contains(&e.actor) && acts.tally.once(key) {
                let (actor, act) = (e.actor.clone(), (*act).clone());
                let phrase = Box::new(move || {
                    // The name once: "after Emma picked up the mug, what
                    // did she do", never "what did Emma do after Emma".
                    let acted = verb_phrase(n, &act, Tense::Past);
                    let slots = [("acted", acted.as_str()), ("who", &n.name(&actor))];
                    Phrase::new(PHRASINGS, "what_next", &slots)
                });
                let query = Query::Next { event: e.id };
                out.push(Candidate::new(Family::Temporal, "what_next", query, phrase));
            }
        }
        out
    }

    /// Nobody saw `actor` do it before the cutoff.
    fn unsupported(&self, ix: &Index, cutoff: u64, q: &Query) -> bool {
        match q {
            Query::LastTime { actor, act } => !ix.did(actor, act, cutoff),
            _ => false,
        }
    }

    fn answer(&self, ix: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answered> {
        let c = cutoff.event;
        match q {
            Query::LastTime { actor, act } => {
                let e = ix.doing(Some(actor), act, c).next_back()?;
                let mut at = time(e.t);
                if let Answer::Time { stale, .. } = &mut at {
                    // The robot misses none of its own acts.
                    *stale = *actor != ix.robot && !ix.watched_since(act, e.id, c);
                }
                answered(at, [e.id])
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
                let option = if ea < eb { "A" } else { "B" };
                let option = option.to_string();
                answered(Answer::Choice { option }, [ea, eb])
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
                let skill = next.action.skill_name().into();
                let target = main_target(&next.action);
                let setting = match &next.action {
                    Action::SetDeviceState { field, value, .. } => {
                        Some(Box::new((Id::new(field), value.clone())))
                    }
                    _ => None,
                };
                let a = Answer::Action {
                    skill,
                    target,
                    setting,
                };
                answered(a, [e.id, next.id])
            }
            _ => None,
        }
    }

    /// A last time the robot could have missed a later one of.
    fn hedge(&self, _ix: &Index, n: &Namer, q: &Query, a: &Answered) -> Option<String> {
        let a = &a.answer;
        match (q, a) {
            (Query::LastTime { actor, .. }, Answer::Time { stale: true, .. }) => Some(format!(
                "The latest the robot saw; {} may have done it again since, out of its sight.",
                n.name(actor)
            )),
            _ => None,
        }
    }

    /// A last time said surely is the last there was.
    fn check(&self, q: &QaSample, _at: &CheckAt, fail: &mut dyn FnMut(String)) -> bool {
        if matches!(q.query, Query::LastTime { .. }) {
            sure_is_true(q, fail);
        }
        false
    }

    fn needs<'q>(&self, q: &'q Query) -> Vec<Track<'q>> {
        match q {
            Query::LastTime { act, .. } => {
                // What tells whether a later one could have been missed.
                let thing = act.object.as_ref().or(act.target.as_ref());
                let place = thing.map(Track::Place);
                [Track::Act(act), Track::Whereabouts]
                    .into_iter()
                    .chain(place)
                    .collect()
            }
            Query::First { a, b, .. } => vec![Track::Act(a), Track::Act(b)],
            Query::Next { event } => vec![Track::ActorFrom(*event)],
            _ => vec![],
        }
    }
}
