//! The per-agent summary across households, with scene-bootstrap
//! intervals and paired differences.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::bootstrap::{self, Resamples, Stat};
use crate::samples::Family;

use super::facts::*;
use super::household::*;

/// How the summary was computed, in words and numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Method {
    pub statistic: String,
    pub interval: String,
    pub resamples: usize,
    pub seed: u64,
    pub evidence_age: String,
    pub horizon: String,
    pub presence: String,
}

/// An accuracy in one bin (evidence age or cutoff day).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Binned {
    pub label: String,
    #[serde(flatten)]
    pub stat: Stat,
}

/// One agent's accuracy across the households.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentSummary {
    pub agent: String,
    pub all: Stat,
    pub by_family: BTreeMap<Family, Stat>,
    pub by_evidence_age: Vec<Binned>,
    pub by_horizon: Vec<Binned>,
    /// Each household's own accuracy, in household order.
    pub by_household: Vec<f64>,
    /// World accuracy (answers as things were; see
    /// [`crate::samples::world`]), pooled, and per household.
    pub world: Stat,
    pub world_by_household: Vec<f64>,
    /// Hallucination rate: confident answers where the calibrated answer
    /// is "not known" or "possibly changed", pooled (lower is better).
    #[serde(default = "empty")]
    pub hallucination: Stat,
}

/// The paired difference `a - b` of two agents over the same questions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    pub a: String,
    pub b: String,
    pub all: Stat,
    pub world: Stat,
}

/// `hearth eval --batch`'s `summary.json`: deterministic for the same
/// traces, samples, agents and seed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub schema: String,
    pub method: Method,
    pub households: Vec<Household>,
    pub agents: Vec<AgentSummary>,
    /// Every pair of agents, in agent order.
    #[serde(default)]
    pub differences: Vec<Difference>,
    /// What the reader must know before trusting the intervals.
    #[serde(default)]
    pub warnings: Vec<String>,
}

pub const SUMMARY_SCHEMA: &str = "hearth.study";

/// The summary of `runs` for `agents`, with `resamples` scene resamples
/// (the seeds of a scene together) drawn from `seed`.
pub fn summarize(agents: &[String], runs: &[Run], resamples: usize, seed: u64) -> Summary {
    let scenes: Vec<&str> = runs.iter().map(|r| r.household.scene.as_str()).collect();
    let boot = Resamples::clustered(&scenes, resamples, seed);
    let calibrated_counts = |a: usize| -> Vec<(u64, u64)> {
        runs.iter()
            .map(|r| {
                let marks = &r.calibrated[a];
                (
                    marks.iter().filter(|x| **x).count() as u64,
                    marks.len() as u64,
                )
            })
            .collect()
    };
    let world_of =
        |a: usize| -> Vec<(u64, u64)> { runs.iter().map(|r| world_counts(&r.world[a])).collect() };
    // Per household, (correct, asked) of agent `a` in the cell of each key.
    let cells = |a: usize, key: &dyn Fn(&QuestionFacts) -> Option<u32>| {
        let mut out: BTreeMap<u32, Vec<(u64, u64)>> = BTreeMap::new();
        for (h, run) in runs.iter().enumerate() {
            for (q, ok) in run.questions.iter().zip(&run.calibrated[a]) {
                if let Some(k) = key(q) {
                    let c = &mut out.entry(k).or_insert_with(|| vec![(0, 0); runs.len()])[h];
                    *c = (c.0 + u64::from(*ok), c.1 + 1);
                }
            }
        }
        out.into_iter()
            .filter_map(|(k, counts)| boot.stat(&counts).map(|s| (k, s)))
            .collect::<Vec<(u32, Stat)>>()
    };
    let agents = agents
        .iter()
        .enumerate()
        .map(|(a, name)| {
            let fam = |f: Family| Family::ALL.iter().position(|x| *x == f).unwrap_or(0) as u32;
            AgentSummary {
                agent: name.clone(),
                all: cells(a, &|_| Some(0)).pop().map_or_else(empty, |c| c.1),
                by_family: cells(a, &|q| Some(fam(q.family)))
                    .into_iter()
                    .map(|(k, s)| (Family::ALL[k as usize], s))
                    .collect(),
                by_evidence_age: cells(a, &|q| q.age_bin().map(|b| b as u32))
                    .into_iter()
                    .map(|(k, stat)| Binned {
                        label: AGE_BINS[k as usize].1.into(),
                        stat,
                    })
                    .collect(),
                by_horizon: cells(a, &|q| Some(q.day))
                    .into_iter()
                    .map(|(k, stat)| Binned {
                        label: format!("day {k}"),
                        stat,
                    })
                    .collect(),
                by_household: runs
                    .iter()
                    .map(|r| {
                        let marks = &r.calibrated[a];
                        marks.iter().filter(|x| **x).count() as f64 / marks.len().max(1) as f64
                    })
                    .collect(),
                world: boot.stat(&world_of(a)).unwrap_or_else(empty),
                hallucination: boot
                    .stat(
                        &runs
                            .iter()
                            .map(|r| world_counts(&r.hallucinated[a]))
                            .collect::<Vec<_>>(),
                    )
                    .unwrap_or_else(empty),
                world_by_household: runs
                    .iter()
                    .map(|r| {
                        let (ok, n) = world_counts(&r.world[a]);
                        ok as f64 / n.max(1) as f64
                    })
                    .collect(),
            }
        })
        .collect::<Vec<AgentSummary>>();
    let mut differences = Vec::new();
    for a in 0..agents.len() {
        for b in a + 1..agents.len() {
            // World marks are paired only where both agents have one.
            let (wa, wb): (Vec<_>, Vec<_>) = runs
                .iter()
                .map(|r| {
                    let both: Vec<(bool, bool)> = r.world[a]
                        .iter()
                        .zip(&r.world[b])
                        .filter_map(|(x, y)| Some(((*x)?, (*y)?)))
                        .collect();
                    let n = both.len() as u64;
                    let ok =
                        |f: fn(&(bool, bool)) -> bool| both.iter().filter(|p| f(p)).count() as u64;
                    ((ok(|p| p.0), n), (ok(|p| p.1), n))
                })
                .unzip();
            differences.push(Difference {
                a: agents[a].agent.clone(),
                b: agents[b].agent.clone(),
                all: boot
                    .difference(&calibrated_counts(a), &calibrated_counts(b))
                    .unwrap_or_else(empty),
                world: boot.difference(&wa, &wb).unwrap_or_else(empty),
            });
        }
    }
    let clusters = agents.first().map_or(0, |a| a.all.clusters);
    let warnings = if !runs.is_empty() && clusters < bootstrap::MIN_CLUSTERS {
        vec![format!(
            "{clusters} scene(s) answered: intervals over fewer than {} scenes are too narrow to trust (the seeds of one scene are resampled together); add households of other scenes, e.g. generated ones (gen:0..20)",
            bootstrap::MIN_CLUSTERS
        )]
    } else {
        vec![]
    };
    Summary {
        schema: SUMMARY_SCHEMA.into(),
        method: Method {
            statistic: "share of QA samples answered as calibrated (the value, and whether it is current, possibly changed or not known), pooled over households".into(),
            interval: "95% percentile interval of the pooled share over scene resamples (scenes drawn with replacement, each with all its households, ChaCha8 from the seed); a difference between two agents is paired: the same resamples, the same questions".into(),
            resamples,
            seed,
            evidence_age: "seconds from the latest evidence event of a sample to its cutoff".into(),
            horizon: "the day of the sample's cutoff (days of history before the question)".into(),
            presence: "share of the events caused by others that the robot perceived".into(),
        },
        households: runs.iter().map(|r| r.household.clone()).collect(),
        agents,
        differences,
        warnings,
    }
}

/// (right, asked) of one household's world marks.
fn world_counts(marks: &[Option<bool>]) -> (u64, u64) {
    marks
        .iter()
        .flatten()
        .fold((0, 0), |(ok, n), w| (ok + u64::from(*w), n + 1))
}

fn empty() -> Stat {
    Stat {
        n: 0,
        households: 0,
        clusters: 0,
        mean: 0.0,
        lo: 0.0,
        hi: 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(id: &str, family: Family, age: Option<u64>, day: u32) -> QuestionFacts {
        QuestionFacts {
            id: id.into(),
            family,
            evidence_age: age,
            day,
        }
    }

    fn household(name: &str) -> Household {
        Household {
            trace: name.into(),
            scene: "gen_studio_s0".into(),
            kind: "studio".into(),
            size: None,
            days: 2,
            events: 10,
            origin: None,
            presence: 0.5,
            questions: 2,
            tasks: None,
        }
    }

    #[test]
    fn kinds_and_age_bins() {
        assert_eq!(kind_of("gen_studio_s3"), "studio");
        assert_eq!(kind_of("gen_big_house_s12"), "big_house");
        assert_eq!(kind_of("family_apartment"), "family_apartment");
        let bin = |a| q("x", Family::Temporal, a, 1).age_bin();
        assert_eq!(bin(Some(0)), Some(0));
        assert_eq!(bin(Some(3_600)), Some(1));
        assert_eq!(bin(Some(30 * 86_400)), Some(5));
        assert_eq!(bin(None), None);
    }

    #[test]
    fn summary_by_family_age_and_horizon() {
        let qs = vec![
            q("a", Family::CurrentState, Some(60), 1),
            q("b", Family::Temporal, Some(2 * 86_400), 2),
            q("c", Family::Temporal, None, 2),
        ];
        let runs = vec![
            Run {
                household: household("h0"),
                questions: qs.clone(),
                calibrated: vec![vec![true, false, true], vec![false; 3]],
                world: vec![vec![Some(true), Some(false), None], vec![Some(false); 3]],
                hallucinated: vec![vec![Some(false), None, None], vec![Some(true), None, None]],
            },
            Run {
                household: household("h1"),
                questions: qs,
                calibrated: vec![vec![true, true, false], vec![false; 3]],
                world: vec![vec![Some(false), Some(false), Some(false)], vec![None; 3]],
                hallucinated: vec![vec![Some(false), None, None], vec![Some(true), None, None]],
            },
        ];
        let agents = ["good".to_string(), "bad".to_string()];
        let s = summarize(&agents, &runs, 200, 1);
        let good = &s.agents[0];
        assert_eq!(good.all.n, 6);
        assert!((good.all.mean - 4.0 / 6.0).abs() < 1e-12);
        assert_eq!(good.by_family[&Family::CurrentState].mean, 1.0);
        assert_eq!(good.by_family[&Family::Temporal].n, 4);
        // Questions without evidence have no age; ages fall in their bins.
        let ages: Vec<(&str, u64)> = good
            .by_evidence_age
            .iter()
            .map(|b| (b.label.as_str(), b.stat.n))
            .collect();
        assert_eq!(ages, [("<1 h", 2), ("1-3 d", 2)]);
        assert_eq!(good.by_horizon[1].label, "day 2");
        assert_eq!(good.by_household, [2.0 / 3.0, 2.0 / 3.0]);
        // World marks pool only the questions that have one.
        assert_eq!(good.world.n, 5);
        assert!((good.world.mean - 0.2).abs() < 1e-12);
        assert_eq!(good.world_by_household, [0.5, 0.0]);
        assert_eq!((s.agents[1].world.n, s.agents[1].world.households), (3, 1));
        assert_eq!(s.agents[1].all.mean, 0.0);
        // Hallucination pools the questions that can be hallucinated on.
        assert_eq!((good.hallucination.n, good.hallucination.mean), (2, 0.0));
        assert_eq!(s.agents[1].hallucination.mean, 1.0);
        assert_eq!(summarize(&agents, &runs, 200, 1), s, "deterministic");
        // Two seeds of one scene are one cluster: too few, and said so.
        assert_eq!((good.all.households, good.all.clusters), (2, 1));
        assert_eq!(s.warnings.len(), 1, "{:?}", s.warnings);
        assert!(s.warnings[0].contains("1 scene(s)"));
        // The pair, on the same questions: good is 4/6 ahead of bad.
        assert_eq!(s.differences.len(), 1);
        let d = &s.differences[0];
        assert_eq!((d.a.as_str(), d.b.as_str()), ("good", "bad"));
        assert!((d.all.mean - 4.0 / 6.0).abs() < 1e-12);
        // World marks pair where both have one: h0's first two questions.
        assert_eq!(d.world.n, 2);
        assert!((d.world.mean - 0.5).abs() < 1e-12);
        // Nothing evaluated: zero questions, no cells.
        let none = summarize(&agents, &[], 200, 1);
        assert!(none.warnings.is_empty());
        assert_eq!(none.agents[0].all.n, 0);
        assert!(none.agents[0].by_family.is_empty());
    }
}
