//! Upkeep: how the house's things hold up ("Since when has the coffee
//! machine been out of order?"). A device's health is a state
//! (`broken`, changed by `find_broken` and `repair`): whether it works
//! now is the current-state family's question ("Is the coffee machine
//! working?"), calibrated like every state; since when it has not is
//! asked here, of a device the robot last knew broken and saw break. The
//! time is sure where the robot watched the device without a break since
//! (no repair and second breakdown escaped it), else the latest it saw.

mod phrasings;

use rand_chacha::ChaCha8Rng;

use crate::generation::MemoryTarget;
use crate::ids::Id;
use crate::trace::{BROKEN, Value};

use crate::samples::answered::{Answered, answered, time};
use crate::samples::candidates::{At, Candidate};
use crate::samples::index::Index;
use crate::samples::model::{Answer, Cutoff, Family, QaSample, Query};
use crate::samples::phrasing::Phrase;
use crate::samples::text::Namer;

use super::family::{CheckAt, QuestionFamily, Track, sure_is_true};
use super::reader::{Read, Reading};

pub use phrasings::PHRASINGS;

pub struct Upkeep;

/// The kinds of query it asks.
pub const QUERIES: &[&str] = &["broken_since"];

pub const READINGS: &[Reading] = &[Reading {
    rank: 6,
    // Since when, not whether: "is the tv working, or is it out of
    // order?" is a state.
    cue: |r| {
        r.has(&["since when", "when did", "since what time", "how long"])
            && r.has(&[
                "out of order",
                "break down",
                "stop working",
                "broken",
                "not been working",
            ])
    },
    parse: |r: &Read| {
        Some(Query::BrokenSince {
            device: r.thing.clone()?,
        })
    },
}];

/// The health key of `device`.
fn health(device: &Id) -> (Id, Id) {
    (device.clone(), Id::new(BROKEN))
}

impl QuestionFamily for Upkeep {
    /// Each device the robot last saw broken.
    fn candidates<'c>(&self, at: &At<'c, '_>, _rng: &mut ChaCha8Rng) -> Vec<Candidate<'c>> {
        let (ix, n) = (at.ix, at.n);
        ix.scene
            .devices
            .iter()
            .filter(|d| {
                (ix.seen_before(&health(&d.id), at.cutoff.event).last())
                    .is_some_and(|s| s.value == Value::Bool(true))
            })
            .map(|d| {
                let device = &d.id;
                let phrase = Box::new(move || {
                    Phrase::new(PHRASINGS, "broken_since", &[("thing", &n.name(device))])
                });
                let query = Query::BrokenSince {
                    device: device.clone(),
                };
                Candidate::new(Family::Upkeep, "broken_since", query, phrase)
            })
            .collect()
    }

    /// The breakdown the robot saw, of a device it saw broken ever since.
    fn answer(&self, ix: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answered> {
        let Query::BrokenSince { device } = q else {
            return None;
        };
        let c = cutoff.event;
        let key = health(device);
        let broken = Value::Bool(true);
        let seen = ix.seen_before(&key, c);
        // Its sights since it last saw it working, the first the change.
        let from = seen
            .iter()
            .rposition(|s| s.value != broken)
            .map_or(0, |k| k + 1);
        let first = seen.get(from)?;
        let e = ix.event(first.event)?;
        let changed = (e.changes.iter()).any(|ch| ch.entity == key.0 && ch.attr == key.1);
        if !changed || !e.outcome.is_ok() {
            return None;
        }
        let mut at = time(e.t);
        if let Answer::Time { stale, .. } = &mut at {
            *stale = !ix.watched_over(&key, e.id, c);
        }
        answered(at, [e.id])
    }

    /// Broken since the breakdown the robot saw, as far as it knows.
    fn hedge(&self, n: &Namer, q: &Query, a: &Answer) -> Option<String> {
        match (q, a) {
            (Query::BrokenSince { device }, Answer::Time { stale: true, .. }) => Some(format!(
                "The breakdown the robot saw; {} may have been repaired and broken again since, out of its sight.",
                n.name(device)
            )),
            _ => crate::samples::wording::hedge(n, a),
        }
    }

    /// The device's health over time and where the robot was.
    fn needs<'q>(&self, q: &'q Query) -> Vec<Track<'q>> {
        match q {
            Query::BrokenSince { .. } => vec![Track::States, Track::Whereabouts],
            _ => vec![],
        }
    }

    fn memory_target(&self, _q: &Query) -> Option<MemoryTarget> {
        Some(MemoryTarget::DeviceState)
    }

    /// A sure time is the breakdown that holds at the cutoff.
    fn check(&self, q: &QaSample, _at: &CheckAt, fail: &mut dyn FnMut(String)) -> bool {
        if !matches!(q.query, Query::BrokenSince { .. }) {
            return false;
        }
        sure_is_true(q, fail);
        true
    }
}
