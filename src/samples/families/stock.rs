//! Stock: what the house runs through ("When did we last buy milk?",
//! "When was bread last thrown out?"), asked of a kind of thing the
//! catalogue says is used up (`servings`). A kind is bought when a thing
//! of it comes into the house from outside for the first time, and
//! thrown out when one is put in a bin (a `waste` fixture). The robot
//! must have seen it happen (an arrival only heard through the front door
//! says who came in, not what they carried), or, for a thing bought, have
//! first seen it at all in the bag of whoever brought it (the shopping
//! carried into the kitchen: then the time is that sight, said as such).
//! The time is sure where the robot saw the thing come in and stayed
//! where every such act is perceived since (by every outside door for
//! things coming in, by every bin for things thrown out): no later one
//! escaped it; else it is the latest it saw.
//!
//! And how much of a kind the house has left ("Do we still have milk?
//! How much?"): the servings of each thing of it the robot last saw in
//! the house, out of a bin, summed (the `level` it last saw, else a full
//! one, the catalogue's `servings`). Always said as last seen: a thing
//! used, thrown out or bought out of its sight changes it, and no place
//! the robot can stay sees every cupboard and every door.

mod phrasings;

use rand_chacha::ChaCha8Rng;

use crate::generation::MemoryTarget;
use crate::ids::Id;
use crate::trace::{Event, LEVEL, Value};

use crate::samples::answered::{Answered, answered, time};
use crate::samples::candidates::{At, Candidate};
use crate::samples::index::Index;
use crate::samples::model::{Answer, Cutoff, Family, QaSample, Query};
use crate::samples::phrasing::Phrase;
use crate::samples::stockroom::Stockroom;
use crate::samples::text::{Namer, plural};

use super::family::{CheckAt, QuestionFamily, Track, sure_is_true};
use super::reader::{Read, Reading};

pub use phrasings::PHRASINGS;

pub struct Stock;

/// The kinds of query it asks.
pub const QUERIES: &[&str] = &["last_bought", "last_thrown_out", "still_have"];

/// What is asked of a kind: when one last came in, or went in a bin.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Went {
    In,
    Binned,
}

impl Went {
    fn of(q: &Query) -> Option<(&str, Went)> {
        match q {
            Query::LastBought { kind } => Some((kind, Went::In)),
            Query::LastThrownOut { kind } => Some((kind, Went::Binned)),
            _ => None,
        }
    }

    fn query(self, kind: &str) -> Query {
        let kind = kind.to_string();
        match self {
            Went::In => Query::LastBought { kind },
            Went::Binned => Query::LastThrownOut { kind },
        }
    }

    fn template(self) -> &'static str {
        match self {
            Went::In => "last_bought",
            Went::Binned => "last_thrown_out",
        }
    }
}

/// The words of its questions (no other family's say them: a place
/// action is "put the carton in the bin", never "put in the bin").
const BOUGHT: &[&str] = &[" buy ", " bought ", "from the shops", "come into the house"];
const THROWN: &[&str] = &[" throw ", " thrown ", "go in the bin", "was put in the bin"];
const LEFT: &[&str] = &[
    " still have ",
    " there any ",
    " got any ",
    " if any ",
    " are we out of ",
];

pub const READINGS: &[Reading] = &[Reading {
    rank: 8,
    cue: |r| r.has(BOUGHT) || r.has(THROWN) || r.has(LEFT),
    parse: |r: &Read| {
        // The longest kind the question names ("coffee beans", not "beans").
        let room = Stockroom::of(r.scene?);
        let kind = (room.kinds.keys())
            .filter(|k| r.text.contains(&format!(" {k} ")))
            .max_by_key(|k| k.len())?;
        if r.has(LEFT) {
            return Some(Query::StillHave { kind: kind.clone() });
        }
        let went = if r.has(THROWN) {
            Went::Binned
        } else {
            Went::In
        };
        Some(went.query(kind))
    },
}];

/// Where a thing of a kind is seen to come in (every door to outside), or
/// to go in the bin (every bin): what the robot watches to miss none.
fn watched_places<'i>(ix: &'i Index, went: Went) -> &'i [Id] {
    let room = ix.stockroom();
    match went {
        Went::In => &room.doors,
        Went::Binned => &room.bins,
    }
}

/// The latest event before `c` in which the robot saw a thing of `kind`
/// come into the house, or put in a bin. A thing
/// came in where the robot saw it carried in from outside, or where it
/// first saw it at all in the bag of someone coming or back in (the
/// shopping brought into the kitchen): with whether it saw the arrival.
fn latest<'a>(ix: &Index<'a>, kind: &str, went: Went, c: u64) -> Option<(&'a Event, bool)> {
    match went {
        Went::In => ix.stock_came_in(kind, c),
        Went::Binned => ix.stock_binned(kind, c).map(|e| (e, true)),
    }
}

/// What the robot last saw of how much of `kind` the house has, before
/// `c`: the servings left, the events since which it has seen each so
/// (in the house or gone, and how much is left), and the latest of them.
/// `None` where it has seen no thing of the kind.
struct Left {
    servings: u32,
    evidence: Vec<u64>,
    latest: u64,
}

impl Left {
    /// Whether [`Left::of`] is `Some`: the robot saw where one thing of
    /// the kind was (in the house or gone), the first found.
    fn any(ix: &Index, kind: &str, c: u64) -> bool {
        ix.stock_seen(kind, c).any(|t| t.since(c).is_some())
    }

    /// Whether the robot saw one of the kind gone, or one in the house
    /// used (the first found): what makes how much is left a question (a
    /// full carton untouched since the first morning is not).
    fn used(ix: &Index, kind: &str, c: u64) -> bool {
        let level = Id::new(LEVEL);
        ix.stock_seen(kind, c).any(|t| match t.since(c) {
            None => false,
            Some((_, gone)) => {
                gone || !(ix.places_before(&(t.id.clone(), level.clone()), c)).is_empty()
            }
        })
    }

    fn of(ix: &Index, kind: &str, c: u64) -> Option<Left> {
        let full = full(kind);
        let level = Id::new(LEVEL);
        let (mut servings, mut evidence, mut went) = (0, vec![], None);
        for thing in ix.stock_seen(kind, c) {
            // Since when it has been seen in the house (or gone): the same
            // answer keeps the same evidence however often it is seen
            // again, so it is not asked twice.
            let Some((at, gone)) = thing.since(c) else {
                continue;
            };
            if gone {
                // What says so, if nothing in the house is left.
                went = went.max(Some(at));
                continue;
            }
            evidence.push(at);
            // Since when it has been seen this full: its last change.
            match ix
                .places_before(&(thing.id.clone(), level.clone()), c)
                .last()
            {
                Some(l) => {
                    evidence.push(l.event);
                    if let Value::Int(n) = l.value {
                        servings += u32::try_from(n).unwrap_or(0);
                    }
                }
                None => servings += full,
            }
        }
        if servings == 0 {
            evidence.extend(went);
        }
        evidence.sort_unstable();
        evidence.dedup();
        let latest = *evidence.last()?;
        Some(Left {
            servings,
            evidence,
            latest,
        })
    }

    /// The true servings left at `c`: every thing of the kind in the house
    /// and out of a bin, as it is.
    fn truly(all: &Index, kind: &str, c: u64) -> u32 {
        let room = all.stockroom();
        let full = full(kind);
        let (location, level) = (Id::new("location"), Id::new(LEVEL));
        (room.kinds.get(kind).map_or(&[][..], Vec::as_slice).iter())
            .filter(|o| {
                all.truth(&((*o).clone(), location.clone()), c)
                    .is_some_and(|v| !room.gone(v))
            })
            .map(|o| match all.truth(&(o.clone(), level.clone()), c) {
                Some(Value::Int(n)) => u32::try_from(*n).unwrap_or(0),
                _ => full,
            })
            .sum()
    }
}

/// The servings of a full one of `kind` (one for a kind not used up).
fn full(kind: &str) -> u32 {
    crate::catalogue::builtin()
        .category(kind)
        .and_then(|k| k.servings)
        .unwrap_or(1)
}

/// The still-have question of `kind`.
fn still_have(kind: &str) -> Query {
    Query::StillHave {
        kind: kind.to_string(),
    }
}

impl QuestionFamily for Stock {
    /// Each kind used up that the robot saw come in, and that it saw
    /// thrown out; and how much is left of each it saw used or gone.
    fn candidates<'c>(&self, at: &At<'c, '_>, _rng: &mut ChaCha8Rng) -> Vec<Candidate<'c>> {
        let (ix, c) = (at.ix, at.cutoff.event);
        let mut out = Vec::new();
        for went in [Went::In, Went::Binned] {
            for kind in ix.stockroom().kinds.keys() {
                if latest(ix, kind, went, c).is_none() {
                    continue;
                }
                // Worded only if chosen: the months bring more kinds.
                let k = kind.to_string();
                let phrase = Box::new(move || {
                    let was = if plural(&k) { "were" } else { "was" };
                    Phrase::new(PHRASINGS, went.template(), &[("kind", &k), ("was", was)])
                });
                let query = went.query(kind);
                out.push(Candidate::new(
                    Family::Stock,
                    went.template(),
                    query,
                    phrase,
                ));
            }
        }
        for kind in ix.stockroom().kinds.keys() {
            if !Left::used(ix, kind, c) {
                continue;
            }
            let k = kind.to_string();
            let phrase = Box::new(move || {
                let (is, much) = if plural(&k) {
                    ("Are", "many")
                } else {
                    ("Is", "much")
                };
                Phrase::new(
                    PHRASINGS,
                    "still_have",
                    &[("kind", &k), ("is", is), ("much", much)],
                )
            });
            out.push(Candidate::new(
                Family::Stock,
                "still_have",
                still_have(kind),
                phrase,
            ));
        }
        out
    }

    /// The robot saw nothing of the kind come in (or go in the bin), or
    /// (how much is left) nothing of the kind at all.
    fn unsupported(&self, ix: &Index, cutoff: u64, q: &Query) -> bool {
        match q {
            Query::StillHave { kind } => !Left::any(ix, kind, cutoff),
            _ => Went::of(q).is_some_and(|(kind, went)| latest(ix, kind, went, cutoff).is_none()),
        }
    }

    /// The latest the robot saw; sure where it watched every door (or
    /// bin) from then to the cutoff.
    fn answer(&self, ix: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answered> {
        if let Query::StillHave { kind } = q {
            let left = Left::of(ix, kind, cutoff.event)?;
            let answer = Answer::LastSeen {
                value: Value::Int(i64::from(left.servings)),
                seen_at: ix.event(left.latest)?.t,
                stale: true,
            };
            return answered(answer, left.evidence);
        }
        let (kind, went) = Went::of(q)?;
        let c = cutoff.event;
        let (e, saw) = latest(ix, kind, went, c)?;
        let mut at = time(e.t);
        if let Answer::Time { stale, .. } = &mut at {
            let open = Id::new("open");
            let watched = |p: &Id| ix.watched_over(&(p.clone(), open.clone()), e.id, c);
            *stale = !saw || !watched_places(ix, went).iter().all(watched);
        }
        answered(at, [e.id])
    }

    /// The truth: every thing of the kind in the house, as it is.
    fn world(&self, all: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answer> {
        match q {
            Query::StillHave { kind } => Some(Answer::Value {
                value: Value::Int(i64::from(Left::truly(all, kind, cutoff.event))),
            }),
            _ => self.reference(all, cutoff, q).map(|a| a.answer.surely()),
        }
    }

    /// How many servings (none: "None left.").
    fn answer_text(&self, n: &Namer, q: &Query, a: &Answer, options: &[String]) -> String {
        let servings = match a {
            Answer::Value {
                value: Value::Int(k),
            }
            | Answer::LastSeen {
                value: Value::Int(k),
                ..
            } if matches!(q, Query::StillHave { .. }) => *k,
            _ => return crate::samples::wording::answer_words(n, "location", a, options),
        };
        match servings {
            0 => "None left.".to_string(),
            1 => "One serving left.".to_string(),
            k => format!("{k} servings left."),
        }
    }

    /// The latest the robot saw, where a later one could have escaped it.
    fn hedge(&self, _ix: &Index, n: &Namer, q: &Query, a: &Answered) -> Option<String> {
        let a = &a.answer;
        if let (Query::StillHave { .. }, Answer::LastSeen { seen_at, .. }) = (q, a) {
            return Some(format!(
                "As the robot has seen it since {}; some may have been used, thrown out or bought since, out of its sight.",
                n.when(*seen_at)
            ));
        }
        match (Went::of(q), a) {
            (Some((kind, went)), Answer::Time { stale: true, .. }) => Some(match went {
                Went::In => format!(
                    "The latest the robot saw come in, or first saw in the bag of whoever brought it; more {kind} may have come in since, out of its sight."
                ),
                Went::Binned => {
                    format!(
                        "The latest the robot saw; more {kind} may have been thrown out since, out of its sight."
                    )
                }
            }),
            _ => crate::samples::wording::hedge(n, a),
        }
    }

    /// Where things were seen to go (and how much was left), and where
    /// the robot was.
    fn needs<'q>(&self, q: &'q Query) -> Vec<Track<'q>> {
        match (Went::of(q), q) {
            (Some(_), _) | (None, Query::StillHave { .. }) => {
                vec![Track::States, Track::Whereabouts]
            }
            _ => vec![],
        }
    }

    /// How much is left: a state possibly changed since it was seen.
    fn memory_target(&self, q: &Query) -> Option<MemoryTarget> {
        matches!(q, Query::StillHave { .. }).then_some(MemoryTarget::HiddenState)
    }

    /// How much is left: a state that changes.
    fn lme_type(&self, q: &Query) -> Option<&'static str> {
        matches!(q, Query::StillHave { .. }).then_some("knowledge-update")
    }

    /// A sure time is the last there was; how much is left is never said
    /// surely, and its world answer is what the simulation holds.
    fn check(&self, q: &QaSample, at: &CheckAt, fail: &mut dyn FnMut(String)) -> bool {
        if let Query::StillHave { kind } = &q.query {
            if !matches!(q.answer, Answer::LastSeen { .. } | Answer::Unknown) {
                fail(format!("how much {kind} is left, said surely"));
            }
            let room = at.ix.stockroom();
            let full = full(kind);
            let truly: u32 = (room.kinds.get(kind).map_or(&[][..], Vec::as_slice).iter())
                .filter(|o| {
                    (at.sim.location(o.as_str())).is_some_and(|l| !room.gone(&Value::Location(l)))
                })
                .map(|o| at.sim.level(o.as_str()).unwrap_or(full))
                .sum();
            let world = match (&q.world, &q.answer) {
                (Some(Answer::Value { value }), _) | (None, Answer::LastSeen { value, .. }) => {
                    Some(value)
                }
                _ => None,
            };
            if world.is_some_and(|w| *w != Value::Int(i64::from(truly))) {
                fail(format!(
                    "{truly} servings of {kind} in the house, but its world answer is {world:?}"
                ));
            }
            return true;
        }
        if Went::of(&q.query).is_none() {
            return false;
        }
        sure_is_true(q, fail);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The short answers the candidates and false premises take are the
    /// long ones' at every cutoff, for every kind, for the robot and for
    /// an observer of every event.
    #[test]
    fn the_first_found_says_what_the_whole_walk_says() {
        let src = crate::scene::BUILTIN[0].1;
        let base = crate::scene::parse("family_apartment", src).expect("it parses");
        let scene = crate::generation::scripted::provision(&base, 10, crate::catalogue::builtin());
        let events = crate::samples::sweep::lived(&scene, 10, 5);
        let robot = Index::new(&scene, &events);
        let everything = Index::all_seeing(&scene, &events, robot.tables.initial.clone());
        let (mut yes, mut no) = (0, 0);
        for ix in [&robot, &everything] {
            for c in (1..=events.len() as u64 + 1).step_by(37) {
                for kind in ix.stockroom().kinds.keys() {
                    let any = Left::of(ix, kind, c).is_some();
                    assert_eq!(Left::any(ix, kind, c), any, "{kind} at {c}");
                    // Used is seen of one of them: none seen, none used.
                    let used = Left::used(ix, kind, c);
                    assert!(any || !used, "{kind} at {c}");
                    if used {
                        yes += 1;
                    } else {
                        no += 1;
                    }
                }
            }
        }
        assert!(yes > 0 && no > 0, "{yes} used, {no} not");
    }
}
