//! The LLM generation backend: every stage is a prompt from `prompts/`
//! with named placeholders, answered as JSON under a schema derived from
//! the stage's reply type ([`super::reply`]) and narrowed to the scene (its
//! ids as `enum`s, the days as bounds, the items wanted), then read through
//! that type and checked for sense (participants present, times inside the
//! day, goals naming things that exist). Item by item: what does not make
//! sense is dropped and the rest kept; only a reply with nothing usable is
//! asked again. A stage that stays unusable is filled by the offline
//! script (`--fallback script`, the default), skipped, or fails the trace;
//! sessions and events say who wrote them ([`Source`]).
//!
//! Prompts are ordered stable-first (instructions, the home, the stage's
//! instructions and worked example, then the persona, the day, the turn),
//! so a server's prefix cache reuses most of each call, and fitted into
//! the model's context (`--llm-context`) by priority: what a stage cannot
//! do without stays whole, older events and notes go first.

mod ask;
mod checks;
mod context;
mod names;
mod stages;

use std::collections::VecDeque;
use std::sync::Arc;

use crate::generation::scripted::Scripted;
use crate::generation::{Context, Goal};
use crate::llm::client::LlmClient;
use crate::llm::client::config::{Fallback, OnBudget};
use crate::llm::plugin::LlmDriver;
use crate::trace::request::Request;
use crate::trace::{LlmReport, Source};

use self::names::Names;

/// What the last actor reply said to do after its steps.
#[derive(Debug, Clone, PartialEq)]
enum Then {
    Continue,
    Done,
    GiveUp(String),
}

/// The LLM backend (`openai`, and `replay` over a recorded cache).
pub struct LlmBackend {
    driver: LlmDriver,
    name: String,
    model: String,
    seed: u64,
    max_skipped: u32,
    fallback: Fallback,
    on_budget: OnBudget,
    /// The token budget is spent and the script completes the trace.
    spent: bool,
    /// The offline script, made when a slot first needs it.
    script: Option<Scripted>,
    names: Option<Arc<Names>>,
    project_ids: Vec<String>,
    /// The session being acted, for the actor prompt and skip records.
    session: String,
    episode: String,
    /// Steps of the current turn, for the actor prompt.
    steps: Vec<String>,
    /// Steps of the last reply not yet proposed, and what comes after.
    queue: VecDeque<Request>,
    then: Then,
    /// The goal the script pursues for this turn's actor, once the model
    /// gave nothing usable for it.
    scripted_goal: Option<Goal>,
    /// Who wrote the last proposal.
    source: Source,
    /// The previous call's prompt, for the prefix-reuse figure.
    last_prompt: String,
    /// The model's context in tokens, which every prompt is fitted into.
    context: u32,
    /// The system message every call opens with: the instructions and the home.
    system: Option<Arc<String>>,
    report: LlmReport,
}

impl LlmBackend {
    pub fn new(client: Arc<LlmClient>, name: &str, seed: u64) -> Self {
        let c = client.config();
        let (model, max_skipped, fallback, on_budget, context) = (
            c.model.clone(),
            c.max_skipped,
            c.fallback,
            c.on_budget,
            client.context(),
        );
        LlmBackend {
            driver: LlmDriver::new(client),
            name: name.into(),
            model,
            seed,
            max_skipped,
            fallback,
            on_budget,
            spent: false,
            script: None,
            names: None,
            project_ids: vec![],
            session: String::new(),
            episode: String::new(),
            steps: vec![],
            queue: VecDeque::new(),
            then: Then::Continue,
            scripted_goal: None,
            source: Source::Llm,
            last_prompt: String::new(),
            context,
            system: None,
            report: LlmReport::default(),
        }
    }

    /// Cost per stage, prefix reuse, skips and fallbacks so far.
    pub fn report(&self) -> &LlmReport {
        &self.report
    }

    fn names(&mut self, cx: &Context) -> Arc<Names> {
        Arc::clone(
            self.names
                .get_or_insert_with(|| Arc::new(Names::new(cx.scene))),
        )
    }

    fn script(&mut self, cx: &Context) -> &mut Scripted {
        let seed = self.seed;
        self.script
            .get_or_insert_with(|| Scripted::new(cx.scene, seed))
    }
}
