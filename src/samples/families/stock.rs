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

mod phrasings;

use rand_chacha::ChaCha8Rng;

use crate::ids::Id;
use crate::trace::Event;

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
pub const QUERIES: &[&str] = &["last_bought", "last_thrown_out"];

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

pub const READINGS: &[Reading] = &[Reading {
    rank: 8,
    cue: |r| r.has(BOUGHT) || r.has(THROWN),
    parse: |r: &Read| {
        // The longest kind the question names ("coffee beans", not "beans").
        let room = Stockroom::of(r.scene?);
        let kind = (room.kinds.keys())
            .filter(|k| r.text.contains(&format!(" {k} ")))
            .max_by_key(|k| k.len())?;
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
    let places = watched_places(ix, went);
    let things = ix
        .stockroom()
        .kinds
        .get(kind)
        .map_or(&[][..], Vec::as_slice);
    // Each thing's from the index's tables: a lookup, not a walk through
    // its sightings (which grew with the days, at every cutoff).
    (things.iter())
        .filter_map(|o| match went {
            Went::In => ix.came_in(o, c),
            Went::Binned => ix.last_placed_on(o, places, c).map(|e| (e, true)),
        })
        .max_by_key(|(e, _)| e.id)
}

impl QuestionFamily for Stock {
    /// Each kind used up that the robot saw come in, and that it saw
    /// thrown out.
    fn candidates<'c>(&self, at: &At<'c, '_>, _rng: &mut ChaCha8Rng) -> Vec<Candidate<'c>> {
        let (ix, c) = (at.ix, at.cutoff.event);
        let mut out = Vec::new();
        for went in [Went::In, Went::Binned] {
            for kind in ix.stockroom().kinds.keys() {
                if latest(ix, kind, went, c).is_none() {
                    continue;
                }
                let k = kind.to_string();
                let was = if plural(&k) { "were" } else { "was" };
                let phrase = Box::new(move || {
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
        out
    }

    /// The robot saw nothing of the kind come in (or go in the bin).
    fn unsupported(&self, ix: &Index, cutoff: u64, q: &Query) -> bool {
        Went::of(q).is_some_and(|(kind, went)| latest(ix, kind, went, cutoff).is_none())
    }

    /// The latest the robot saw; sure where it watched every door (or
    /// bin) from then to the cutoff.
    fn answer(&self, ix: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answered> {
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

    /// The latest the robot saw, where a later one could have escaped it.
    fn hedge(&self, n: &Namer, q: &Query, a: &Answer) -> Option<String> {
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

    /// Where things were seen to go, and where the robot was.
    fn needs<'q>(&self, q: &'q Query) -> Vec<Track<'q>> {
        match Went::of(q) {
            Some(_) => vec![Track::States, Track::Whereabouts],
            None => vec![],
        }
    }

    /// A sure time is the last there was.
    fn check(&self, q: &QaSample, _at: &CheckAt, fail: &mut dyn FnMut(String)) -> bool {
        if Went::of(&q.query).is_none() {
            return false;
        }
        sure_is_true(q, fail);
        false
    }
}
