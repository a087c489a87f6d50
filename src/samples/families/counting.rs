//! Counting: how many times the robot saw something done on a day, by
//! someone or by anyone ("How many times did the robot see Alice open the
//! fridge today?"). Drawn at each cutoff from the acts of today and
//! yesterday.

mod phrasings;

use std::collections::BTreeSet;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::samples::answered::{Answered, answered};
use crate::samples::candidates::{At, Candidate};
use crate::samples::index::Index;
use crate::samples::model::{Answer, Cutoff, Family, Query};
use crate::samples::phrasing::Phrase;
use crate::samples::wording::{Tense, verb_phrase};

use super::family::{QuestionFamily, Track};
use super::reader::{Read, Reading};

pub use phrasings::PHRASINGS;

pub struct Counting;

/// The kinds of query it asks.
pub const QUERIES: &[&str] = &["count"];

pub const READINGS: &[Reading] = &[Reading {
    rank: 50,
    cue: |r| r.has(&["how many", "how often", "number of times"]),
    parse: |r: &Read| {
        let actor = if r.has(&[" anyone "]) {
            None
        } else {
            r.person.clone().or_else(|| r.robot.cloned())
        };
        let (_, act) = r.act_by(actor.as_ref())?;
        let day = r.day()?;
        Some(Query::Count { actor, act, day })
    },
}];

impl QuestionFamily for Counting {
    /// Each act of today and yesterday, counted by its actor or by anyone
    /// (an even draw).
    fn candidates<'c>(&self, at: &At<'c, '_>, rng: &mut ChaCha8Rng) -> Vec<Candidate<'c>> {
        let (ix, n, cutoff) = (at.ix, at.n, at.cutoff);
        let mut out = Vec::new();
        let mut count_keys = BTreeSet::new();
        for (e, act) in at.acts.acts.iter().rev() {
            // Acts are in time order: the rest are older still.
            if e.day + 1 < cutoff.day {
                break;
            }
            if !count_keys.insert(serde_json::to_string(&(e.day, act)).unwrap_or_default()) {
                continue;
            }
            let day = if e.day == cutoff.day {
                "today".to_string()
            } else {
                format!("on day {}", e.day)
            };
            let by_anyone = rng.random_bool(0.5);
            let actor = (!by_anyone).then(|| e.actor.clone());
            let by_robot = actor.as_ref() == Some(&ix.robot);
            let (who_id, verb_act) = (e.actor.clone(), (*act).clone());
            let question = Box::new(move || {
                let verb = verb_phrase(n, &verb_act, Tense::Base);
                // Not "switch the speaker on on day 5".
                let day = match day.strip_prefix("on ") {
                    Some(d) if verb.ends_with(" on") => format!("during {d}"),
                    _ => day.clone(),
                };
                if by_robot {
                    let slots = [("act", verb.as_str()), ("day", &day)];
                    Phrase::new(PHRASINGS, "how_many_robot", &slots)
                } else {
                    let who = if by_anyone {
                        "anyone".to_string()
                    } else {
                        n.name(&who_id)
                    };
                    let slots = [("who", who.as_str()), ("act", &verb), ("day", &day)];
                    Phrase::new(PHRASINGS, "how_many", &slots)
                }
            });
            let template = if by_anyone {
                "how_many_anyone"
            } else {
                "how_many_actor"
            };
            let query = Query::Count {
                actor,
                act: (*act).clone(),
                day: e.day,
            };
            out.push(Candidate::new(Family::Counting, template, query, question));
        }
        out
    }

    fn answer(&self, ix: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answered> {
        let Query::Count { actor, act, day } = q else {
            return None;
        };
        // Latest first, back to the day: not the whole past.
        let events: Vec<u64> = ix
            .doing(actor.as_ref(), act, cutoff.event)
            .rev()
            .take_while(|e| e.day >= *day)
            // "Anyone" is the household: the robot's own acts are not what
            // it is asked to have watched.
            .filter(|e| e.day == *day && (actor.is_some() || e.actor != ix.robot))
            .map(|e| e.id)
            .collect();
        if events.is_empty() {
            return None;
        }
        let count = events.len() as u32;
        answered(Answer::Count { count }, events)
    }

    fn needs<'q>(&self, q: &'q Query) -> Vec<Track<'q>> {
        match q {
            Query::Count { act, .. } => vec![Track::Act(act)],
            _ => vec![],
        }
    }
}
