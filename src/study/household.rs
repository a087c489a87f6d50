//! A household's run: the trace, its size and origin, and each agent's
//! results on it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::eval::QaResult;
use crate::samples::{Index, world};
use crate::scene::{ActorKind, Scene};
use crate::trace::Manifest;

use super::facts::*;

/// One household's trace: a row of the batch summary and, with its size
/// and origin, of the dataset card (the card's parts are flattened in
/// place and left out of the summary, so both keep their column order).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Household {
    /// The trace directory's name.
    pub trace: String,
    pub scene: String,
    pub kind: String,
    #[serde(flatten)]
    pub size: Option<Size>,
    pub days: u32,
    pub events: u64,
    #[serde(flatten)]
    pub origin: Option<Origin>,
    pub presence: f64,
    pub questions: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks: Option<usize>,
}

/// How big a household is: the dataset card's columns.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Size {
    pub rooms: usize,
    pub people: usize,
    pub objects: usize,
}

/// How a household's trace was made: the dataset card's columns.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Origin {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    pub backend: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    pub hearth_version: String,
}

impl Household {
    /// The summary's row of the trace named `trace`, with `questions` asked.
    pub fn new(trace: String, ix: &Index, manifest: &Manifest, questions: usize) -> Self {
        Household {
            trace,
            scene: ix.scene.id.to_string(),
            kind: kind_of(ix.scene.id.as_str()),
            size: None,
            days: manifest.days,
            events: manifest.counts.events,
            origin: None,
            presence: presence(ix),
            questions,
            tasks: None,
        }
    }

    /// The card's row: the summary's with its size, origin and `tasks`.
    pub fn described(self, scene: &Scene, manifest: &Manifest, tasks: usize) -> Self {
        Household {
            size: Some(Size {
                rooms: scene.rooms.len(),
                people: scene
                    .actors
                    .iter()
                    .filter(|a| a.kind == ActorKind::Human)
                    .count(),
                objects: scene.objects.len(),
            }),
            origin: Some(Origin {
                seed: manifest.seed,
                backend: manifest.backend.clone(),
                model: manifest.model.clone(),
                hearth_version: manifest.hearth_version.clone(),
            }),
            tasks: Some(tasks),
            ..self
        }
    }
}

/// A household with its questions and each agent's exact marks (in the
/// order of the summary's agents; a question the agent failed on counts as
/// wrong).
#[derive(Debug, Clone)]
pub struct Run {
    pub household: Household,
    pub questions: Vec<QuestionFacts>,
    pub calibrated: Vec<Vec<bool>>,
    /// Each agent's world marks (see [`crate::samples::world`]): none for
    /// questions about the robot's own knowledge.
    pub world: Vec<Vec<Option<bool>>>,
    /// Each agent's hallucination marks: for the questions whose
    /// calibrated answer is "not known" or "possibly changed", whether it
    /// answered as if it knew ([`crate::eval::QaResult::hallucinated`]).
    pub hallucinated: Vec<Vec<Option<bool>>>,
}

impl Run {
    /// `results` per agent, matched to `questions` by id.
    pub fn new(
        household: Household,
        questions: Vec<QuestionFacts>,
        results: &[&[QaResult]],
    ) -> Self {
        let (mut calibrated, mut world, mut hallucinated) = (Vec::new(), Vec::new(), Vec::new());
        for rs in results {
            let by_id: BTreeMap<&str, &QaResult> = rs.iter().map(|r| (r.id.as_str(), r)).collect();
            let found = || questions.iter().map(|q| (q, by_id.get(q.id.as_str())));
            calibrated.push(
                found()
                    .map(|(_, r)| r.is_some_and(|r| r.calibrated))
                    .collect(),
            );
            // A question about the household with no result counts as wrong.
            world.push(
                found()
                    .map(|(q, r)| match r {
                        Some(r) => r.world,
                        None => world::asks_the_world(q.family).then_some(false),
                    })
                    .collect(),
            );
            hallucinated.push(
                found()
                    .map(|(_, r)| r.and_then(|r| r.hallucinated))
                    .collect(),
            );
        }
        Run {
            household,
            questions,
            calibrated,
            hallucinated,
            world,
        }
    }
}
