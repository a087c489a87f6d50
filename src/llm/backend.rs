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
//! instructions and schema, then the persona, the day, the turn), so a
//! server's prefix cache reuses most of each call.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write as _;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::generation::scripted::Scripted;
use crate::generation::*;
use crate::ids::Id;
use crate::scene::{FieldDef, Scene};
use crate::sim::Simulation;
use crate::trace::request::{Request, SKILLS};
use crate::trace::{DAY, Event, LlmReport, LlmSkip, Location, clock_time};

use super::client::{Call, Fallback, LlmClient, LlmError, Message, OnBudget};
use super::plugin::LlmDriver;
use super::reply::{self, bound, one_of, schema_of};

/// The prompt files, embedded; their hashes go into the manifest.
pub const PROMPTS: [(&str, &str); 9] = [
    ("projects", include_str!("../../prompts/projects.md")),
    ("day_beats", include_str!("../../prompts/day_beats.md")),
    ("sessions", include_str!("../../prompts/sessions.md")),
    ("director", include_str!("../../prompts/director.md")),
    ("actor", include_str!("../../prompts/actor.md")),
    ("notes", include_str!("../../prompts/notes.md")),
    ("rephrase", include_str!("../../prompts/rephrase.md")),
    ("answer", include_str!("../../prompts/answer.md")),
    ("judge", include_str!("../../prompts/judge.md")),
];

/// The start of every generation call: the same for every stage, so it is
/// the prefix a server caches.
const PREAMBLE: &str = "You play parts of a household simulation that tests the memory of a home robot. Each request names a stage; reply with one JSON object matching the schema it gives, and nothing else.";

/// Re-asks after a reply with nothing usable for the home.
const REASKS: u32 = 2;

/// Sessions asked for one day (at most), turns for one session, steps for
/// one actor reply.
const SESSIONS: u64 = 10;
const TURNS: u64 = 6;
const STEPS: u64 = 8;

/// Projects asked for a trace of `days`: a few for a short trace, one per
/// project type for a week or more.
pub fn projects_wanted(days: u32) -> u64 {
    (u64::from(days) + 2).min(ProjectType::ALL.len() as u64)
}

/// The reply length allowed for `items` items of about `per_item` tokens:
/// enough for every item, not for a runaway list.
fn max_tokens(items: u64, per_item: u64) -> u32 {
    (128 + items * per_item) as u32
}

/// `prompt name → SHA-256` of every prompt file.
pub fn prompt_hashes() -> BTreeMap<String, String> {
    PROMPTS
        .iter()
        .map(|(n, t)| (n.to_string(), format!("{:x}", Sha256::digest(t.as_bytes()))))
        .collect()
}

/// A prompt with its `{{name}}` placeholders filled.
pub fn fill(stage: &str, values: &[(&str, &str)]) -> String {
    let mut text = PROMPTS
        .iter()
        .find(|(n, _)| *n == stage)
        .map(|(_, t)| t.to_string())
        .expect("a known prompt");
    for (k, v) in values {
        text = text.replace(&format!("{{{{{k}}}}}"), v);
    }
    text
}

fn wire_names<T: serde::Serialize>(xs: &[T]) -> Vec<String> {
    xs.iter()
        .map(|k| {
            serde_json::to_value(k)
                .expect("enum")
                .as_str()
                .expect("a name")
                .to_string()
        })
        .collect()
}

fn strings(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|x| x.to_string()).collect()
}

/// The reply schema of the stages outside generation.
pub fn schema(stage: &str) -> Value {
    match stage {
        "rephrase" => schema_of::<reply::RephraseReply>(),
        "answer" => schema_of::<reply::AnswerReply>(),
        "judge" => schema_of::<reply::JudgeReply>(),
        other => panic!("no schema for stage {other}"),
    }
}

const BEATS: [&str; 5] = [
    "established",
    "continued",
    "interrupted",
    "recovered",
    "completed",
];

/// The scene's real names, for the stage schemas and the checks.
pub struct Names {
    actors: Vec<String>,
    /// Everything a step may target: rooms, doors, furniture, devices,
    /// objects and actors.
    targets: Vec<String>,
    /// What a project may be about: the same without actors.
    things: Vec<String>,
    objects: Vec<String>,
    devices: Vec<String>,
    /// Every device field name and every option of an enum field.
    fields: Vec<String>,
    options: Vec<String>,
    known: BTreeSet<String>,
}

impl Names {
    pub fn new(s: &Scene) -> Self {
        let ids = |xs: Vec<&Id>| xs.into_iter().map(|i| i.to_string()).collect::<Vec<_>>();
        let actors = ids(s.actors.iter().map(|a| &a.id).collect());
        let things = ids(s
            .rooms
            .iter()
            .map(|r| &r.id)
            .chain(s.doors.iter().map(|d| &d.id))
            .chain(s.furniture.iter().map(|f| &f.id))
            .chain(s.devices.iter().map(|d| &d.id))
            .chain(s.objects.iter().map(|o| &o.id))
            .collect());
        let sorted = |xs: Vec<String>| {
            xs.into_iter()
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect::<Vec<_>>()
        };
        let fields = sorted(
            s.devices
                .iter()
                .flat_map(|d| d.fields.keys().map(|f| f.to_string()))
                .collect(),
        );
        let options = sorted(
            s.devices
                .iter()
                .flat_map(|d| d.fields.values())
                .filter_map(|f| match f {
                    FieldDef::Enum { options, .. } => Some(options.clone()),
                    _ => None,
                })
                .flatten()
                .collect(),
        );
        let targets: Vec<String> = things.iter().chain(&actors).cloned().collect();
        Names {
            known: targets.iter().cloned().collect(),
            objects: ids(s.objects.iter().map(|o| &o.id).collect()),
            devices: ids(s.devices.iter().map(|d| &d.id).collect()),
            actors,
            targets,
            things,
            fields,
            options,
        }
    }

    /// The reply schema of a generation stage: derived from its reply type,
    /// with the scene's names as `enum`s; `projects` are the ids a session
    /// or beat may name, `days` the trace's, `want` the items asked for.
    pub fn schema(&self, stage: &str, projects: &[String], days: u32, want: u64) -> Value {
        let mut s = match stage {
            "projects" => {
                let mut s = schema_of::<reply::ProjectsReply>();
                one_of(&mut s, "kind", &wire_names(&ProjectType::ALL));
                one_of(&mut s, "participants", &self.actors);
                one_of(&mut s, "entities", &self.things);
                one_of(&mut s, "memory_targets", &wire_names(&MemoryTarget::ALL));
                bound(&mut s, "start_day", "maximum", days.into());
                bound(&mut s, "end_day", "maximum", days.into());
                bound(&mut s, "projects", "minItems", 1);
                bound(&mut s, "projects", "maxItems", want);
                s
            }
            "day_beats" => {
                let mut s = schema_of::<reply::BeatsReply>();
                one_of(&mut s, "project", projects);
                one_of(&mut s, "beat", &strings(&BEATS));
                bound(&mut s, "beats", "maxItems", want);
                s
            }
            "sessions" => {
                let mut s = schema_of::<reply::SessionsReply>();
                one_of(&mut s, "project", projects);
                one_of(&mut s, "participants", &self.actors);
                bound(&mut s, "sessions", "minItems", 1);
                bound(&mut s, "sessions", "maxItems", want);
                s
            }
            "director" => {
                let mut s = schema_of::<reply::DirectorReply>();
                one_of(&mut s, "actor", &self.actors);
                bound(&mut s, "turns", "minItems", 1);
                bound(&mut s, "turns", "maxItems", want);
                s
            }
            "actor" => {
                let mut s = schema_of::<reply::ActorReply>();
                one_of(&mut s, "skill", &strings(SKILLS));
                one_of(&mut s, "target", &self.targets);
                one_of(&mut s, "object", &self.objects);
                one_of(&mut s, "relation", &strings(&["on", "in"]));
                one_of(&mut s, "device", &self.devices);
                one_of(&mut s, "field", &self.fields);
                one_of(&mut s, "to", &self.actors);
                one_of(&mut s, "then", &strings(&["continue", "done", "give_up"]));
                let options = self.options.clone();
                reply::narrow(&mut s, "value", &|p| {
                    *p = json!({"anyOf": [{"type": "string", "enum": options}, {"type": "number"}, {"type": "boolean"}, {"type": "null"}]});
                });
                bound(&mut s, "steps", "maxItems", want);
                s
            }
            "notes" => schema_of::<reply::NotesReply>(),
            other => panic!("no schema for stage {other}"),
        };
        if let Value::Object(o) = &mut s {
            o.remove("description");
        }
        s
    }

    /// Words of `text` that look like ids (`kitchen_table_9`: numbered, or
    /// starting like a real id, `nightstand_carol`) but name nothing in the
    /// home, each with the nearest real ones. Other snake_case words pass.
    fn invented(&self, text: &str) -> Vec<String> {
        let id_like = |w: &str| {
            let (head, tail) = w.split_once('_').unwrap_or((w, ""));
            w.rsplit('_')
                .next()
                .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
                || (!tail.is_empty()
                    && self
                        .known
                        .iter()
                        .any(|k| k.starts_with(&format!("{head}_"))))
        };
        text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| {
                w.contains('_') && Id::is_well_formed(w) && !self.known.contains(*w) && id_like(w)
            })
            .map(|w| {
                let near = crate::ids::nearest(w, &self.known_ids(), 3);
                let near: Vec<&str> = near.iter().map(Id::as_str).collect();
                format!("{w} (closest: {})", near.join(", "))
            })
            .collect()
    }

    fn known_ids(&self) -> Vec<Id> {
        self.known.iter().map(|k| Id::new(k)).collect()
    }
}

/// The schema as the prompt shows it: long lists of ids left out (the
/// home description has them; `response_format` carries them in full), so
/// every call does not repeat hundreds of names.
fn shape(schema: &Value) -> Value {
    match schema {
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(k, v)| !(*k == "enum" && v.as_array().is_some_and(|a| a.len() > 12)))
                .map(|(k, v)| (k.clone(), shape(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(shape).collect()),
        v => v.clone(),
    }
}

/// What the last actor reply said to do after its steps.
#[derive(Debug, Clone, PartialEq)]
enum Then {
    Continue,
    Done,
    GiveUp(String),
}

/// A reply read into its stage's output: what was kept, and what was
/// dropped from it (each with why). `Err`: nothing usable, and why.
type Kept<O> = Result<(O, Vec<String>), Vec<String>>;

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
    report: LlmReport,
}

impl LlmBackend {
    pub fn new(client: Arc<LlmClient>, name: &str, seed: u64) -> Self {
        let c = client.config();
        let (model, max_skipped, fallback, on_budget) =
            (c.model.clone(), c.max_skipped, c.fallback, c.on_budget);
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

    /// Asks `stage` under `schema` and reads the reply into `T`, then into
    /// the stage's output with `accept`, which keeps what makes sense and
    /// drops the rest. Only a reply with nothing usable is sent back, with
    /// what was wrong, up to [`REASKS`] times. `Ok(Err(why))`: still
    /// nothing usable (or the budget is spent and the script takes over);
    /// `Err` only when the exchange itself failed, which ends the trace.
    fn ask<T: DeserializeOwned, O>(
        &mut self,
        cx: &Context,
        stage: &'static str,
        prompt: String,
        (schema, max_tokens): (Value, u32),
        accept: &dyn Fn(T) -> Kept<O>,
    ) -> Result<Result<O, String>, GenError> {
        if self.spent {
            return Ok(Err("the token budget is spent".into()));
        }
        let mut messages = vec![
            Message::system(format!("{PREAMBLE}\n\nThe home:\n{}", cx.world)),
            Message::user(format!(
                "Stage: {stage}. Reply with one JSON object that matches this JSON schema (ids from the home description), and nothing else:\n{}\n\n{prompt}",
                shape(&schema)
            )),
        ];
        for round in 0..=REASKS {
            let call = Call {
                stage: stage.into(),
                messages: messages.clone(),
                schema_name: stage.into(),
                schema: schema.clone(),
                seed: self.seed,
                max_tokens: Some(max_tokens),
            };
            self.note_prompt(&call);
            let reply = match self.driver.call(call) {
                Ok(r) => r,
                Err(e @ LlmError::Budget { .. }) if self.on_budget == OnBudget::Script => {
                    tracing::warn!("{e}; the script completes the trace");
                    self.spent = true;
                    return Ok(Err("the token budget is spent".into()));
                }
                Err(e) => return Err(self.fail(stage, e.to_string())),
            };
            let cost = self.report.stages.entry(stage.into()).or_default();
            cost.calls += 1;
            cost.requests += reply.cost.requests;
            cost.prompt_tokens += reply.cost.prompt_tokens;
            cost.completion_tokens += reply.cost.completion_tokens;
            cost.repairs += reply.cost.repairs;
            cost.reasks += reply.cost.reasks;
            cost.fixed += reply.cost.fixed;
            cost.dropped += reply.cost.dropped;
            let v = match reply.value {
                Ok(v) => v,
                Err(why) => return Ok(Err(why)),
            };
            let problems = match serde_json::from_value::<T>(v.clone()) {
                Ok(typed) => match accept(typed) {
                    Ok((out, dropped)) => {
                        cost.dropped += dropped.len() as u64;
                        for d in &dropped {
                            tracing::debug!("{stage}: dropped {d}");
                        }
                        return Ok(Ok(out));
                    }
                    Err(p) => reply.dropped.into_iter().chain(p).collect::<Vec<_>>(),
                },
                Err(e) => vec![format!("the reply does not read as a {stage} reply: {e}")],
            };
            let problems = problems.join("; ");
            if round == REASKS {
                return Ok(Err(problems));
            }
            cost.reasks += 1;
            messages.push(Message {
                role: "assistant".into(),
                content: v.to_string(),
            });
            messages.push(Message::user(format!(
                "That reply has nothing usable for the home: {problems}. Reply again with the whole JSON object, corrected."
            )));
        }
        unreachable!("the last round returns")
    }

    /// Fills a slot the model gave nothing usable for, as `--fallback`
    /// says: the script's output (`script`), going on without it (`skip`,
    /// if the trace can do without it) or failing.
    fn fallback<O>(
        &mut self,
        cx: &Context,
        (stage, at, why): (&'static str, String, String),
        skip: Option<O>,
        script: impl FnOnce(&mut Scripted, &Context) -> Result<O, GenError>,
    ) -> Result<O, GenError> {
        if self.spent || self.fallback == Fallback::Script {
            tracing::info!("the script fills {stage} at {at}: {why}");
            self.report.fallbacks.push(LlmSkip {
                stage: stage.into(),
                at,
                reason: why,
            });
            self.source = Source::Script;
            return script(self.script(cx), cx);
        }
        match skip {
            Some(v) if self.fallback == Fallback::Skip => {
                self.skip(stage, at, why)?;
                Ok(v)
            }
            _ => Err(self.fail(stage, format!("{at}: {why}"))),
        }
    }

    /// Counts how much of `call`'s prompt repeats the previous one's start.
    fn note_prompt(&mut self, call: &Call) {
        let text: String = call
            .messages
            .iter()
            .map(|m| m.content.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        let shared = text
            .bytes()
            .zip(self.last_prompt.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        self.report.prompt_chars += text.len() as u64;
        self.report.reused_prefix_chars += shared as u64;
        self.last_prompt = text;
    }

    /// Records a skip; past `max_skipped` the trace fails.
    fn skip(&mut self, stage: &'static str, at: String, reason: String) -> Result<(), GenError> {
        tracing::warn!("skipped {stage} at {at}: {reason}");
        self.report.stages.entry(stage.into()).or_default().skipped += 1;
        self.report.skipped.push(LlmSkip {
            stage: stage.into(),
            at,
            reason: reason.clone(),
        });
        let n = self.report.skipped.len();
        if n > self.max_skipped as usize {
            return Err(self.fail(
                stage,
                format!(
                    "{n} replies skipped, more than --max-skipped {}; last: {reason}",
                    self.max_skipped
                ),
            ));
        }
        Ok(())
    }

    fn fail(&self, stage: &'static str, message: String) -> GenError {
        GenError::Backend {
            backend: self.name.clone(),
            stage,
            message,
        }
    }

    /// The script's next proposal for `turn` pursuing `goal`.
    fn script_act(
        &mut self,
        cx: &Context,
        sim: &Simulation,
        turn: &Turn,
        goal: Goal,
        progress: &TurnProgress,
    ) -> Result<Proposal, GenError> {
        self.source = Source::Script;
        let turn = Turn {
            goal,
            ..turn.clone()
        };
        self.script(cx).act(cx, sim, &turn, progress)
    }
}

/// Ids in order, each once.
fn ids_in(xs: &[String]) -> Vec<Id> {
    let mut seen = BTreeSet::new();
    xs.iter()
        .filter(|s| seen.insert(s.as_str()))
        .map(|s| Id::new(s))
        .collect()
}

/// "HH:MM" → seconds since midnight.
fn clock(s: &str) -> Option<u64> {
    let (h, m) = s.trim().split_once(':')?;
    let (h, m): (u64, u64) = (h.parse().ok()?, m.get(..2).unwrap_or(m).parse().ok()?);
    (h < 24 && m < 60).then_some(h * 3600 + m * 60)
}

/// The latest start a session may have: an hour before midnight.
const LAST_START: u64 = DAY - 3600;

/// What is wrong with one planned session.
fn session_problems(i: usize, s: &reply::SessionItem) -> Vec<String> {
    let mut out = Vec::new();
    if clock(&s.start).is_none_or(|t| t >= LAST_START) {
        out.push(format!(
            "sessions[{i}].start {:?} is not a time inside the day (HH:MM, 00:00 to 22:59)",
            s.start
        ));
    }
    if s.participants.is_empty() {
        out.push(format!(
            "sessions[{i}] ({}) has no participants; name at least one person or the robot",
            s.kind
        ));
    }
    out
}

/// What `actor` knows of the room it is in, from its own beliefs.
fn view(sim: &Simulation, actor: &Id) -> String {
    let mut out = String::new();
    let Some(here) = sim.position(actor) else {
        return out;
    };
    let _ = writeln!(
        out,
        "You are in {} near {}.",
        here.room,
        here.near
            .as_ref()
            .map_or("nothing in particular", |n| n.as_str())
    );
    let held = sim.held_by(actor);
    if !held.is_empty() {
        let held: Vec<&str> = held.iter().map(|h| h.as_str()).collect();
        let _ = writeln!(out, "You hold: {}.", held.join(", "));
    }
    for ((entity, attr), b) in sim.beliefs(actor).into_iter().flatten() {
        let room = match &b.value {
            crate::trace::Value::Location(
                Location::On(r) | Location::In(r) | Location::HeldBy(r),
            ) => sim.room_of(r),
            _ => sim.room_of(entity),
        };
        if room.as_ref() == Some(&here.room) && attr.as_str() != "position" {
            let _ = writeln!(out, "- {entity} {attr}: {}", b.value);
        }
    }
    out
}

/// One line per event, for the notes prompt.
fn event_line(e: &Event) -> String {
    let outcome = e
        .outcome
        .rejection()
        .map_or("ok".to_string(), |r| format!("rejected: {}", r.code));
    format!(
        "{} {} {} {} ({outcome})",
        clock_time(e.t),
        e.actor,
        e.action.skill_name(),
        serde_json::to_string(&e.action).unwrap_or_default()
    )
}

/// An actor reply's steps as requests in the executor's schema; a step it
/// cannot read is dropped, with why.
fn steps_of(actor: &Id, steps: &[reply::Step]) -> (Vec<Request>, Vec<String>) {
    let (mut ok, mut problems) = (Vec::new(), Vec::new());
    for (i, step) in steps.iter().enumerate() {
        let mut args = serde_json::to_value(step).expect("steps serialize");
        let args = args.as_object_mut().expect("a step is an object");
        args.retain(|k, v| k != "skill" && !v.is_null());
        let line = json!({"actor": actor, "skill": step.skill, "args": args});
        match Request::from_json(&line.to_string()) {
            Ok(r) => ok.push(r),
            Err(e) => problems.push(format!("steps[{i}]: {e}")),
        }
    }
    (ok, problems)
}

/// What the script can do for an intention the model gave no usable steps
/// for: go to the first thing of the home it names.
fn intent_goal(names: &Names, text: &str) -> Option<Goal> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .find(|w| names.things.iter().any(|t| t == w))
        .map(|w| Goal::GoTo { target: Id::new(w) })
}

impl Backend for LlmBackend {
    fn name(&self) -> &str {
        &self.name
    }

    fn model(&self) -> Option<String> {
        Some(self.model.clone())
    }

    fn source(&self) -> Option<Source> {
        Some(self.source)
    }

    /// What the script planned in the slots it filled (a deliberate
    /// misplacement while tidying), so the lint exempts it as it does in a
    /// scripted trace.
    fn misplacements(&mut self) -> Vec<crate::generation::Misplacement> {
        self.script
            .as_mut()
            .map(|s| s.misplacements())
            .unwrap_or_default()
    }

    fn projects(&mut self, cx: &Context) -> Result<Vec<Project>, GenError> {
        let days = cx.days;
        let want = projects_wanted(days);
        let schema = self.names(cx).schema("projects", &[], days, want);
        let accept = |r: reply::ProjectsReply| -> Kept<Vec<Project>> {
            let (mut out, mut dropped) = (Vec::new(), Vec::new());
            let mut seen = BTreeSet::new();
            for (i, p) in r.projects.into_iter().enumerate() {
                let participants = ids_in(&p.participants);
                if participants.is_empty() {
                    dropped.push(format!(
                        "projects[{i}].participants is empty; name who takes part"
                    ));
                    continue;
                }
                let Ok(kind) = serde_json::from_value(json!(p.kind)) else {
                    dropped.push(format!(
                        "projects[{i}].kind {:?} is no project type",
                        p.kind
                    ));
                    continue;
                };
                let mut id = p.id;
                if id.is_empty() || !seen.insert(id.clone()) {
                    id = format!("p{}", i + 1);
                    seen.insert(id.clone());
                }
                // The schema bounds the days; a project ends when it starts or later.
                let start = p.start_day.clamp(1, days.into()) as u32;
                out.push(Project {
                    id,
                    kind,
                    title: p.title,
                    participants,
                    entities: ids_in(&p.entities),
                    memory_targets: p
                        .memory_targets
                        .iter()
                        .filter_map(|t| serde_json::from_value(json!(t)).ok())
                        .collect(),
                    start_day: start,
                    end_day: (p.end_day.clamp(1, days.into()) as u32).max(start),
                    constraints: p.constraints,
                });
            }
            if out.is_empty() {
                dropped.push("no usable project".into());
                return Err(dropped);
            }
            Ok((out, dropped))
        };
        let prompt = fill(
            "projects",
            &[("days", &days.to_string()), ("count", &want.to_string())],
        );
        let out = match self.ask(
            cx,
            "projects",
            prompt,
            (schema, max_tokens(want, 160)),
            &accept,
        )? {
            Ok(out) => out,
            Err(why) => self.fallback(
                cx,
                ("projects", "the household".into(), why),
                None,
                |s, cx| s.projects(cx),
            )?,
        };
        self.project_ids = out.iter().map(|p| p.id.clone()).collect();
        Ok(out)
    }

    fn day_beats(
        &mut self,
        cx: &Context,
        projects: &[Project],
        day: u32,
    ) -> Result<Vec<DayBeat>, GenError> {
        let active: Vec<&Project> = projects
            .iter()
            .filter(|p| (p.start_day..=p.end_day).contains(&day))
            .collect();
        if active.is_empty() {
            return Ok(vec![]);
        }
        let ids: Vec<String> = active.iter().map(|p| p.id.clone()).collect();
        let want = ids.len() as u64;
        let schema = self.names(cx).schema("day_beats", &ids, cx.days, want);
        let prompt = fill(
            "day_beats",
            &[
                ("day", &day.to_string()),
                ("days", &cx.days.to_string()),
                (
                    "projects",
                    &serde_json::to_string_pretty(&active).unwrap_or_default(),
                ),
            ],
        );
        let accept = |r: reply::BeatsReply| -> Kept<Vec<DayBeat>> {
            let (mut out, mut dropped) = (Vec::<DayBeat>::new(), Vec::new());
            for (i, b) in r.beats.into_iter().enumerate() {
                if out.iter().any(|x| x.project == b.project) {
                    dropped.push(format!("beats[{i}]: a second beat for {}", b.project));
                    continue;
                }
                out.push(DayBeat {
                    day,
                    beat: serde_json::from_value(json!(b.beat)).unwrap_or(Beat::Continued),
                    project: b.project,
                    summary: b.summary,
                });
            }
            if out.is_empty() {
                return Err(vec!["no beat for any project active today".into()]);
            }
            Ok((out, dropped))
        };
        match self.ask(
            cx,
            "day_beats",
            prompt,
            (schema, max_tokens(want, 70)),
            &accept,
        )? {
            Ok(out) => Ok(out),
            Err(why) => self.fallback(
                cx,
                ("day_beats", format!("day {day}"), why),
                Some(vec![]),
                |s, cx| s.day_beats(cx, projects, day),
            ),
        }
    }

    fn sessions(
        &mut self,
        cx: &Context,
        projects: &[Project],
        beats: &[DayBeat],
        day: u32,
        notes: Option<&DayNotes>,
    ) -> Result<Vec<Session>, GenError> {
        let prompt = fill(
            "sessions",
            &[
                ("day", &day.to_string()),
                ("count", &format!("4 to {SESSIONS}")),
                (
                    "beats",
                    &serde_json::to_string_pretty(&(projects, beats)).unwrap_or_default(),
                ),
                (
                    "notes",
                    &notes
                        .map(|n| serde_json::to_string_pretty(n).unwrap_or_default())
                        .unwrap_or_else(|| "(first day)".into()),
                ),
            ],
        );
        let ids: Vec<String> = projects.iter().map(|p| p.id.clone()).collect();
        let schema = self.names(cx).schema("sessions", &ids, cx.days, SESSIONS);
        let accept = |r: reply::SessionsReply| -> Kept<Vec<Session>> {
            let mut dropped = Vec::new();
            let mut planned = Vec::new();
            for (i, s) in r.sessions.into_iter().enumerate() {
                let problems = session_problems(i, &s);
                match clock(&s.start) {
                    Some(at) if problems.is_empty() => planned.push((at, s)),
                    _ => dropped.extend(problems),
                }
            }
            planned.sort_by_key(|(t, _)| *t);
            let base = u64::from(day - 1) * DAY;
            let mut out = Vec::new();
            let mut last = base;
            for (at, s) in planned {
                // Sessions keep order and spacing, and stay within the day.
                let start = (base + at).max(last + 300);
                if start >= base + LAST_START {
                    dropped.push(format!(
                        "{} at {}: no room left in the day",
                        s.kind, s.start
                    ));
                    continue;
                }
                last = start;
                out.push(Session {
                    id: format!("d{day}s{:02}", out.len() + 1),
                    day,
                    start,
                    kind: s.kind,
                    project: s.project,
                    intent: s.intent,
                    participants: ids_in(&s.participants),
                    params: BTreeMap::new(),
                    turns: vec![],
                    source: Some(Source::Llm),
                });
            }
            if out.is_empty() {
                dropped.push("no usable session".into());
                return Err(dropped);
            }
            Ok((out, dropped))
        };
        match self.ask(
            cx,
            "sessions",
            prompt,
            (schema, max_tokens(SESSIONS, 90)),
            &accept,
        )? {
            Ok(out) => Ok(out),
            Err(why) => {
                let mut out = self.fallback(
                    cx,
                    ("sessions", format!("day {day}"), why),
                    None,
                    |s, cx| s.sessions(cx, projects, beats, day, notes),
                )?;
                for s in &mut out {
                    s.source = Some(Source::Script);
                }
                Ok(out)
            }
        }
    }

    fn direct(
        &mut self,
        cx: &Context,
        session: &Session,
        sim: &Simulation,
    ) -> Result<Vec<Turn>, GenError> {
        self.session = session.id.clone();
        if session.source == Some(Source::Script) {
            // The script planned it: the script stages it.
            return self.script(cx).direct(cx, session, sim);
        }
        self.episode = format!(
            "day {}, {} ({}): {}; taking part: {}",
            session.day,
            clock_time(session.start),
            session.kind,
            session.intent,
            session
                .participants
                .iter()
                .map(Id::as_str)
                .collect::<Vec<_>>()
                .join(", ")
        );
        let mut state = String::new();
        for a in &cx.scene.actors {
            if let Some(p) = sim.position(&a.id) {
                let _ = writeln!(
                    state,
                    "{} is in {} near {}",
                    a.id,
                    p.room,
                    p.near.as_ref().map_or("-", |n| n.as_str())
                );
            }
        }
        for d in &cx.scene.devices {
            let fields: Vec<String> = d
                .fields
                .keys()
                .filter_map(|f| Some(format!("{f}={}", sim.field(&d.id, f)?)))
                .collect();
            let _ = writeln!(state, "{}: {}", d.id, fields.join(", "));
        }
        let prompt = fill(
            "director",
            &[
                ("state", &state),
                ("count", &format!("2 to {TURNS}")),
                (
                    "session",
                    &serde_json::to_string(session).unwrap_or_default(),
                ),
            ],
        );
        let names = self.names(cx);
        let schema = names.schema("director", &[], cx.days, TURNS);
        let accept = |r: reply::DirectorReply| -> Kept<Vec<Turn>> {
            let (mut out, mut dropped) = (Vec::new(), Vec::new());
            for (i, t) in r.turns.into_iter().enumerate() {
                let bad = names.invented(&t.intention);
                if !bad.is_empty() {
                    dropped.push(format!(
                        "turns[{i}].intention names {}, which the home does not have",
                        bad.join(", ")
                    ));
                    continue;
                }
                out.push(Turn {
                    actor: Id::new(&t.actor),
                    goal: Goal::Intent { text: t.intention },
                    not_before: None,
                    otherwise: None,
                });
            }
            if out.is_empty() {
                return Err(dropped);
            }
            Ok((out, dropped))
        };
        match self.ask(
            cx,
            "director",
            prompt,
            (schema, max_tokens(TURNS, 60)),
            &accept,
        )? {
            Ok(out) => Ok(out),
            Err(why) => self.fallback(
                cx,
                ("director", session.id.clone(), why),
                Some(vec![]),
                |s, cx| s.direct(cx, session, sim),
            ),
        }
    }

    fn act(
        &mut self,
        cx: &Context,
        sim: &Simulation,
        turn: &Turn,
        progress: &TurnProgress,
    ) -> Result<Proposal, GenError> {
        let fresh =
            progress.proposals == 0 && progress.feedback.is_none() && progress.last_ok.is_none();
        if fresh {
            self.steps.clear();
            self.queue.clear();
            self.then = Then::Continue;
            self.scripted_goal = None;
        }
        let goal = match &turn.goal {
            Goal::Intent { text } => text.clone(),
            // A goal the script staged is the script's to pursue.
            g => return self.script_act(cx, sim, turn, g.clone(), progress),
        };
        if let Some(g) = self.scripted_goal.clone() {
            return self.script_act(cx, sim, turn, g, progress);
        }
        self.source = Source::Llm;
        if let Some(e) = &progress.last_ok {
            let line = event_line(e);
            if self.steps.last() != Some(&line) {
                self.steps.push(line);
            }
        }
        if progress.feedback.is_some() {
            // A rejection drops the rest of the reply; its feedback opens
            // the next call.
            self.queue.clear();
        } else if let Some(req) = self.queue.pop_front() {
            return Ok(Proposal::Act(req));
        } else if !fresh {
            match &self.then {
                Then::Done => return Ok(Proposal::Done),
                Then::GiveUp(why) => return Ok(Proposal::GiveUp(why.clone())),
                Then::Continue => {}
            }
        }
        let feedback = progress.feedback.as_ref().map_or(String::new(), |r| {
            format!(
                "Your last step was rejected ({}): {}. Hint: {}",
                r.code, r.message, r.hint
            )
        });
        let prompt = fill(
            "actor",
            &[
                ("actor", turn.actor.as_str()),
                ("episode", &self.episode),
                ("view", &view(sim, &turn.actor)),
                ("goal", &goal),
                (
                    "history",
                    &if self.steps.is_empty() {
                        "(nothing yet)".into()
                    } else {
                        self.steps.join("\n")
                    },
                ),
                ("feedback", &feedback),
            ],
        );
        let actor = turn.actor.clone();
        let schema = self.names(cx).schema("actor", &[], cx.days, STEPS);
        let accept = |r: reply::ActorReply| -> Kept<(Vec<Request>, Then)> {
            let (ok, dropped) = steps_of(&actor, &r.steps);
            let then = match r.then.as_str() {
                "done" => Then::Done,
                "give_up" => Then::GiveUp(r.reason.unwrap_or_default()),
                _ => Then::Continue,
            };
            if ok.is_empty() && (!dropped.is_empty() || then == Then::Continue) {
                let mut p = dropped;
                if p.is_empty() {
                    p.push("no steps, and \"then\" is \"continue\": give the next step, or say done or give_up".into());
                }
                return Err(p);
            }
            Ok(((ok, then), dropped))
        };
        let (steps, then) = match self.ask(
            cx,
            "actor",
            prompt,
            (schema, max_tokens(STEPS, 80)),
            &accept,
        )? {
            Ok(out) => out,
            Err(why) => {
                let at = format!("{} {actor}", self.session);
                let goal = intent_goal(&self.names(cx), &goal);
                let give_up = Proposal::GiveUp(format!("no usable reply from the model: {why}"));
                let scripted = goal.clone();
                let out =
                    self.fallback(cx, ("actor", at, why), Some(give_up.clone()), |s, cx| {
                        match scripted {
                            Some(goal) => s.act(
                                cx,
                                sim,
                                &Turn {
                                    goal,
                                    ..turn.clone()
                                },
                                progress,
                            ),
                            // Nothing the script can do either: the turn ends.
                            None => Ok(give_up),
                        }
                    })?;
                if self.source == Source::Script {
                    self.scripted_goal = goal;
                }
                return Ok(out);
            }
        };
        self.queue = steps.into();
        self.then = then;
        Ok(match self.queue.pop_front() {
            Some(req) => Proposal::Act(req),
            None => match &self.then {
                Then::Done => Proposal::Done,
                Then::GiveUp(why) => Proposal::GiveUp(why.clone()),
                Then::Continue => Proposal::GiveUp("no steps".into()),
            },
        })
    }

    fn follow_ups(
        &mut self,
        cx: &Context,
        after: &Session,
        sim: &Simulation,
    ) -> Result<Vec<Session>, GenError> {
        // Only the script makes commitments (in sessions it staged).
        let Some(script) = &mut self.script else {
            return Ok(vec![]);
        };
        let mut out = script.follow_ups(cx, after, sim)?;
        for s in &mut out {
            s.source = Some(Source::Script);
        }
        Ok(out)
    }

    fn turn_done(&mut self, session: &Session, turn: &Turn, result: &Result<(), String>) {
        if let Some(script) = &mut self.script {
            script.turn_done(session, turn, result);
        }
    }

    fn notes(
        &mut self,
        cx: &Context,
        day: u32,
        events: &[Event],
        sim: &Simulation,
    ) -> Result<DayNotes, GenError> {
        let lines: Vec<String> = events
            .iter()
            .rev()
            .take(150)
            .rev()
            .map(event_line)
            .collect();
        let prompt = fill(
            "notes",
            &[("day", &day.to_string()), ("events", &lines.join("\n"))],
        );
        let schema = self.names(cx).schema("notes", &[], cx.days, 0);
        let accept = |r: reply::NotesReply| -> Kept<reply::NotesReply> { Ok((r, vec![])) };
        match self.ask(cx, "notes", prompt, (schema, 600), &accept)? {
            Ok(r) => {
                let mut notes = day_notes(day, events, sim);
                notes.preferences = r.preferences;
                notes.open_plans = r.open_plans;
                notes.summary = Some(r.summary);
                Ok(notes)
            }
            // Skipped: the computed notes stand without the model's words.
            Err(why) => self.fallback(
                cx,
                ("notes", format!("day {day}"), why),
                Some(day_notes(day, events, sim)),
                |s, cx| s.notes(cx, day, events, sim),
            ),
        }
    }
}

/// A one-shot call for a stage outside generation, with a filled prompt.
pub fn call(stage: &str, prompt: String, seed: u64) -> Call {
    Call {
        stage: stage.into(),
        messages: vec![
            Message::system(format!(
                "Stage: {stage}. Reply with one JSON object that matches this JSON schema, and nothing else:\n{}",
                schema(stage)
            )),
            Message::user(prompt),
        ],
        schema_name: stage.into(),
        schema: schema(stage),
        seed,
        max_tokens: None,
    }
}

/// Runs `calls` concurrently (up to the client's limit); replies come back
/// in the order of the calls, whatever order they arrive in.
pub fn complete_all(client: &Arc<LlmClient>, calls: Vec<Call>) -> Vec<Result<Value, LlmError>> {
    let (tx, rx) = crossbeam_channel::unbounded();
    let n = calls.len();
    for (i, c) in calls.into_iter().enumerate() {
        let tx = tx.clone();
        let stage = c.stage.clone();
        client.spawn(c, move |r| {
            let _ = tx.send((i, r.and_then(|r| r.into_value(&stage))));
        });
    }
    drop(tx);
    let mut out: Vec<Option<Result<Value, LlmError>>> = (0..n).map(|_| None).collect();
    for (i, r) in rx {
        out[i] = Some(r);
    }
    out.into_iter()
        .map(|r| r.unwrap_or_else(|| Err(LlmError::Setup("the LLM runtime stopped".into()))))
        .collect()
}

/// Rephrases templated questions through the LLM. Only the wording
/// changes: the structured answer never comes from an LLM.
pub fn rephrase(
    client: &Arc<LlmClient>,
    questions: &[String],
    seed: u64,
) -> Result<Vec<String>, LlmError> {
    let calls = questions
        .iter()
        .map(|q| call("rephrase", fill("rephrase", &[("question", q)]), seed))
        .collect();
    complete_all(client, calls)
        .into_iter()
        .map(|r| {
            r.and_then(|v| {
                serde_json::from_value::<reply::RephraseReply>(v)
                    .map(|r| r.question)
                    .map_err(|e| LlmError::Invalid {
                        stage: "rephrase".into(),
                        tries: 1,
                        why: e.to_string(),
                    })
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invented_names_are_id_shaped_words_the_home_lacks() {
        let s = crate::scene::parse("family_apartment", crate::scene::default_source()).unwrap();
        let names = Names::new(&s);
        let bad = names.invented(
            "take mug_1 and the kitchen_table_9 to nightstand_carol, say good_night at desk_lily.",
        );
        assert_eq!(bad.len(), 2, "{bad:?}");
        assert!(bad[0].starts_with("kitchen_table_9 (closest: "), "{bad:?}");
        assert!(
            bad[1].starts_with("nightstand_carol (closest: nightstand_"),
            "{bad:?}"
        );
        assert!(names.invented("walk over to sofa_1, then relax").is_empty());
        assert_eq!(
            intent_goal(&names, "walk over to sofa_1, then relax"),
            Some(Goal::GoTo {
                target: Id::new("sofa_1")
            })
        );
        assert_eq!(intent_goal(&names, "relax a while"), None);
    }

    fn step(skill: &str, target: Option<&str>) -> reply::Step {
        serde_json::from_value(json!({"skill": skill, "target": target, "object": null, "relation": null, "device": null,
            "field": null, "value": null, "to": null, "text": null, "seconds": null}))
        .unwrap()
    }

    #[test]
    fn actor_steps_are_read_or_dropped_with_why() {
        let alice = Id::new("alice");
        let (ok, problems) = steps_of(
            &alice,
            &[step("navigate_to", Some("sofa_1")), step("inspect", None)],
        );
        assert_eq!(ok.len(), 1);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].starts_with("steps[1]: "), "{problems:?}");
        assert_eq!(steps_of(&alice, &[]), (vec![], vec![]));
    }

    #[test]
    fn sessions_outside_the_day_or_without_people_are_named() {
        let item = |start: &str, people: &[&str]| reply::SessionItem {
            start: start.into(),
            kind: "tidy".into(),
            project: None,
            intent: String::new(),
            participants: people.iter().map(|p| p.to_string()).collect(),
        };
        assert!(session_problems(0, &item("22:59", &["alice"])).is_empty());
        for (start, people, want) in [
            (
                "23:00",
                &["alice"][..],
                "sessions[3].start \"23:00\" is not a time inside the day",
            ),
            ("7 pm", &["alice"][..], "sessions[3].start \"7 pm\""),
            ("08:00", &[][..], "sessions[3] (tidy) has no participants"),
        ] {
            let p = session_problems(3, &item(start, people));
            assert_eq!(p.len(), 1);
            assert!(p[0].starts_with(want), "{p:?}");
        }
    }

    #[test]
    fn stage_schemas_name_the_scene_and_the_items_wanted() {
        let s = crate::scene::parse("family_apartment", crate::scene::default_source()).unwrap();
        let names = Names::new(&s);
        let p = names.schema("projects", &[], 3, projects_wanted(3));
        let projects = &p["properties"]["projects"];
        assert_eq!(
            (&projects["minItems"], &projects["maxItems"]),
            (&json!(1), &json!(5))
        );
        let item = &projects["items"]["properties"];
        assert_eq!(item["start_day"]["minimum"], json!(1));
        assert_eq!(item["end_day"]["maximum"], json!(3));
        assert!(
            item["participants"]["items"]["enum"]
                .as_array()
                .unwrap()
                .contains(&json!("robot"))
        );
        assert!(
            item["kind"]["enum"]
                .as_array()
                .unwrap()
                .contains(&json!("meal_preparation"))
        );
        assert_eq!(projects_wanted(1), 3);
        assert_eq!(projects_wanted(30), 8);
        let a = names.schema("actor", &[], 3, STEPS);
        let step = &a["properties"]["steps"]["items"]["properties"];
        assert!(
            step["target"]["enum"]
                .as_array()
                .unwrap()
                .contains(&Value::Null)
        );
        assert!(
            step["value"]["anyOf"][0]["enum"]
                .as_array()
                .unwrap()
                .contains(&json!("delicates"))
        );
        let s = names.schema("sessions", &["p1".into()], 3, SESSIONS);
        assert_eq!(
            s["properties"]["sessions"]["items"]["properties"]["project"]["enum"],
            json!(["p1", null])
        );
    }
}
