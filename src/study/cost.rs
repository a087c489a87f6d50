//! What answering costs, kept beside accuracy (as LongMemEval-V2 ranks
//! memory systems on accuracy against latency): each agent's answer
//! latency and, for LLM answering, tokens per question. Wall-clock figures
//! differ run to run, so they go to a sidecar and the printed table, never
//! into the deterministic report.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::eval::{Agent, AgentError, Observation, QuestionIn, Reply, TaskIn};
use crate::scene::Scene;
use crate::trace::request::Request;

/// An agent whose `answer` calls are timed; everything else passes through.
pub struct Timed<'a> {
    inner: &'a mut dyn Agent,
    pub latencies: Vec<Duration>,
}

impl<'a> Timed<'a> {
    pub fn new(inner: &'a mut dyn Agent) -> Self {
        Timed {
            inner,
            latencies: Vec::new(),
        }
    }
}

impl Agent for Timed<'_> {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn parsed_query(&self) -> bool {
        self.inner.parsed_query()
    }
    fn reset(&mut self, scene: &Scene) -> Result<(), AgentError> {
        self.inner.reset(scene)
    }
    fn observe(&mut self, o: &Observation) -> Result<(), AgentError> {
        self.inner.observe(o)
    }
    fn answer(&mut self, q: &QuestionIn) -> Result<Reply, AgentError> {
        let start = Instant::now();
        let reply = self.inner.answer(q);
        self.latencies.push(start.elapsed());
        reply
    }
    fn plan(&mut self, t: &TaskIn) -> Result<Vec<Request>, AgentError> {
        self.inner.plan(t)
    }
}

/// One agent's cost over the questions it answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cost {
    pub agent: String,
    pub questions: usize,
    /// Answer latency in milliseconds: median, 95th percentile, mean.
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub mean_ms: f64,
    /// Prompt and completion tokens per question of LLM answering (and
    /// judging, when on); none for agents that call no LLM.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens_per_question: Option<f64>,
    /// Seconds each LLM pass (`answer`, `judge`) took, over every trace.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub llm_seconds: BTreeMap<String, f64>,
    /// Questions answered right (calibrated), and what each cost: seconds
    /// (answering and the LLM passes) and tokens. None where none is right.
    #[serde(default)]
    pub correct: usize,
    #[serde(default)]
    pub seconds_per_question: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds_per_correct: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens_per_correct: Option<f64>,
}

impl Cost {
    /// The cost of `latencies`, with `tokens` spent on LLM calls over them.
    pub fn new(agent: &str, latencies: &[Duration], tokens: Option<u64>) -> Self {
        let mut ms: Vec<f64> = latencies.iter().map(|d| d.as_secs_f64() * 1e3).collect();
        ms.sort_by(f64::total_cmp);
        let n = ms.len();
        // Nearest rank: the smallest value with at least p of them at or below.
        let rank = |p: f64| {
            ms.get(((p * n as f64).ceil() as usize).clamp(1, n.max(1)) - 1)
                .copied()
                .unwrap_or(0.0)
        };
        Cost {
            agent: agent.into(),
            questions: n,
            p50_ms: rank(0.5),
            p95_ms: rank(0.95),
            mean_ms: ms.iter().sum::<f64>() / n.max(1) as f64,
            tokens_per_question: tokens.map(|t| t as f64 / n.max(1) as f64),
            llm_seconds: BTreeMap::new(),
            correct: 0,
            seconds_per_question: ms.iter().sum::<f64>() / 1e3 / n.max(1) as f64,
            seconds_per_correct: None,
            tokens_per_correct: None,
        }
    }

    /// The same, with `correct` of its questions answered right: what a
    /// right answer cost, in seconds and tokens.
    pub fn with_correct(mut self, correct: usize) -> Self {
        let seconds =
            self.mean_ms * self.questions as f64 / 1e3 + self.llm_seconds.values().sum::<f64>();
        self.correct = correct;
        self.seconds_per_question = seconds / self.questions.max(1) as f64;
        self.seconds_per_correct = (correct > 0).then(|| seconds / correct as f64);
        self.tokens_per_correct = self
            .tokens_per_question
            .filter(|_| correct > 0)
            .map(|t| t * self.questions as f64 / correct as f64);
        self
    }

    /// The same, with the time each LLM pass took.
    pub fn with_passes(mut self, passes: &BTreeMap<String, Duration>) -> Self {
        self.llm_seconds = passes
            .iter()
            .map(|(p, d)| (p.clone(), d.as_secs_f64()))
            .collect();
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_by_nearest_rank() {
        let ms: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        let c = Cost::new("a", &ms, Some(1000));
        assert_eq!((c.questions, c.p50_ms, c.p95_ms), (100, 50.0, 95.0));
        assert!((c.mean_ms - 50.5).abs() < 1e-9);
        assert_eq!(c.tokens_per_question, Some(10.0));
        let one = Cost::new("b", &[Duration::from_millis(7)], None);
        assert_eq!((one.p50_ms, one.p95_ms), (7.0, 7.0));
        // What a right answer costs: 10 s and 1000 tokens over 4 right.
        let c = c.with_correct(4);
        assert!((c.seconds_per_question - 0.0505).abs() < 1e-9, "{c:?}");
        assert!((c.seconds_per_correct.unwrap() - 5.05 / 4.0).abs() < 1e-9);
        assert_eq!(c.tokens_per_correct, Some(250.0));
        assert_eq!(
            Cost::new("d", &ms, None)
                .with_correct(0)
                .seconds_per_correct,
            None
        );
        let none = Cost::new("c", &[], None);
        assert_eq!((none.questions, none.p50_ms, none.mean_ms), (0, 0.0, 0.0));
        assert!(
            serde_json::to_string(&none)
                .unwrap()
                .contains("\"p95_ms\":0.0")
        );
    }

    #[test]
    fn timed_agents_answer_as_before() {
        let mut inner = crate::eval::agents::BuiltIn::new(crate::eval::agents::Strategy::None);
        let mut t = Timed::new(&mut inner);
        t.reset(&crate::scene::default_scene()).unwrap();
        let q = QuestionIn {
            id: "q".into(),
            question: "Where is the mug?".into(),
            options: vec![],
            query: None,
            cutoff: crate::samples::Cutoff {
                event: 1,
                t: 0,
                day: 1,
                time: "00:00:00".into(),
            },
        };
        // A built-in agent refuses a question without its parsed query:
        // the refusal passes through, and its time is counted all the same.
        assert!(t.answer(&q).is_err());
        assert!(
            t.answer(&QuestionIn {
                query: Some(crate::samples::families::routine::usual_place(
                    &"mug".into()
                )),
                ..q
            })
            .is_ok()
        );
        assert_eq!(t.latencies.len(), 2);
        assert_eq!(t.name(), "none");
    }
}
