//! The judge's audit, as reported: answers whose verdict is known before
//! the judge sees them ([`Probe`]), and how often the judge got them wrong.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// An answer whose verdict is known before the judge sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Probe {
    /// The reference answer itself: right.
    Canonical,
    /// The reference in other words: right.
    Paraphrase,
    /// The tempting wrong answer: the adversarial answer of an
    /// unanswerable question, else another question's answer of the same
    /// template (a real value of the same kind): wrong.
    Trap,
    /// "I don't know." to a question that has an answer: wrong.
    Abstention,
}

impl Probe {
    pub fn is_right(self) -> bool {
        matches!(self, Probe::Canonical | Probe::Paraphrase)
    }
}

/// How the judge did on answers whose verdict is known: a score of 2 or 3
/// accepts, 0 or 1 rejects. Reported beside every judged score, so a
/// judge that accepts vague or wrong answers shows.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct JudgeAudit {
    /// Per probe: answers judged, and judged against their known verdict
    /// (right ones rejected, wrong ones accepted).
    pub probes: BTreeMap<Probe, (usize, usize)>,
    /// Right answers the judge rejected, of all right answers.
    pub false_reject: f64,
    /// Wrong answers the judge accepted, of all wrong answers.
    pub false_accept: f64,
    /// Probes whose judging failed (left out of the rates).
    pub failed: usize,
}

impl JudgeAudit {
    fn rate(&self, right: bool) -> f64 {
        let (n, off) = self
            .probes
            .iter()
            .filter(|(p, _)| p.is_right() == right)
            .fold((0, 0), |(n, o), (_, (a, b))| (n + a, o + b));
        if n == 0 { 0.0 } else { off as f64 / n as f64 }
    }

    pub(super) fn settle(mut self) -> Self {
        self.false_reject = self.rate(true);
        self.false_accept = self.rate(false);
        self
    }

    /// Both audits together (over several traces).
    pub fn merge(self, other: &JudgeAudit) -> Self {
        let mut out = self;
        for (p, (n, off)) in &other.probes {
            let e = out.probes.entry(*p).or_default();
            *e = (e.0 + n, e.1 + off);
        }
        out.failed += other.failed;
        out.settle()
    }
}
