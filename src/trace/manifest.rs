//! `manifest.json`: what a trace is and how it was made, with what an LLM
//! backend cost.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::ids::Id;

use super::difficulty::Difficulty;
use super::event::{Event, EventKind, SCHEMA_VERSION, Source};

/// `manifest.json`: what a trace is and how it was made. Written last, so a
/// directory with a manifest is a finished trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub schema: String,
    pub schema_version: u32,
    pub hearth_version: String,
    pub scene: SceneRef,
    /// `script`, `scripted`, `openai` or `replay`.
    pub backend: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub prompt_hashes: BTreeMap<String, String>,
    pub days: u32,
    pub counts: Counts,
    /// Files of the trace, relative to its directory.
    pub files: Vec<String>,
    /// What the LLM calls cost and what was skipped (LLM backends).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llm: Option<LlmReport>,
    /// The difficulty axes it was generated with (absent: the defaults).
    #[serde(default, skip_serializing_if = "Difficulty::is_default")]
    pub difficulty: Difficulty,
}

/// The cost of a trace's LLM calls per stage, and the replies it went on
/// without. Figures come from the recorded exchanges, so a replay reports
/// the same.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LlmReport {
    pub stages: BTreeMap<String, StageCost>,
    /// Characters of every call's prompt, and of those the ones that repeat
    /// the previous call's prompt from its start (what a server's prefix
    /// cache can reuse).
    pub prompt_chars: u64,
    pub reused_prefix_chars: u64,
    pub skipped: Vec<LlmSkip>,
    /// How much of the trace the model wrote; the script wrote the rest.
    #[serde(default)]
    pub authored: Authored,
    /// Stages the script filled because the model gave nothing usable (or
    /// the token budget was spent), each with where and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fallbacks: Vec<LlmSkip>,
    /// How the model's day sat in the calendar's frame, and how its steps
    /// were grounded.
    #[serde(default)]
    pub lived: Lived,
}

/// The model's part in the household's day: its own sessions placed in
/// the calendar's frame, the frame sessions it directed, and what the
/// grounding of its steps did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Lived {
    /// Sessions of its own the model asked for (each kept at its time,
    /// moved or dropped).
    pub asked: u64,
    /// Moved to free time, or dropped, with why (`at`: the day, the time
    /// asked and the kind).
    pub moved: Vec<LlmSkip>,
    pub dropped: Vec<LlmSkip>,
    /// Frame sessions whose intent and turns the model wrote.
    pub directed: u64,
    /// The model's turns in frame sessions: in the place of a calendar
    /// turn, beside them, or dropped (their actor out).
    pub replaced: u64,
    pub added: u64,
    pub turns_dropped: u64,
    /// The calendar's words (those carrying no fact) given to the model
    /// to say in its own.
    pub spoken: u64,
    /// Walks put before a model's step about something out of reach.
    pub walks: u64,
    /// Steps left out because they would change nothing, or are not what
    /// a household does.
    pub no_ops: u64,
    /// Turns ended because the model asked again for a refused request.
    pub ended: u64,
    /// Model texts (intents, intentions, words, notes) that repeat a
    /// prompt's example or the slot's own line, dropped.
    pub echoes: u64,
}

/// Sessions, intents, events and words of an LLM trace by who wrote
/// them, and the events refused by code.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Authored {
    pub sessions: u64,
    pub llm_sessions: u64,
    pub events: u64,
    pub llm_events: u64,
    /// Sessions whose intent the model wrote (its own, and the frame's
    /// it directed).
    #[serde(default)]
    pub llm_intents: u64,
    #[serde(default)]
    pub utterances: u64,
    #[serde(default)]
    pub llm_utterances: u64,
    /// Refused events by rejection code.
    #[serde(default)]
    pub refused: BTreeMap<String, u64>,
}

impl Authored {
    /// Counts one event of the trace.
    pub fn add_event(&mut self, e: &Event) {
        let llm = e.source == Some(Source::Llm);
        self.events += 1;
        self.llm_events += u64::from(llm);
        if e.kind == EventKind::Utterance {
            self.utterances += 1;
            self.llm_utterances += u64::from(llm);
        }
        if let Some(r) = e.outcome.rejection() {
            *self.refused.entry(r.code.code().to_string()).or_default() += 1;
        }
    }

    /// The share of session intents the model wrote, 0 to 1.
    pub fn intent_share(&self) -> f64 {
        share(self.llm_intents, self.sessions)
    }

    /// The share of utterances the model wrote, 0 to 1.
    pub fn utterance_share(&self) -> f64 {
        share(self.llm_utterances, self.utterances)
    }

    /// The share of events refused, 0 to 1.
    pub fn refused_share(&self) -> f64 {
        let refused: u64 = self.refused.values().sum();
        refused as f64 / self.events.max(1) as f64
    }

    /// The share of sessions the model wrote, 0 to 1 (1 when there are none).
    pub fn session_share(&self) -> f64 {
        share(self.llm_sessions, self.sessions)
    }

    pub fn event_share(&self) -> f64 {
        share(self.llm_events, self.events)
    }
}

fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        1.0
    } else {
        part as f64 / whole as f64
    }
}

/// What LLM calls cost: per stage in an [`LlmReport`], and per call in
/// the LLM client's replies and cache records (which leave out `calls` and
/// `skipped`, the backend's to count; absent counts read as 0).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct StageCost {
    pub calls: u64,
    /// HTTP requests, retries and re-asks included.
    pub requests: u64,
    /// From the reply's `usage`; estimated as characters / 4 when absent.
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// Replies made valid JSON locally.
    pub repairs: u64,
    /// Replies sent back with what was wrong.
    pub reasks: u64,
    pub skipped: u64,
    /// Values brought into the schema locally: numbers clamped to their
    /// bounds, near-miss names mapped to the real one, unknown fields dropped.
    pub fixed: u64,
    /// Items dropped from a reply whose other items were kept.
    pub dropped: u64,
    /// Calls whose reply the stage used (after re-asks, if any): `accepted
    /// / calls` is the stage's acceptance.
    #[serde(skip_serializing_if = "is_zero")]
    pub accepted: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl std::ops::AddAssign for StageCost {
    fn add_assign(&mut self, o: StageCost) {
        self.calls += o.calls;
        self.requests += o.requests;
        self.prompt_tokens += o.prompt_tokens;
        self.completion_tokens += o.completion_tokens;
        self.repairs += o.repairs;
        self.reasks += o.reasks;
        self.skipped += o.skipped;
        self.fixed += o.fixed;
        self.dropped += o.dropped;
        self.accepted += o.accepted;
    }
}

/// A session, turn, day's beats or notes that went on without a usable reply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmSkip {
    pub stage: String,
    /// `day 2`, `d2s03`, `d2s03 alice`.
    pub at: String,
    pub reason: String,
}

impl LlmReport {
    pub fn total(&self) -> StageCost {
        self.stages.values().fold(StageCost::default(), |mut t, s| {
            t += *s;
            t
        })
    }
}

impl Manifest {
    /// The manifest of a finished trace of `scene`.
    pub fn new(
        scene: &crate::scene::Scene,
        backend: &str,
        seed: Option<u64>,
        days: u32,
        counts: Counts,
        files: Vec<String>,
    ) -> Self {
        Manifest {
            schema: "hearth.trace".into(),
            schema_version: SCHEMA_VERSION,
            hearth_version: env!("CARGO_PKG_VERSION").into(),
            scene: SceneRef {
                id: scene.id.clone(),
                hash: crate::scene::content_hash(scene),
            },
            backend: backend.into(),
            seed,
            model: None,
            prompt_hashes: BTreeMap::new(),
            days,
            counts,
            files,
            llm: None,
            difficulty: Default::default(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SceneRef {
    pub id: Id,
    /// SHA-256 of the scene's canonical RON (`scene.ron` in the trace).
    pub hash: String,
}

/// Totals over a trace's events.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Counts {
    pub events: u64,
    pub rejected: u64,
    pub changes: u64,
    /// Accepted events with state changes that no robot observed.
    pub unseen_by_robot: u64,
    pub by_kind: BTreeMap<String, u64>,
    pub by_skill: BTreeMap<String, u64>,
}

impl Counts {
    /// Adds one event; `robots` are the robot ids of the scene.
    pub fn add(&mut self, e: &Event, robots: &[Id]) {
        self.events += 1;
        self.changes += e.changes.len() as u64;
        if !e.outcome.is_ok() {
            self.rejected += 1;
        } else if !e.changes.is_empty() && !e.observers.iter().any(|o| robots.contains(o)) {
            self.unseen_by_robot += 1;
        }
        let kind = match e.kind {
            EventKind::Action => "action",
            EventKind::Utterance => "utterance",
        };
        *self.by_kind.entry(kind.into()).or_default() += 1;
        *self
            .by_skill
            .entry(e.action.skill_name().into())
            .or_default() += 1;
    }
}
