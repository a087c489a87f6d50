//! Upkeep: how the house's things hold up ("Since when has the coffee
//! machine been out of order?"). A device's health is a state
//! (`broken`, changed by `find_broken` and `repair`): whether it works
//! now is the current-state family's question ("Is the coffee machine
//! working?"), calibrated like every state; since when it has not is
//! asked here, of a device the robot last knew broken: the breakdown it
//! saw, sure where it watched the device without a break since (no repair
//! and second breakdown escaped it); else, where it did not see it go, the
//! first time it heard someone say it had (hedged: it may have gone
//! before).

mod phrasings;

use std::sync::LazyLock;

use rand_chacha::ChaCha8Rng;

use crate::generation::MemoryTarget;
use crate::ids::Id;
use crate::trace::{BROKEN, ClaimMode, EventKind, Value};

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

/// The health attribute, borrowed by the tracks a question needs.
static HEALTH: LazyLock<Id> = LazyLock::new(|| Id::new(BROKEN));

/// The health key of `device`.
fn health(device: &Id) -> (Id, Id) {
    (device.clone(), HEALTH.clone())
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

    /// The breakdown the robot saw, of a device it saw broken ever since;
    /// or, where it did not see it go, the first time since it last saw it
    /// working that it heard someone say it had.
    fn answer(&self, ix: &Index, cutoff: &Cutoff, q: &Query) -> Option<Answered> {
        let Query::BrokenSince { device } = q else {
            return None;
        };
        let c = cutoff.event;
        let key = health(device);
        let broken = Value::Bool(true);
        let seen = ix.seen_before(&key, c);
        // Its sights since it last saw it working, the first the change.
        let working = seen.iter().rposition(|s| s.value != broken);
        let first = seen.get(working.map_or(0, |k| k + 1))?;
        let e = ix.event(first.event)?;
        let changed = (e.changes.iter()).any(|ch| ch.entity == key.0 && ch.attr == key.1);
        if changed && e.outcome.is_ok() {
            let mut at = time(e.t);
            if let Answer::Time { stale, .. } = &mut at {
                *stale = !ix.watched_over(&key, e.id, c);
            }
            return answered(at, [e.id]);
        }
        // Not seen to go: told, after it was last seen working.
        let since = working.map_or(0, |k| seen[k].event);
        let told = ix
            .claims(ClaimMode::Fact, &key.0, &key.1, c)
            .find(|h| h.event > since && h.claim.value == broken)?;
        let mut at = time(ix.event(told.event)?.t);
        if let Answer::Time { stale, .. } = &mut at {
            *stale = true;
        }
        answered(at, [told.event])
    }

    /// Broken since the breakdown the robot saw, or since it was told of
    /// it (the answer's evidence is what was said), as far as it knows.
    fn hedge(&self, ix: &Index, n: &Namer, q: &Query, a: &Answered) -> Option<String> {
        let (Query::BrokenSince { device }, Answer::Time { stale: true, .. }) = (q, &a.answer)
        else {
            return crate::samples::wording::hedge(n, &a.answer);
        };
        let device = n.name(device);
        let told = (a.evidence.first().and_then(|e| ix.event(*e)))
            .is_some_and(|e| e.kind == EventKind::Utterance);
        Some(if told {
            format!(
                "When the robot was told; {device} may have stopped working before that, or been repaired and broken again since, out of its sight."
            )
        } else {
            format!(
                "The breakdown the robot saw; {device} may have been repaired and broken again since, out of its sight."
            )
        })
    }

    /// The device's health over time, what was said of it, and where the
    /// robot was.
    fn needs<'q>(&self, q: &'q Query) -> Vec<Track<'q>> {
        match q {
            Query::BrokenSince { device } => vec![
                Track::States,
                Track::Claims(device, &HEALTH),
                Track::Whereabouts,
            ],
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
