//! What a question and a household say about difficulty: evidence age,
//! horizon, the robot's presence.

use serde::{Deserialize, Serialize};

use crate::samples::cutoff::evidence_age;
use crate::samples::{Family, Index, QaSample, Sample};

/// Upper ends (seconds, exclusive) of the evidence-age bins; the last bin
/// is open.
pub const AGE_BINS: [(u64, &str); 6] = [
    (3_600, "<1 h"),
    (6 * 3_600, "1-6 h"),
    (24 * 3_600, "6-24 h"),
    (3 * 86_400, "1-3 d"),
    (7 * 86_400, "3-7 d"),
    (u64::MAX, ">7 d"),
];

/// What a question says about its difficulty.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuestionFacts {
    pub id: String,
    pub family: Family,
    /// Seconds from its latest evidence event to its cutoff (none without
    /// evidence).
    pub evidence_age: Option<u64>,
    /// The day of its cutoff: how many days of history precede it.
    pub day: u32,
}

impl QuestionFacts {
    /// The sample's own evidence age; computed from its evidence events
    /// for samples mined before samples carried it.
    pub fn of(ix: &Index, q: &QaSample) -> Self {
        QuestionFacts {
            id: q.id.clone(),
            family: q.family,
            evidence_age: q
                .evidence_age
                .or_else(|| evidence_age(ix, &q.evidence, &q.cutoff)),
            day: q.cutoff.day,
        }
    }

    /// Index into [`AGE_BINS`].
    pub fn age_bin(&self) -> Option<usize> {
        self.evidence_age
            .map(|a| AGE_BINS.iter().position(|(hi, _)| a < *hi).unwrap_or(5))
    }
}

/// The facts of every QA sample of a trace, in sample order.
pub fn question_facts(ix: &Index, samples: &[Sample]) -> Vec<QuestionFacts> {
    samples
        .iter()
        .filter_map(|s| match s {
            Sample::Qa(q) => Some(QuestionFacts::of(ix, q)),
            Sample::Plan(_) => None,
        })
        .collect()
}

/// The robot's presence: of the events other household members caused,
/// the share the robot perceived (its own acts would count as seen always).
pub fn presence(ix: &Index) -> f64 {
    let (seen, all) = ix
        .events
        .iter()
        .filter(|e| e.actor != ix.robot)
        .fold((0u64, 0u64), |(s, a), e| {
            (s + u64::from(ix.robot_saw(e)), a + 1)
        });
    if all == 0 {
        0.0
    } else {
        seen as f64 / all as f64
    }
}

/// The household kind of a scene id: `gen_<kind>_s<seed>` from procgen,
/// else the scene's own id.
pub fn kind_of(scene: &str) -> String {
    scene
        .strip_prefix("gen_")
        .and_then(|r| r.rsplit_once("_s"))
        .map_or(scene, |(k, _)| k)
        .to_string()
}
