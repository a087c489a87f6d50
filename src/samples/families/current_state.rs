//! Current state: where a thing is, whether it is open or on, what a
//! device is set to, as far as the robot knows ("Where is the mug?").
//! The one question of every attribute the robot saw, kept standing; its
//! answer is current, or the last value seen and possibly changed since,
//! which files it under hidden state ([`super::hidden_state`]). Asked of
//! the household, an attribute the robot never saw has the question too,
//! whose answer is not known; a thing the house lacks or a state never
//! seen is the unanswerable family's false premise of it.

mod phrasings;

use crate::generation::MemoryTarget;
use crate::ids::Id;
use crate::trace::{ClaimMode, Key, LEVEL, Location, TEXT, Value};

use crate::samples::answered::{Answered, answered};
use crate::samples::candidates::Candidate;
use crate::samples::index::{Index, Seen};
use crate::samples::model::{Answer, Cutoff, Family, QaSample, Query};
use crate::samples::phrasing::Phrase;
use crate::samples::text::Namer;
use crate::samples::text::field_words;

use super::family::{CheckAt, QuestionFamily, Track, Unseen};
use super::reader::{Read, Reading};

pub use phrasings::PHRASINGS;

pub struct CurrentState;

/// The kinds of query it asks.
pub const QUERIES: &[&str] = &["state"];

/// "What is `entity.attr`?"
pub fn state(entity: &Id, attr: &str) -> Query {
    Query::State {
        entity: entity.clone(),
        attr: Id::new(attr),
    }
}

/// The attribute a state question asks about.
pub fn key(q: &Query) -> Option<Key> {
    match q {
        Query::State { entity, attr } => Some((entity.clone(), attr.clone())),
        _ => None,
    }
}

/// The template of a state question about `attr`.
pub fn template(attr: &str) -> &'static str {
    match attr {
        "location" => "where_is",
        "open" => "is_open",
        "power" => "is_on",
        "broken" => "is_working",
        LEVEL => "how_much_left",
        TEXT => "whats_written",
        "playing" => "is_playing",
        _ => "device_field",
    }
}

/// The state question about `attr` of what is called `thing`.
pub fn question(thing: &str, attr: &str) -> Phrase {
    Phrase::new(
        PHRASINGS,
        template(attr),
        &[("thing", thing), ("field", &field_words(attr))],
    )
}

/// "Where is the mug?": the state of `entity.attr`, a current or hidden
/// state question by its answer (`samples::standing` asks it once the
/// robot has seen the attribute, and not in its own hand).
pub fn candidate<'c>(n: &'c Namer, entity: &'c Id, attr: &'c Id) -> Candidate<'c> {
    Candidate::new(
        Family::CurrentState,
        template(attr),
        state(entity, attr),
        Box::new(move || question(&n.name(entity), attr)),
    )
}

pub const READINGS: &[Reading] = &[Reading {
    rank: 250,
    // What is left: a state.
    cue: |_| true,
    parse: |r: &Read| {
        Some(Query::State {
            attr: r.attr(),
            entity: r.thing.clone()?,
        })
    },
}];

impl QuestionFamily for CurrentState {
    fn settle(&self, ix: &Index, at: &Cutoff, q: &Query, unseen: Unseen) -> Option<Answered> {
        let k = key(q)?;
        // The robot's own hand is no answer to where a thing is.
        let last = ix.seen_before(&k, at.event).last();
        if last.is_some_and(
            |s| matches!(&s.value, Value::Location(Location::HeldBy(h)) if *h == ix.robot),
        ) {
            return None;
        }
        // A thing the robot last saw finished stays so, and goes in the
        // bin: "none left" days after is no one's question.
        if k.1.as_str() == LEVEL && last.is_some_and(|s| s.value == Value::Int(0)) {
            return None;
        }
        // Seen, it is supported: the answer from the sight in hand, not
        // looked up twice again (a settle at every cutoff of every thing
        // in view).
        let a = match last {
            Some(last) => last_seen(ix, &k, last, at.event)?,
            None => self.reference(ix, at, q)?,
        };
        // Asked of the household: where it is, though nothing the robot
        // perceived bears on it, not even its first view of the house.
        (a.answer != Answer::Unknown || unseen(&k) && ix.truth(&k, at.event).is_some()).then_some(a)
    }

    /// A state possibly changed since, or not known: hidden state.
    fn filed(&self, a: &Answer) -> Option<Family> {
        (!matches!(a, Answer::Value { .. })).then_some(Family::HiddenState)
    }

    fn unsupported(&self, ix: &Index, cutoff: u64, q: &Query) -> bool {
        let Some(k) = key(q) else { return false };
        ix.seen_before(&k, cutoff).is_empty()
            && [ClaimMode::Fact, ClaimMode::Preference, ClaimMode::Request]
                .into_iter()
                .all(|m| ix.claims(m, &k.0, &k.1, cutoff).next().is_none())
    }

    fn answer(&self, ix: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answered> {
        let c = cutoff.event;
        let k = key(q)?;
        last_seen(ix, &k, ix.seen_before(&k, c).last()?, c)
    }

    /// A state's true value at the cutoff.
    fn world(&self, all: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answer> {
        all.truth(&key(q)?, cutoff.event)
            .map(|v| Answer::Value { value: v.clone() })
    }

    /// One index for every state question: the state track and the
    /// whereabouts its freshness reads, shared (a copy per attribute would
    /// hold the whereabouts hundreds of times).
    fn needs<'q>(&self, _q: &'q Query) -> Vec<Track<'q>> {
        vec![Track::States, Track::Whereabouts]
    }

    /// Where a thing is, or how a device is.
    fn memory_target(&self, q: &Query) -> Option<MemoryTarget> {
        Some(match q {
            Query::State { attr, .. } if attr.as_str() == "location" => {
                MemoryTarget::ObjectLocation
            }
            _ => MemoryTarget::DeviceState,
        })
    }

    /// A state's answer agrees with the simulator's record of the robot's
    /// belief, a current one with the state itself (the freshness rule is
    /// sound), and its world answer is the state exactly where the robot's
    /// view is not; a state not known has no belief at all, not even from
    /// the robot's first view of the house.
    fn check(&self, q: &QaSample, at: &CheckAt, fail: &mut dyn FnMut(String)) -> bool {
        let Some(k) = key(&q.query) else {
            return false;
        };
        let belief = at.sim.beliefs(at.ix.robot.as_str()).and_then(|b| b.get(&k));
        let truth = at.sim.value(&k);
        let now = || truth.as_ref();
        let world = q.world.as_ref().map(|w| match w {
            Answer::Value { value } => Some(value),
            _ => None,
        });
        let (value, hidden) = match &q.answer {
            Answer::Unknown => {
                if let Some(b) = belief {
                    fail(format!(
                        "unanswerable, yet the robot believes {} from event {}",
                        b.value, b.event
                    ));
                }
                // Asked of the household about what the robot missed.
                if !q.is_unanswerable() && world.flatten() != now() {
                    fail(format!("world answer {:?} is not the truth", q.world));
                }
                return true;
            }
            Answer::Value { value } => (value, false),
            Answer::LastSeen { value, .. } => (value, true),
            other => {
                fail(format!("a state question answered with {other:?}"));
                return true;
            }
        };
        match belief {
            Some(b) if &b.value == value && q.evidence.contains(&b.event) => {}
            Some(b) => fail(format!(
                "the robot's belief is {} from event {}",
                b.value, b.event
            )),
            None => fail("the robot holds no belief about it".into()),
        }
        let (entity, attr) = &k;
        if !hidden && now() != Some(value) {
            fail(format!(
                "{entity}.{attr} answered current ({value}, seen in event {:?}), but it is {:?}",
                q.evidence,
                now()
            ));
        }
        if hidden != (q.family == Family::HiddenState) {
            fail("a possibly changed state asked as current".into());
        }
        // What was true is the simulator's state, and is recorded exactly
        // when it is not the robot's view.
        let truth = (now() != Some(value)).then_some(now());
        if world != truth {
            fail(format!("world answer {:?} is not the truth", q.world));
        }
        true
    }
}

/// The answer to where or how `k` is just before event `c`, from `last`,
/// the robot's last sight of it: the value, current or stale.
fn last_seen(ix: &Index, k: &Key, last: &Seen, c: u64) -> Option<Answered> {
    let answer = if ix.current(k, last, c) {
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
