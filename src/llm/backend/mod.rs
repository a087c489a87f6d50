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
//! One household life frames every backend: the day starts from the
//! script's calendar (`day.rs`), the model adds sessions in free time and
//! directs every session, and its steps are grounded before the executor
//! sees them (`ground.rs`).
//!
//! Prompts are ordered stable-first (instructions, the home, the stage's
//! instructions and worked example, then the persona, the day, the turn),
//! so a server's prefix cache reuses most of each call, and fitted into
//! the model's context (`--llm-context`) by priority: what a stage cannot
//! do without stays whole, older events and notes go first.

mod acting;
mod ask;
mod checks;
mod context;
mod day;
mod ground;
mod names;
mod stages;

use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;

use crate::generation::scripted::Scripted;
use crate::generation::{Context, DayBeat, Goal, Project};
use crate::ids::Id;
use crate::llm::client::LlmClient;
use crate::llm::client::config::{Fallback, OnBudget};
use crate::llm::plugin::LlmDriver;
use crate::scene::Scene;
use crate::sim::Simulation;
use crate::trace::request::Request;
use crate::trace::{LlmReport, Source};

use self::names::Names;

/// What the last actor reply said to do after its steps.
#[derive(Debug, Clone, Default, PartialEq)]
enum Then {
    #[default]
    Continue,
    Done,
    GiveUp(String),
}

/// What the backend keeps of the turn being acted.
#[derive(Debug, Default)]
struct TurnState {
    /// Steps taken so far, for the actor prompt.
    steps: Vec<String>,
    /// Steps of the last reply not yet proposed, and what comes after.
    queue: VecDeque<Request>,
    then: Then,
    /// The goal the script pursues for this turn's actor: the calendar's
    /// (a frame turn the model's steps left unmet), or what the script
    /// makes of the intention once the model gave nothing usable.
    scripted_goal: Option<Goal>,
    /// Requests refused this turn ([`ground`]).
    refused: BTreeSet<String>,
    /// Walks put before the step at the head of the queue.
    walks: u32,
    /// The last request proposed.
    last: Option<Request>,
    /// Whether the model has said something this turn.
    spoke: bool,
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
    /// The home as the model is told of it ([`context::in_house`]), made
    /// again when what is in the house changes; its names and the system
    /// message with it.
    house: Option<Scene>,
    names: Option<Arc<Names>>,
    project_ids: Vec<String>,
    /// The script's own projects, from which it frames each day, and its
    /// beats of the day, once drawn.
    script_projects: Option<Vec<Project>>,
    script_beats: Option<(u32, Vec<DayBeat>)>,
    /// The session being acted, for the actor prompt and skip records.
    session: String,
    episode: String,
    /// The model's intent for the frame session last directed.
    restaged: Option<String>,
    turn: TurnState,
    /// Device fields set by the model in this session, by whom ([`ground`]).
    set: BTreeSet<(Id, Id, Id)>,
    /// A spare world, where a step is tried before it is proposed.
    spare: Option<Simulation>,
    /// Requests refused in any turn so far ([`ground`]): asked for again
    /// where they would still be refused, they are left out.
    refused_before: BTreeSet<String>,
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
            house: None,
            names: None,
            project_ids: vec![],
            script_projects: None,
            script_beats: None,
            session: String::new(),
            episode: String::new(),
            restaged: None,
            turn: TurnState::default(),
            set: BTreeSet::new(),
            spare: None,
            refused_before: BTreeSet::new(),
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

    /// The home as the model is told of it.
    fn house(&mut self, cx: &Context) -> &Scene {
        self.house
            .get_or_insert_with(|| context::in_house(cx.scene, None))
    }

    /// Looks at what is in the house now: where things came in or left,
    /// the home, its names and the system message are made again (so a
    /// prompt's prefix stays the same while the house holds the same).
    fn look(&mut self, cx: &Context, sim: &Simulation) {
        let now = context::in_house(cx.scene, Some(sim));
        let ids = |s: &Scene| s.objects.iter().map(|o| o.id.clone()).collect::<Vec<_>>();
        if self.house.as_ref().is_none_or(|h| ids(h) != ids(&now)) {
            self.house = Some(now);
            self.names = None;
            self.system = None;
        }
    }

    fn names(&mut self, cx: &Context) -> Arc<Names> {
        if self.names.is_none() {
            let names = Names::new(self.house(cx));
            self.names = Some(Arc::new(names));
        }
        Arc::clone(self.names.as_ref().expect("made above"))
    }

    fn script(&mut self, cx: &Context) -> &mut Scripted {
        let seed = self.seed;
        self.script
            .get_or_insert_with(|| Scripted::new(cx.scene, seed))
    }
}
