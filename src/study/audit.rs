//! A blind audit of gold answers, as a careful annotator does it: questions
//! drawn evenly over the families of a batch, each with its gold answer,
//! how sure it is, the evidence in words and what happened to what it is
//! about up to the cutoff, and a verdict column a person fills in; then
//! the filled sheet's error rates with their intervals.

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::samples::narrate::narrate;
use crate::samples::text::Namer;
use crate::samples::{Answer, QaSample, Sample};
use crate::scene::Scene;
use crate::trace::{Event, clock_time, day_of};

/// The events of what a question is about shown up to its cutoff.
const HISTORY: usize = 8;

/// One row of the sheet. `verdict` and `note` are the annotator's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditRow {
    pub trace: String,
    pub id: String,
    pub family: String,
    pub template: String,
    pub asked_at: String,
    pub question: String,
    pub gold: String,
    pub certainty: String,
    pub evidence: String,
    pub history: String,
    /// Where the robot was from the first evidence to the question: a
    /// state called known hours after it was seen is right when the robot
    /// stayed in that room since (the freshness rule). Sheets drawn before
    /// this column still tally.
    #[serde(default)]
    pub robot: String,
    /// `right`, `wrong` (the gold answer is not what a careful reader of
    /// the evidence would say) or `ill-formed` (a question nobody would
    /// ask, or words a household would not say).
    pub verdict: String,
    pub note: String,
}

/// What the annotator can say of a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Right,
    Wrong,
    IllFormed,
}

impl Verdict {
    pub fn parse(s: &str) -> Option<Self> {
        match s.trim().to_lowercase().as_str() {
            "right" | "ok" | "correct" => Some(Verdict::Right),
            "wrong" => Some(Verdict::Wrong),
            "ill-formed" | "ill_formed" | "illformed" => Some(Verdict::IllFormed),
            _ => None,
        }
    }
}

/// A trace's name, the trace and its samples, to draw from.
pub struct Drawn<'a> {
    pub name: &'a str,
    pub scene: &'a Scene,
    pub events: &'a [Event],
    pub samples: &'a [Sample],
}

/// `n` questions drawn evenly over the families (a family with fewer
/// than its share gives them all, the rest go round the others), in a
/// random order of `seed`, so that no family is read in a block.
pub fn draw(traces: &[Drawn], n: usize, seed: u64) -> Vec<AuditRow> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut by_family: BTreeMap<String, Vec<(usize, &QaSample)>> = BTreeMap::new();
    for (i, t) in traces.iter().enumerate() {
        for s in t.samples {
            if let Sample::Qa(q) = s {
                by_family
                    .entry(q.family.name().to_string())
                    .or_default()
                    .push((i, q));
            }
        }
    }
    for qs in by_family.values_mut() {
        qs.shuffle(&mut rng);
    }
    let mut picked = Vec::new();
    let mut round = 0;
    while picked.len() < n && by_family.values().any(|qs| round < qs.len()) {
        for qs in by_family.values() {
            if picked.len() < n
                && let Some(x) = qs.get(round)
            {
                picked.push(*x);
            }
        }
        round += 1;
    }
    picked.shuffle(&mut rng);
    picked
        .into_iter()
        .map(|(i, q)| row(&traces[i], q))
        .collect()
}

fn at(t: u64) -> String {
    format!("day {} {}", day_of(t), &clock_time(t)[..5])
}

fn said(n: &Namer, e: &Event, robot: &crate::ids::Id) -> String {
    format!("#{} {}: {}", e.id, at(e.t), narrate(n, e, robot))
}

fn row(t: &Drawn, q: &QaSample) -> AuditRow {
    let n = Namer::new(t.scene);
    let robot = t
        .scene
        .actors
        .iter()
        .find(|a| a.kind == crate::scene::ActorKind::Robot)
        .map(|a| a.id.clone())
        .unwrap_or_else(|| crate::ids::Id::new("robot"));
    let event = |id: u64| t.events.iter().find(|e| e.id == id);
    let evidence: Vec<String> = q
        .evidence
        .iter()
        .filter_map(|id| event(*id))
        .map(|e| said(&n, e, &robot))
        .collect();
    // Everything that happened to what the question names, seen or not,
    // up to the cutoff: the annotator reads the world, not the robot.
    let about = q.query.entities();
    let touching: Vec<&Event> = t
        .events
        .iter()
        .take_while(|e| e.id < q.cutoff.event)
        .filter(|e| {
            e.changes.iter().any(|c| about.contains(&c.entity))
                || e.mentions.iter().any(|m| about.contains(m))
        })
        .collect();
    let history: Vec<String> = touching[touching.len().saturating_sub(HISTORY)..]
        .iter()
        .map(|e| {
            let seen = e.observers.contains(&robot);
            format!(
                "{}{}",
                said(&n, e, &robot),
                if seen { "" } else { " (robot did not see)" }
            )
        })
        .collect();
    let certainty = match &q.answer {
        Answer::Unknown => "not known to the robot".to_string(),
        Answer::LastSeen { stale: true, .. } => "last seen; possibly changed since".to_string(),
        Answer::LastSeen { .. } => "last seen".to_string(),
        Answer::Time { stale: true, .. } => {
            "the latest the robot saw; possibly done since".to_string()
        }
        Answer::Actor { stale: true, .. } => {
            "the only one the robot saw; possibly others".to_string()
        }
        _ => "known from what the robot perceived".to_string(),
    };
    let gold = match &q.hedge {
        Some(h) => format!("{} {h}", q.answer_text),
        None => q.answer_text.clone(),
    };
    AuditRow {
        trace: t.name.to_string(),
        id: q.id.clone(),
        family: q.family.name().to_string(),
        template: q.template.clone(),
        asked_at: at(q.cutoff.t),
        question: q.question.clone(),
        gold,
        certainty,
        evidence: evidence.join("\n"),
        history: if history.is_empty() {
            "(nothing happened to it before the question)".to_string()
        } else {
            history.join("\n")
        },
        robot: whereabouts(t.events, &robot, &n, q),
        verdict: String::new(),
        note: String::new(),
    }
}

/// The rooms the robot was in from `q`'s first evidence (or the question,
/// where there is none) to its cutoff, each with when it got there:
/// "kitchen (since day 1 07:23), living room from day 1 09:10".
fn whereabouts(events: &[Event], robot: &crate::ids::Id, n: &Namer, q: &QaSample) -> String {
    let from = q.evidence.iter().min().copied().unwrap_or(q.cutoff.event);
    let mut stays: Vec<(u64, crate::ids::Id)> = Vec::new();
    for e in events.iter().take_while(|e| e.id < q.cutoff.event) {
        for c in e.changes.iter().filter(|c| &c.entity == robot) {
            if let crate::trace::Value::Position(p) = &c.new
                && stays.last().is_none_or(|(_, r)| *r != p.room)
            {
                if e.id <= from {
                    stays.clear();
                }
                stays.push((e.t, p.room.clone()));
            }
        }
    }
    stays
        .iter()
        .enumerate()
        .map(|(i, (t, room))| match i {
            0 => format!("{} (since {})", n.name(room), at(*t)),
            _ => format!("{} from {}", n.name(room), at(*t)),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A share with its 95% Wilson interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rate {
    pub count: usize,
    pub of: usize,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Rate {
    pub fn new(count: usize, of: usize) -> Self {
        let (k, n) = (count as f64, of as f64);
        if of == 0 {
            return Rate {
                count,
                of,
                rate: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let z = 1.959_964_f64;
        let p = k / n;
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
        Rate {
            count,
            of,
            rate: p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }
}

/// What a filled sheet says.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tally {
    pub checked: usize,
    /// Gold answers a careful reader marks wrong.
    pub wrong: Rate,
    /// Questions nobody would ask, or words a household would not say.
    pub ill_formed: Rate,
    /// Wrong answers by family.
    pub wrong_by_family: BTreeMap<String, usize>,
}

/// A row the annotator left without a verdict, or with one that is none
/// of `right`, `wrong`, `ill-formed`: its 1-based row number (the sheet's
/// line is one more, after the header) and what it says.
#[derive(Debug, Clone, PartialEq)]
pub struct Unread {
    pub row: usize,
    pub id: String,
    pub verdict: String,
}

/// The error rates of a filled sheet; every row must have a verdict.
pub fn tally(rows: &[AuditRow]) -> Result<Tally, Vec<Unread>> {
    let mut unread = Vec::new();
    let (mut wrong, mut ill) = (0, 0);
    let mut by_family = BTreeMap::new();
    for (i, r) in rows.iter().enumerate() {
        match Verdict::parse(&r.verdict) {
            Some(Verdict::Right) => {}
            Some(Verdict::Wrong) => {
                wrong += 1;
                *by_family.entry(r.family.clone()).or_insert(0) += 1;
            }
            Some(Verdict::IllFormed) => ill += 1,
            None => unread.push(Unread {
                row: i + 1,
                id: format!("{}/{}", r.trace, r.id),
                verdict: r.verdict.clone(),
            }),
        }
    }
    if !unread.is_empty() {
        return Err(unread);
    }
    Ok(Tally {
        checked: rows.len(),
        wrong: Rate::new(wrong, rows.len()),
        ill_formed: Rate::new(ill, rows.len()),
        wrong_by_family: by_family,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(verdicts: &[&str]) -> Vec<AuditRow> {
        verdicts
            .iter()
            .enumerate()
            .map(|(i, v)| AuditRow {
                trace: "t".into(),
                id: format!("q{i}"),
                family: if i % 2 == 0 { "routine" } else { "counting" }.into(),
                template: String::new(),
                asked_at: String::new(),
                question: String::new(),
                gold: String::new(),
                certainty: String::new(),
                evidence: String::new(),
                history: String::new(),
                robot: String::new(),
                verdict: v.to_string(),
                note: String::new(),
            })
            .collect()
    }

    #[test]
    fn a_filled_sheet_gives_its_rates_with_intervals() {
        let mut v = vec!["right"; 97];
        v.extend(["wrong", "Ill-formed", "WRONG"]);
        let t = tally(&rows(&v)).unwrap();
        assert_eq!((t.checked, t.wrong.count, t.ill_formed.count), (100, 2, 1));
        assert!((t.wrong.rate - 0.02).abs() < 1e-12);
        // Wilson's interval for 2 of 100: about [0.0055, 0.0700].
        assert!((t.wrong.low - 0.0055).abs() < 0.001, "{:?}", t.wrong);
        assert!((t.wrong.high - 0.0700).abs() < 0.001, "{:?}", t.wrong);
        assert_eq!(t.wrong_by_family.values().sum::<usize>(), 2);
        // None wrong still has an interval above zero.
        let t = tally(&rows(&["right"; 80])).unwrap();
        assert_eq!(t.wrong.rate, 0.0);
        assert!(t.wrong.high > 0.04 && t.wrong.high < 0.05, "{:?}", t.wrong);
    }

    #[test]
    fn rows_without_a_verdict_are_named() {
        let e = tally(&rows(&["right", "", "maybe", "ok"])).unwrap_err();
        assert_eq!(
            e.iter()
                .map(|u| (u.row, u.verdict.as_str()))
                .collect::<Vec<_>>(),
            [(2, ""), (3, "maybe")]
        );
    }
}
