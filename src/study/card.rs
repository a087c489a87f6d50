//! The dataset card of a batch (`DATASET.md` and `dataset.json`), in the
//! manner of "Datasheets for Datasets" (Gebru et al.): motivation,
//! composition, collection, preprocessing, uses, distribution and
//! maintenance, with the figures a reader checks first (households and
//! kinds, days, events, questions per family, evidence-age and horizon
//! distributions), the generator and its settings, and how to score.
//! Built from data in memory; `workflow::study` reads a batch and writes it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::facts::{AGE_BINS, QuestionFacts};
use super::household::Household;
use crate::samples::{Asking, Family, Sample};

/// The batch's own record (`batch.json`), read loosely: the fields the
/// card shows, whatever else it holds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BatchSettings {
    #[serde(default)]
    pub scenes: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub seeds: String,
    #[serde(default)]
    pub days: u32,
    #[serde(default)]
    pub backend: String,
    #[serde(default)]
    pub units: Vec<String>,
    /// The difficulty axes of every trace (absent: the defaults).
    #[serde(default, skip_serializing_if = "crate::trace::Difficulty::is_default")]
    pub difficulty: crate::trace::Difficulty,
}

/// What the card needs of one trace: its row, and its questions' facts.
#[derive(Debug, Clone)]
pub struct TraceInput {
    pub household: Household,
    pub questions: Vec<QuestionFacts>,
    pub samples_per_family: BTreeMap<Family, usize>,
}

impl TraceInput {
    pub fn new(
        mut household: Household,
        questions: Vec<QuestionFacts>,
        samples: &[Sample],
    ) -> Self {
        let mut per_family = BTreeMap::new();
        for q in &questions {
            *per_family.entry(q.family).or_insert(0) += 1;
        }
        household.questions = questions.len();
        household.tasks = Some(
            samples
                .iter()
                .filter(|s| matches!(s, Sample::Plan(_)))
                .count(),
        );
        TraceInput {
            household,
            questions,
            samples_per_family: per_family,
        }
    }
}

/// A count in a bin.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bin {
    pub label: String,
    pub count: usize,
}

/// `dataset.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DatasetCard {
    pub schema: String,
    pub name: String,
    pub settings: Option<BatchSettings>,
    pub hearth_versions: BTreeSet<String>,
    pub backends: BTreeSet<String>,
    pub models: BTreeSet<String>,
    pub households: Vec<Household>,
    pub kinds: BTreeMap<String, usize>,
    pub days: u64,
    pub events: u64,
    pub questions: usize,
    pub tasks: usize,
    pub questions_per_family: BTreeMap<Family, usize>,
    pub evidence_age: Vec<Bin>,
    /// Questions per cutoff day.
    pub horizon: Vec<Bin>,
    pub scoring: Vec<String>,
    pub licence: String,
    /// What the questions were drawn from (cards that do not say were
    /// drawn from what the robot perceived).
    #[serde(default = "Asking::unsaid")]
    pub ask: Asking,
}

pub const CARD_SCHEMA: &str = "hearth.dataset";

/// The licence of generated data: hearth's own.
pub const LICENCE: &str = "MIT OR Apache-2.0 (the licence of hearth, which generated every file)";

/// The card of a batch named `name` from its traces (in batch order).
pub fn card(name: &str, settings: Option<BatchSettings>, traces: &[TraceInput]) -> DatasetCard {
    let hs: Vec<Household> = traces.iter().map(|t| t.household.clone()).collect();
    let mut per_family = BTreeMap::new();
    let mut kinds = BTreeMap::new();
    let mut ages = vec![0usize; AGE_BINS.len() + 1];
    let mut horizon: BTreeMap<u32, usize> = BTreeMap::new();
    for t in traces {
        *kinds.entry(t.household.kind.clone()).or_insert(0) += 1;
        for (f, n) in &t.samples_per_family {
            *per_family.entry(*f).or_insert(0) += n;
        }
        for q in &t.questions {
            ages[q.age_bin().unwrap_or(AGE_BINS.len())] += 1;
            *horizon.entry(q.day).or_insert(0) += 1;
        }
    }
    let mut evidence_age: Vec<Bin> = AGE_BINS
        .iter()
        .zip(&ages)
        .map(|((_, l), c)| Bin {
            label: l.to_string(),
            count: *c,
        })
        .collect();
    if ages[AGE_BINS.len()] > 0 {
        evidence_age.push(Bin {
            label: "no evidence".into(),
            count: ages[AGE_BINS.len()],
        });
    }
    let first = hs.first().map_or("TRACE", |h| h.trace.as_str());
    let origins = || hs.iter().filter_map(|h| h.origin.as_ref());
    DatasetCard {
        schema: CARD_SCHEMA.into(),
        name: name.into(),
        settings,
        hearth_versions: origins().map(|o| o.hearth_version.clone()).collect(),
        backends: origins().map(|o| o.backend.clone()).collect(),
        models: origins().filter_map(|o| o.model.clone()).collect(),
        kinds,
        days: hs.iter().map(|h| u64::from(h.days)).sum(),
        events: hs.iter().map(|h| h.events).sum(),
        questions: hs.iter().map(|h| h.questions).sum(),
        tasks: hs.iter().filter_map(|h| h.tasks).sum(),
        questions_per_family: per_family,
        evidence_age,
        horizon: horizon
            .into_iter()
            .map(|(d, count)| Bin {
                label: format!("day {d}"),
                count,
            })
            .collect(),
        scoring: scoring_commands(first, "samples.jsonl", Asking::default()),
        licence: LICENCE.into(),
        households: hs,
        ask: Asking::default(),
    }
}

/// How to score an agent on trace `t` of the batch, by hearth and by the
/// two projects' own scorers, from each trace's samples file `samples`
/// (asked as `ask`).
pub fn scoring_commands(t: &str, samples: &str, ask: Asking) -> Vec<String> {
    let (batch, trace, export) = if ask == Asking::default() && samples == "samples.jsonl" {
        Default::default()
    } else {
        (
            format!(" --ask {} --samples {samples}", ask.name()),
            format!(" --samples {samples}"),
            format!(" --samples {t}/{samples}"),
        )
    };
    vec![
        format!(
            "hearth eval --batch .{batch} --agent oracle,none,recent,bm25,obsmem,kg,oracle-words,obsmem-words,kg-words,recent-words,bm25-words"
        ),
        format!(
            "hearth export --trace {t}{export} --format longmemeval --out {t}/export-longmemeval.json"
        ),
        format!("hearth eval --trace {t}{trace} --agent obsmem --predictions longmemeval"),
        format!(
            "python3 src/evaluation/evaluate_qa.py gpt-4o {t}/predictions-obsmem-longmemeval.jsonl {t}/export-longmemeval.json   # in LongMemEval's repository"
        ),
        format!("hearth eval --trace {t}{trace} --agent obsmem --predictions locomo"),
        format!(
            "python3 -c \"import json; from task_eval.evaluation import eval_question_answering as ev; d = json.load(open('{t}/predictions-locomo.json')); s = [x for r in d for x in ev(r['qa'], 'obsmem_prediction')[0]]; print(sum(s) / len(s))\"   # in LoCoMo's repository"
        ),
    ]
}

impl DatasetCard {
    /// `DATASET.md`.
    pub fn markdown(&self) -> String {
        let mut m = String::new();
        let w = &mut m;
        let _ = writeln!(w, "# Dataset card: {}\n", self.name);
        let _ = writeln!(
            w,
            "Household traces generated by hearth, with evidence-linked questions and planning tasks mined from them. {} households ({}), {} simulated days, {} events, {} questions and {} planning tasks.\n",
            self.households.len(),
            self.kinds
                .iter()
                .map(|(k, n)| format!("{n} {k}"))
                .collect::<Vec<_>>()
                .join(", "),
            self.days,
            self.events,
            self.questions,
            self.tasks
        );
        let _ = writeln!(w, "## Motivation\n");
        let _ = writeln!(
            w,
            "To measure the memory of home robots: what an agent that saw and heard part of a household's days can answer about its state, its past, its people's preferences, habits and requests, and what it can do with that. Every answer is computed from the simulator's exact state, so scores carry no annotation noise.\n"
        );
        let _ = writeln!(w, "## Composition\n");
        let _ = writeln!(
            w,
            "Each trace directory holds `scene.ron` (the household), `events.jsonl` (every event with its state changes and who perceived it), `manifest.json`, `plan.json`, `notes.jsonl` and `samples.jsonl` (questions and tasks, each with its cutoff, structured answer and evidence events; the answer is what the robot could know from what it perceived, and `world`, where it differs, what was true).\n"
        );
        let _ = match self.ask {
            Asking::Household => writeln!(
                w,
                "The questions are drawn from what happened in the household, seen or not (`--ask household`, the default): a question about something the robot missed has \"No information available.\" for its answer, an `_abs` id, and what was true for its `world` answer.\n"
            ),
            Asking::Robot => writeln!(
                w,
                "The questions are drawn from what the robot perceived (`--ask robot`): a robot that sees less is asked about less.\n"
            ),
        };
        let _ = writeln!(
            w,
            "| trace | kind | rooms | people | objects | days | events | robot presence | questions | tasks |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
        );
        for h in &self.households {
            let size = h.size.clone().unwrap_or_default();
            let _ = writeln!(
                w,
                "| {} | {} | {} | {} | {} | {} | {} | {:.2} | {} | {} |",
                h.trace,
                h.kind,
                size.rooms,
                size.people,
                size.objects,
                h.days,
                h.events,
                h.presence,
                h.questions,
                h.tasks.unwrap_or(0)
            );
        }
        let _ = writeln!(
            w,
            "\nRobot presence: the share of the events others caused that the robot perceived.\n"
        );
        let _ = writeln!(
            w,
            "Questions per family:\n\n| family | questions |\n|---|---:|"
        );
        for (f, n) in &self.questions_per_family {
            let _ = writeln!(w, "| {} | {n} |", f.name());
        }
        let table = |w: &mut String, title: &str, bins: &[Bin]| {
            let _ = writeln!(w, "\n{title}:\n\n| | questions |\n|---|---:|");
            for b in bins {
                let _ = writeln!(w, "| {} | {} |", b.label, b.count);
            }
        };
        table(
            w,
            "Evidence age (from a question's latest evidence event to its cutoff)",
            &self.evidence_age,
        );
        table(w, "Horizon (the day of a question's cutoff)", &self.horizon);
        let _ = writeln!(w, "\n## Collection process\n");
        let _ = writeln!(
            w,
            "Simulated, not collected: no person took part and no personal data is included. Generator: hearth {} (backend {}{}).",
            join(&self.hearth_versions),
            join(&self.backends),
            if self.models.is_empty() {
                String::new()
            } else {
                format!(", model {}", join(&self.models))
            }
        );
        if let Some(s) = &self.settings {
            let _ = writeln!(
                w,
                "Batch settings: scenes `{}`, kind `{}`, seeds `{}`, {} days, backend `{}` ({} units).",
                s.scenes,
                s.kind,
                s.seeds,
                s.days,
                s.backend,
                s.units.len()
            );
            let d = &s.difficulty;
            if !d.is_default() {
                let _ = writeln!(
                    w,
                    "Difficulty: the robot docked away {:.0}% of the waking day, {} extra look-alikes per object category, things moved {}x as often as by default.",
                    100.0 * d.robot_away,
                    d.lookalikes,
                    d.moves
                );
            }
        }
        let seeds: Vec<String> = self
            .households
            .iter()
            .filter_map(|h| {
                let seed = h.origin.as_ref()?.seed?;
                Some(format!("{} seed {seed}", h.trace))
            })
            .collect();
        if !seeds.is_empty() {
            let _ = writeln!(w, "Trace seeds: {}.", seeds.join(", "));
        }
        let _ = writeln!(
            w,
            "The same hearth version, settings and seeds give the same files, byte for byte.\n"
        );
        let _ = writeln!(w, "## Preprocessing\n");
        let _ = writeln!(
            w,
            "Questions and tasks were mined with `hearth mine` (each `samples.jsonl` names its seed in its header; traces mined for this card used seed 0), and every one passed hearth's validity checks (answer recomputed from the trace, evidence before the cutoff and seen by the robot, reference plans executed).\n"
        );
        let _ = writeln!(w, "## Uses\n");
        let _ = writeln!(
            w,
            "Evaluating memory agents (question answering at a cutoff and planning from memory), comparing memory architectures across households with intervals, and studying accuracy against evidence age, horizon and the robot's presence. Not for: conclusions about real households' habits (the households are synthetic and scripted).\n"
        );
        let _ = writeln!(w, "### How to score\n\n```sh");
        for c in &self.scoring {
            let _ = writeln!(w, "{c}");
        }
        let _ = writeln!(w, "```\n");
        let _ = writeln!(w, "## Distribution\n\nLicence: {}.\n", self.licence);
        let _ = writeln!(
            w,
            "## Maintenance\n\nRegenerate with the hearth version above; `dataset.json` beside this file holds these figures as data."
        );
        m
    }
}

fn join(s: &BTreeSet<String>) -> String {
    s.iter().cloned().collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::{Origin, Size};

    fn house(trace: &str, kind: &str) -> Household {
        Household {
            trace: trace.into(),
            scene: format!("gen_{kind}_s0"),
            kind: kind.into(),
            size: Some(Size {
                rooms: 3,
                people: 2,
                objects: 20,
            }),
            days: 2,
            events: 100,
            origin: Some(Origin {
                seed: Some(0),
                backend: "scripted".into(),
                model: None,
                hearth_version: "0.1.0".into(),
            }),
            presence: 0.4,
            questions: 0,
            tasks: Some(0),
        }
    }

    #[test]
    fn card_counts_and_sections() {
        let q = |id: &str, family, age, day| QuestionFacts {
            id: id.into(),
            family,
            evidence_age: age,
            day,
        };
        let traces = vec![
            TraceInput::new(
                house("a-s0", "studio"),
                vec![
                    q("1", Family::Temporal, Some(10), 1),
                    q("2", Family::Routine, None, 2),
                ],
                &[],
            ),
            TraceInput::new(
                house("b-s0", "house"),
                vec![q("1", Family::Temporal, Some(90_000), 2)],
                &[],
            ),
        ];
        let c = card("gen", None, &traces);
        assert_eq!((c.questions, c.days, c.events), (3, 4, 200));
        assert_eq!(c.questions_per_family[&Family::Temporal], 2);
        assert_eq!(c.kinds.len(), 2);
        let ages: Vec<usize> = c.evidence_age.iter().map(|b| b.count).collect();
        assert_eq!(ages, [1, 0, 0, 1, 0, 0, 1]);
        assert_eq!(c.horizon.len(), 2);
        assert_eq!(c.horizon[1].count, 2);
        let md = c.markdown();
        for section in [
            "## Motivation",
            "## Composition",
            "## Collection process",
            "## Uses",
            "## Distribution",
            "| a-s0 | studio |",
            "--predictions longmemeval",
            "evaluate_qa.py",
            "MIT OR Apache-2.0",
        ] {
            assert!(md.contains(section), "{section} missing from\n{md}");
        }
        // The card says what the questions were drawn from.
        let robot = DatasetCard {
            ask: Asking::Robot,
            ..c.clone()
        };
        assert!(robot.markdown().contains("(`--ask robot`)"));
        assert!(!robot.markdown().contains("--ask household"));
        let household = DatasetCard {
            ask: Asking::Household,
            ..c
        };
        assert!(
            household
                .markdown()
                .contains("(`--ask household`, the default)")
        );
        assert!(
            serde_json::to_string(&household)
                .unwrap()
                .contains(r#""ask":"household""#)
        );
        // A card from before `ask` was written was drawn from the robot's.
        let mut old = serde_json::to_value(&household).unwrap();
        old.as_object_mut().unwrap().remove("ask");
        let old: DatasetCard = serde_json::from_value(old).unwrap();
        assert_eq!(old.ask, Asking::Robot);
        // An empty batch still has a card, saying so.
        let empty = card("none", None, &[]);
        assert_eq!(empty.households.len(), 0);
        assert!(empty.markdown().contains("0 households"));
    }
}
