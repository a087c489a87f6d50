//! The words-only agents: what an LLM agent faces. They are never given
//! the parsed query ([`Agent::parsed_query`] is false, and the reader's
//! input, [`Words`], has no place for one). One reader serves them all: it
//! retrieves the top five narrated events by BM25 against the question's
//! words, then guesses from cue words ("where", "usually", "how many",
//! "told", ...) and the names it finds what is asked, taking the actions
//! and claims it needs from the retrieved events (each family's readings,
//! `samples::families`). `bm25-words` answers the
//! query it read with the built-ins' answerer over those five events;
//! `obsmem-words`, `kg-words`, `recent-words` and `oracle-words` hand it
//! to that built-in memory, as if it were the parsed query. So the reader
//! is the same on every row and only the memory differs; `oracle-words` is
//! the reader's ceiling, and each row's gap to its parsed-query twin is the
//! price of reading.

use std::sync::Arc;

use crate::ids::Id;
use crate::samples::Index;
use crate::samples::answer::answer;
use crate::samples::families::{self, Read, answer_text};
use crate::samples::model::*;
use crate::samples::text::Namer;
use crate::scene::{ActorKind, Scene, SceneIndex};
use crate::sim::initial_state;
use crate::trace::request::Request;
use crate::trace::{Event, State};

use super::agent::{Agent, AgentError, Observation, QuestionIn, Reply, TaskIn, abstain};
use super::agents::{BuiltIn, Strategy, plan_task};
use super::bm25::Bm25;

/// The words-only agent that answers from its own retrieval.
pub const WORDS_ONLY: &str = "bm25-words";

/// The words-only agents: `bm25-words`, and a built-in memory behind the
/// same reader.
pub const WORDS_AGENTS: [&str; 5] = [
    WORDS_ONLY,
    "obsmem-words",
    "kg-words",
    "recent-words",
    "oracle-words",
];

/// Events retrieved per question (as `bm25`).
const TOP: usize = 5;

/// All the reader may see of a question.
pub struct Words<'a> {
    pub question: &'a str,
    pub options: &'a [String],
    pub cutoff: &'a Cutoff,
}

/// The words-only agent's memory: the scene, every perceived event and
/// their narrations indexed by BM25.
#[derive(Default)]
pub struct WordsOnly {
    scene: Option<Scene>,
    index: SceneIndex,
    initial: Arc<State>,
    events: Vec<Event>,
    bm25: Bm25,
    /// Lower-cased names of the scene's entities, longest first.
    names: Vec<(String, Id)>,
    robot: Option<Id>,
    humans: Vec<Id>,
    /// The built-in memory the read query goes to; none: the answerer over
    /// the reader's own top five.
    memory: Option<BuiltIn>,
}

impl WordsOnly {
    /// The reader in front of `strategy`'s memory.
    pub fn over(strategy: Strategy) -> Self {
        WordsOnly {
            memory: Some(BuiltIn::new(strategy)),
            ..WordsOnly::default()
        }
    }

    /// The agent for a words-only name (`obsmem-words`, ...), if it is one.
    pub fn named(name: &str) -> Option<Self> {
        if !WORDS_AGENTS.contains(&name) {
            return None;
        }
        if name == WORDS_ONLY {
            return Some(WordsOnly::default());
        }
        Strategy::parse(name.strip_suffix("-words")?).map(WordsOnly::over)
    }

    fn scene(&self) -> Result<&Scene, AgentError> {
        self.scene
            .as_ref()
            .ok_or_else(|| AgentError::Other("asked before reset".into()))
    }

    /// The retrieved events for `text`, best first.
    fn retrieve(&self, text: &str) -> Vec<&Event> {
        self.bm25
            .top(text, TOP)
            .into_iter()
            .filter_map(|id| self.event(id))
            .collect()
    }

    fn event(&self, id: u64) -> Option<&Event> {
        self.events
            .binary_search_by_key(&id, |e| e.id)
            .ok()
            .map(|i| &self.events[i])
    }

    /// The entities named in `text`, in order of appearance (longest names
    /// first, so "the nightstand in the master bedroom" is not "the
    /// nightstand").
    fn mentions(&self, text: &str) -> Vec<Id> {
        let mut text = text.to_lowercase();
        let mut found: Vec<(usize, Id)> = Vec::new();
        for (name, id) in &self.names {
            while let Some(at) = text.find(name.as_str()) {
                found.push((at, id.clone()));
                // Blank it out so a shorter name inside it does not match.
                text.replace_range(at..at + name.len(), &" ".repeat(name.len()));
            }
        }
        found.sort();
        found.into_iter().map(|(_, id)| id).collect()
    }

    /// What the reader takes the question to ask, from its words, options
    /// and the retrieved events: by each family's reading of them.
    fn read(&self, w: &Words, top: &[&Event]) -> Option<Query> {
        let text = format!(
            " {} ",
            w.question
                .to_lowercase()
                .replace(['?', ',', '.', ':', ';'], " ")
        );
        let named = self.mentions(w.question);
        let person = named.iter().find(|i| self.humans.contains(i)).cloned();
        let thing = named
            .iter()
            .find(|i| !self.humans.contains(i) && Some(*i) != self.robot.as_ref())
            .cloned();
        let best = |o: &str| self.event(*self.bm25.top(o, 1).first()?);
        families::read(&Read {
            question: w.question,
            options: w.options,
            cutoff: w.cutoff,
            text,
            person,
            thing,
            robot: self.robot.as_ref(),
            top,
            events: &self.events,
            scene: self.scene.as_ref(),
            index: &self.index,
            best: &best,
        })
    }

    /// The answerer over the retrieved events only.
    fn answer_over(
        &self,
        top: &[&Event],
        cutoff: &Cutoff,
        q: &Query,
    ) -> Result<Option<Answer>, AgentError> {
        let mut memory: Vec<Event> = top.iter().map(|e| (*e).clone()).collect();
        memory.sort_by_key(|e| e.id);
        let ix = Index::with_initial(self.scene()?, &memory, self.initial.clone());
        Ok(answer(&ix, cutoff, q).map(|a| a.answer))
    }

    /// The reader's events for `w`: the top five for its words, and the
    /// best for each option (a choice is settled by the events the options
    /// describe); with their ids.
    fn retrieve_for(&self, w: &Words) -> (Vec<&Event>, Vec<u64>) {
        let mut top = self.retrieve(w.question);
        let mut evidence: Vec<u64> = top.iter().map(|e| e.id).collect();
        for o in w.options {
            if let Some(e) = self.bm25.top(o, 1).first().and_then(|id| self.event(*id)) {
                if !evidence.contains(&e.id) {
                    evidence.push(e.id);
                }
                top.push(e);
            }
        }
        (top, evidence)
    }

    /// Answers from words, options and memory: nothing else reaches here.
    pub fn reply(&self, w: &Words) -> Result<Reply, AgentError> {
        let (top, evidence) = self.retrieve_for(w);
        let found = match self.read(w, &top) {
            Some(q) => self.answer_over(&top, w.cutoff, &q)?.map(|a| (q, a)),
            None => None,
        };
        let n = Namer::new(self.scene()?);
        Ok(match found {
            Some((q, answer)) => Reply {
                text: answer_text(&n, &q, &answer, w.options),
                answer: Some(answer),
                evidence,
            },
            None => abstain(w.options, evidence),
        })
    }
}

impl Agent for WordsOnly {
    fn name(&self) -> String {
        match &self.memory {
            Some(m) => format!("{}-words", m.name()),
            None => WORDS_ONLY.into(),
        }
    }

    fn reset(&mut self, scene: &Scene) -> Result<(), AgentError> {
        let mut memory = self.memory.take();
        if let Some(m) = &mut memory {
            m.reset(scene)?;
        }
        let n = Namer::new(scene);
        let ids = scene
            .actors
            .iter()
            .map(|a| &a.id)
            .chain(scene.objects.iter().map(|o| &o.id))
            .chain(scene.furniture.iter().map(|f| &f.id))
            .chain(scene.devices.iter().map(|d| &d.id))
            .chain(scene.rooms.iter().map(|r| &r.id));
        let mut names: Vec<(String, Id)> = ids
            .map(|id| {
                let name = n.name(id).to_lowercase();
                let bare = name.strip_prefix("the ").unwrap_or(&name).to_string();
                (bare, id.clone())
            })
            .collect();
        names.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.cmp(b)));
        *self = WordsOnly {
            initial: Arc::new(initial_state(scene)),
            names,
            robot: scene.robots().into_iter().next(),
            humans: scene.actors_of(ActorKind::Human),
            scene: Some(scene.clone()),
            index: SceneIndex::new(scene),
            memory,
            ..WordsOnly::default()
        };
        Ok(())
    }

    fn observe(&mut self, o: &Observation) -> Result<(), AgentError> {
        if let Some(m) = &mut self.memory {
            m.observe(o)?;
        }
        self.bm25.add(o.event.id, &o.text);
        self.events.push(o.event.clone());
        Ok(())
    }

    fn answer(&mut self, q: &QuestionIn) -> Result<Reply, AgentError> {
        // Only the words, the options and the time of asking go on.
        let w = Words {
            question: &q.question,
            options: &q.options,
            cutoff: &q.cutoff,
        };
        if self.memory.is_none() {
            return self.reply(&w);
        }
        let (top, evidence) = self.retrieve_for(&w);
        let read = self.read(&w, &top);
        let memory = self.memory.as_mut().expect("checked above");
        match read {
            // The read query goes where a parsed one would.
            Some(query) => memory.answer(&QuestionIn {
                query: Some(query),
                ..q.clone()
            }),
            None => Ok(abstain(w.options, evidence)),
        }
    }

    fn plan(&mut self, t: &TaskIn) -> Result<Vec<Request>, AgentError> {
        // What the reader reads from the instruction is recalled from the
        // memory behind it, as a question would be.
        let memory = std::cell::RefCell::new(self.memory.take());
        let scene = self.scene()?;
        let plan = plan_task(
            scene,
            t,
            |q, text| {
                let found = match memory.borrow_mut().as_mut() {
                    Some(m) => {
                        m.answer(&QuestionIn {
                            id: t.id.clone(),
                            question: text.into(),
                            options: vec![],
                            query: Some(q.clone()),
                            cutoff: t.cutoff.clone(),
                        })
                        .ok()?
                        .answer?
                    }
                    None => self
                        .answer_over(&self.retrieve(text), &t.cutoff, q)
                        .ok()??,
                };
                match found {
                    Answer::Value { value } | Answer::LastSeen { value, .. } => Some(value),
                    _ => None,
                }
            },
            |instruction| {
                let w = Words {
                    question: instruction,
                    options: &[],
                    cutoff: &t.cutoff,
                };
                self.read(&w, &self.retrieve(instruction))
            },
        );
        self.memory = memory.into_inner();
        Ok(plan)
    }
}
