//! The LLM generation backend: every stage is a prompt from `prompts/`
//! with named placeholders, answered as JSON under a schema whose `enum`s
//! hold the scene's real ids, checked for sense (participants present,
//! times inside the day, goals naming things that exist), then turned into
//! the pipeline's typed stage output. A reply that stays unusable after its
//! re-asks is skipped and recorded, and the day goes on; only projects and
//! a day's sessions are indispensable.
//!
//! Prompts are ordered stable-first (instructions, the home, the stage's
//! instructions and schema, then the persona, the day, the turn), so a
//! server's prefix cache reuses most of each call.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write as _;
use std::sync::Arc;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::generation::*;
use crate::ids::Id;
use crate::scene::{FieldDef, Scene};
use crate::sim::Simulation;
use crate::trace::request::{Request, SKILLS};
use crate::trace::{DAY, Event, LlmReport, LlmSkip, Location, clock_time};

use super::client::{Call, LlmClient, LlmError, Message};
use super::plugin::LlmDriver;

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

/// Re-asks after a reply that parses but does not fit the home.
const REASKS: u32 = 2;

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

fn strings() -> Value {
    json!({"type": "array", "items": {"type": "string"}})
}

fn nullable(t: &str) -> Value {
    json!({"type": [t, "null"]})
}

fn object(props: Value) -> Value {
    let required: Vec<&String> = props.as_object().expect("props").keys().collect();
    json!({"type": "object", "additionalProperties": false, "required": required, "properties": props})
}

/// A string from `names`.
fn one_of(names: &[String]) -> Value {
    json!({"type": "string", "enum": names})
}

/// A string from `names`, or null.
fn one_of_or_null(names: &[String]) -> Value {
    let mut options: Vec<Value> = names.iter().map(|n| json!(n)).collect();
    options.push(Value::Null);
    json!({"type": ["string", "null"], "enum": options})
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

/// The reply schema of the stages outside generation.
pub fn schema(stage: &str) -> Value {
    match stage {
        "rephrase" => object(json!({"question": {"type": "string"}})),
        "answer" => object(json!({"answer": {"type": "string"}})),
        "judge" => object(json!({
            "score": {"type": "integer", "minimum": 0, "maximum": 3},
            "reason": {"type": "string"},
        })),
        other => panic!("no schema for stage {other}"),
    }
}

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

    /// The reply schema of a generation stage; `projects` are the ids a
    /// session or beat may name.
    pub fn schema(&self, stage: &str, projects: &[String]) -> Value {
        let actors = json!({"type": "array", "items": one_of(&self.actors)});
        match stage {
            "projects" => object(
                json!({"projects": {"type": "array", "minItems": 1, "maxItems": 12, "items": object(json!({
                    "id": {"type": "string"},
                    "kind": one_of(&wire_names(&ProjectType::ALL)),
                    "title": {"type": "string"},
                    "participants": actors,
                    "entities": {"type": "array", "items": one_of(&self.things)},
                    "memory_targets": {"type": "array", "items": one_of(&wire_names(&MemoryTarget::ALL))},
                    "start_day": {"type": "integer", "minimum": 1},
                    "end_day": {"type": "integer", "minimum": 1},
                    "constraints": strings(),
                }))}}),
            ),
            "day_beats" => object(json!({"beats": {"type": "array", "items": object(json!({
                "project": one_of(projects),
                "beat": one_of(&["established", "continued", "interrupted", "recovered", "completed"].map(String::from)),
                "summary": {"type": "string"},
            }))}})),
            "sessions" => object(
                json!({"sessions": {"type": "array", "minItems": 1, "maxItems": 16, "items": object(json!({
                    "start": {"type": "string"},
                    "kind": {"type": "string"},
                    "project": one_of_or_null(projects),
                    "intent": {"type": "string"},
                    "participants": actors,
                }))}}),
            ),
            "director" => object(
                json!({"turns": {"type": "array", "minItems": 1, "maxItems": 12, "items": object(json!({
                    "actor": one_of(&self.actors),
                    "intention": {"type": "string"},
                }))}}),
            ),
            "actor" => {
                let mut options: Vec<Value> = self.options.iter().map(|o| json!(o)).collect();
                options.dedup();
                let step = object(json!({
                    "skill": one_of(&SKILLS.iter().map(|s| s.to_string()).collect::<Vec<_>>()),
                    "target": one_of_or_null(&self.targets),
                    "object": one_of_or_null(&self.objects),
                    "relation": {"type": ["string", "null"], "enum": ["on", "in", null]},
                    "device": one_of_or_null(&self.devices),
                    "field": one_of_or_null(&self.fields),
                    "value": {"anyOf": [{"type": "string", "enum": options}, {"type": "number"}, {"type": "boolean"}, {"type": "null"}]},
                    "to": {"type": ["array", "null"], "items": one_of(&self.actors)},
                    "text": nullable("string"),
                    "seconds": {"type": ["integer", "null"], "minimum": 1},
                }));
                object(json!({
                    "steps": {"type": "array", "maxItems": 8, "items": step},
                    "then": one_of(&["continue", "done", "give_up"].map(String::from)),
                    "reason": nullable("string"),
                }))
            }
            "notes" => object(json!({
                "preferences": strings(),
                "open_plans": strings(),
                "summary": {"type": "string"},
            })),
            other => panic!("no schema for stage {other}"),
        }
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

/// How a reply to a stage came out.
enum Answer {
    Ok(Value),
    /// Schema-valid, but still not fitting the home after the re-asks.
    Flawed(Value, String),
    /// No usable reply after the re-asks.
    Failed(String),
}

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
    /// The previous call's prompt, for the prefix-reuse figure.
    last_prompt: String,
    report: LlmReport,
}

impl LlmBackend {
    pub fn new(client: Arc<LlmClient>, name: &str, seed: u64) -> Self {
        let (model, max_skipped) = (client.config().model.clone(), client.config().max_skipped);
        LlmBackend {
            driver: LlmDriver::new(client),
            name: name.into(),
            model,
            seed,
            max_skipped,
            names: None,
            project_ids: vec![],
            session: String::new(),
            episode: String::new(),
            steps: vec![],
            queue: VecDeque::new(),
            then: Then::Continue,
            last_prompt: String::new(),
            report: LlmReport::default(),
        }
    }

    /// Cost per stage, prefix reuse and skips so far.
    pub fn report(&self) -> &LlmReport {
        &self.report
    }

    fn names(&mut self, cx: &Context) -> Arc<Names> {
        Arc::clone(
            self.names
                .get_or_insert_with(|| Arc::new(Names::new(cx.scene))),
        )
    }

    /// Asks `stage` and checks the reply with `check`, sending problems
    /// back up to [`REASKS`] times. `Err` only when the exchange itself
    /// failed (unreachable endpoint, budget spent): that ends the trace.
    fn ask(
        &mut self,
        cx: &Context,
        stage: &'static str,
        prompt: String,
        check: &dyn Fn(&Value) -> Vec<String>,
    ) -> Result<Answer, GenError> {
        let schema = self.names(cx).schema(stage, &self.project_ids);
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
            };
            self.note_prompt(&call);
            let reply = self
                .driver
                .call(call)
                .map_err(|e| self.fail(stage, e.to_string()))?;
            let cost = self.report.stages.entry(stage.into()).or_default();
            cost.calls += 1;
            cost.requests += reply.cost.requests;
            cost.prompt_tokens += reply.cost.prompt_tokens;
            cost.completion_tokens += reply.cost.completion_tokens;
            cost.repairs += reply.cost.repairs;
            cost.reasks += reply.cost.reasks;
            let v = match reply.value {
                Ok(v) => v,
                Err(why) => return Ok(Answer::Failed(why)),
            };
            let problems = check(&v);
            if problems.is_empty() {
                return Ok(Answer::Ok(v));
            }
            let problems = problems.join("; ");
            if round == REASKS {
                return Ok(Answer::Flawed(v, problems));
            }
            cost.reasks += 1;
            messages.push(Message {
                role: "assistant".into(),
                content: v.to_string(),
            });
            messages.push(Message::user(format!(
                "That reply does not fit the home: {problems}. Reply again with the whole JSON object, corrected."
            )));
        }
        unreachable!("the last round returns")
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
}

fn ids_in(v: &Value) -> Vec<Id> {
    let mut seen = BTreeSet::new();
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter(|s| seen.insert(*s))
        .map(Id::new)
        .collect()
}

fn text(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

fn items<'a>(v: &'a Value, k: &str) -> impl Iterator<Item = &'a Value> {
    v[k].as_array().into_iter().flatten()
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
fn session_problems(i: usize, s: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let start = text(&s["start"]);
    if clock(&start).is_none_or(|t| t >= LAST_START) {
        out.push(format!(
            "sessions[{i}].start {start:?} is not a time inside the day (HH:MM, 00:00 to 22:59)"
        ));
    }
    if items(s, "participants").next().is_none() {
        out.push(format!(
            "sessions[{i}] ({}) has no participants; name at least one person or the robot",
            text(&s["kind"])
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
/// cannot read is a problem to send back.
fn steps_of(actor: &Id, reply: &Value) -> (Vec<Request>, Vec<String>) {
    let (mut ok, mut problems) = (Vec::new(), Vec::new());
    for (i, step) in items(reply, "steps").enumerate() {
        let mut args = serde_json::Map::new();
        for k in [
            "target", "object", "relation", "device", "field", "value", "to", "text", "seconds",
        ] {
            if !step[k].is_null() {
                args.insert(k.into(), step[k].clone());
            }
        }
        let line = json!({"actor": actor, "skill": step["skill"], "args": args});
        match Request::from_json(&line.to_string()) {
            Ok(r) => ok.push(r),
            Err(e) => problems.push(format!("steps[{i}]: {e}")),
        }
    }
    if ok.is_empty() && problems.is_empty() && reply["then"] == "continue" {
        problems.push(
            "no steps, and \"then\" is \"continue\": give the next step, or say done or give_up"
                .into(),
        );
    }
    (ok, problems)
}

impl Backend for LlmBackend {
    fn name(&self) -> &str {
        &self.name
    }

    fn model(&self) -> Option<String> {
        Some(self.model.clone())
    }

    fn projects(&mut self, cx: &Context) -> Result<Vec<Project>, GenError> {
        let days = cx.days;
        let check = move |v: &Value| {
            let mut out = Vec::new();
            for (i, p) in items(v, "projects").enumerate() {
                if items(p, "participants").next().is_none() {
                    out.push(format!(
                        "projects[{i}].participants is empty; name who takes part"
                    ));
                }
                let (a, b) = (p["start_day"].as_u64(), p["end_day"].as_u64());
                if a > b || a > Some(u64::from(days)) {
                    out.push(format!(
                        "projects[{i}] runs from day {} to day {}; days are 1 to {days}, start before end",
                        a.unwrap_or(0),
                        b.unwrap_or(0)
                    ));
                }
            }
            out
        };
        let prompt = fill("projects", &[("days", &days.to_string())]);
        let reply = match self.ask(cx, "projects", prompt, &check)? {
            Answer::Ok(v) => v,
            Answer::Flawed(_, why) | Answer::Failed(why) => {
                return Err(self.fail("projects", why));
            }
        };
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for (i, p) in items(&reply, "projects").enumerate() {
            let mut id = text(&p["id"]);
            if id.is_empty() || !seen.insert(id.clone()) {
                id = format!("p{}", i + 1);
                seen.insert(id.clone());
            }
            let start = p["start_day"]
                .as_u64()
                .unwrap_or(1)
                .clamp(1, u64::from(days)) as u32;
            out.push(Project {
                id,
                kind: serde_json::from_value(p["kind"].clone())
                    .map_err(|e| self.fail("projects", e.to_string()))?,
                title: text(&p["title"]),
                participants: ids_in(&p["participants"]),
                entities: ids_in(&p["entities"]),
                memory_targets: serde_json::from_value(p["memory_targets"].clone())
                    .unwrap_or_default(),
                start_day: start,
                end_day: (p["end_day"].as_u64().unwrap_or(u64::from(days)) as u32)
                    .clamp(start, days),
                constraints: items(p, "constraints").map(text).collect(),
            });
        }
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
        let reply = match self.ask(cx, "day_beats", prompt, &|_| vec![])? {
            Answer::Ok(v) | Answer::Flawed(v, _) => v,
            Answer::Failed(why) => {
                self.skip("day_beats", format!("day {day}"), why)?;
                return Ok(vec![]);
            }
        };
        let ids: BTreeSet<&str> = active.iter().map(|p| p.id.as_str()).collect();
        let mut out = Vec::new();
        for b in items(&reply, "beats") {
            let project = text(&b["project"]);
            if !ids.contains(project.as_str()) || out.iter().any(|x: &DayBeat| x.project == project)
            {
                continue;
            }
            out.push(DayBeat {
                day,
                project,
                beat: serde_json::from_value(b["beat"].clone()).unwrap_or(Beat::Continued),
                summary: text(&b["summary"]),
            });
        }
        Ok(out)
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
        let check = |v: &Value| {
            items(v, "sessions")
                .enumerate()
                .flat_map(|(i, s)| session_problems(i, s))
                .collect()
        };
        let reply = match self.ask(cx, "sessions", prompt, &check)? {
            Answer::Ok(v) | Answer::Flawed(v, _) => v,
            Answer::Failed(why) => {
                return Err(self.fail("sessions", format!("day {day}: {why}")));
            }
        };
        // Sessions still wrong after the re-asks are skipped; the rest stand.
        let mut planned = Vec::new();
        for (i, s) in items(&reply, "sessions").enumerate() {
            let problems = session_problems(i, s);
            match clock(&text(&s["start"])) {
                Some(at) if problems.is_empty() => planned.push((at, s)),
                _ => self.skip("sessions", format!("day {day}"), problems.join("; "))?,
            }
        }
        if planned.is_empty() {
            return Err(self.fail("sessions", format!("day {day}: no usable session")));
        }
        planned.sort_by_key(|(t, _)| *t);
        let base = u64::from(day - 1) * DAY;
        let mut out = Vec::new();
        let mut last = base;
        for (at, s) in planned {
            // Sessions keep order and spacing, and stay within the day.
            let start = (base + at).max(last + 300);
            if start >= base + LAST_START {
                break;
            }
            last = start;
            out.push(Session {
                id: format!("d{day}s{:02}", out.len() + 1),
                day,
                start,
                kind: text(&s["kind"]),
                project: s["project"]
                    .as_str()
                    .filter(|p| projects.iter().any(|x| x.id == *p))
                    .map(String::from),
                intent: text(&s["intent"]),
                participants: ids_in(&s["participants"]),
                params: BTreeMap::new(),
                turns: vec![],
            });
        }
        Ok(out)
    }

    fn direct(
        &mut self,
        cx: &Context,
        session: &Session,
        sim: &Simulation,
    ) -> Result<Vec<Turn>, GenError> {
        self.session = session.id.clone();
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
                (
                    "session",
                    &serde_json::to_string(session).unwrap_or_default(),
                ),
            ],
        );
        let names = self.names(cx);
        let turn_problems = |i: usize, t: &Value| -> Option<String> {
            let bad = names.invented(&text(&t["intention"]));
            (!bad.is_empty()).then(|| {
                format!(
                    "turns[{i}].intention names {}, which the home does not have",
                    bad.join(", ")
                )
            })
        };
        let check = |v: &Value| {
            items(v, "turns")
                .enumerate()
                .filter_map(|(i, t)| turn_problems(i, t))
                .collect()
        };
        let reply = match self.ask(cx, "director", prompt, &check)? {
            Answer::Ok(v) => v,
            Answer::Flawed(v, why) => {
                // The turns that fit are staged; the others are skipped.
                self.skip("director", session.id.clone(), why)?;
                v
            }
            Answer::Failed(why) => {
                self.skip("director", session.id.clone(), why)?;
                return Ok(vec![]);
            }
        };
        Ok(items(&reply, "turns")
            .enumerate()
            .filter(|(i, t)| turn_problems(*i, t).is_none())
            .map(|(_, t)| Turn {
                actor: Id::new(&text(&t["actor"])),
                goal: Goal::Intent {
                    text: text(&t["intention"]),
                },
                not_before: None,
                otherwise: None,
            })
            .collect())
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
        }
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
        let goal = match &turn.goal {
            Goal::Intent { text } => text.clone(),
            g => serde_json::to_string(g).unwrap_or_default(),
        };
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
        let at = format!("{} {actor}", self.session);
        let reply = match self.ask(cx, "actor", prompt, &|v| steps_of(&actor, v).1)? {
            Answer::Ok(v) => v,
            Answer::Flawed(_, why) | Answer::Failed(why) => {
                self.skip("actor", at, why.clone())?;
                return Ok(Proposal::GiveUp(format!(
                    "no usable reply from the model: {why}"
                )));
            }
        };
        self.queue = steps_of(&actor, &reply).0.into();
        self.then = match reply["then"].as_str() {
            Some("done") => Then::Done,
            Some("give_up") => Then::GiveUp(text(&reply["reason"])),
            _ => Then::Continue,
        };
        Ok(match self.queue.pop_front() {
            Some(req) => Proposal::Act(req),
            None if self.then == Then::Done => Proposal::Done,
            None => Proposal::GiveUp(text(&reply["reason"])),
        })
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
        let mut notes = day_notes(day, events, sim);
        let reply = match self.ask(cx, "notes", prompt, &|_| vec![])? {
            Answer::Ok(v) | Answer::Flawed(v, _) => v,
            Answer::Failed(why) => {
                // The computed notes stand without the model's words.
                self.skip("notes", format!("day {day}"), why)?;
                return Ok(notes);
            }
        };
        notes.preferences = items(&reply, "preferences").map(text).collect();
        notes.open_plans = items(&reply, "open_plans").map(text).collect();
        notes.summary = Some(text(&reply["summary"]));
        Ok(notes)
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
        .map(|r| r.map(|v| text(&v["question"])))
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
    }

    #[test]
    fn actor_steps_are_read_or_sent_back() {
        let step = |skill: &str, target: Value| {
            json!({"skill": skill, "target": target, "object": null, "relation": null, "device": null,
                "field": null, "value": null, "to": null, "text": null, "seconds": null})
        };
        let alice = Id::new("alice");
        let (ok, problems) = steps_of(
            &alice,
            &json!({"steps": [step("navigate_to", json!("sofa_1")), step("inspect", Value::Null)], "then": "done"}),
        );
        assert_eq!(ok.len(), 1);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].starts_with("steps[1]: "), "{problems:?}");
        let (ok, problems) = steps_of(&alice, &json!({"steps": [], "then": "continue"}));
        assert!(
            ok.is_empty() && problems[0].contains("no steps"),
            "{problems:?}"
        );
        assert_eq!(
            steps_of(&alice, &json!({"steps": [], "then": "done"})),
            (vec![], vec![])
        );
    }

    #[test]
    fn sessions_outside_the_day_or_without_people_are_named() {
        let ok = json!({"start": "22:59", "kind": "bedtime", "participants": ["alice"]});
        assert!(session_problems(0, &ok).is_empty());
        for (start, people, want) in [
            (
                "23:00",
                json!(["alice"]),
                "sessions[3].start \"23:00\" is not a time inside the day",
            ),
            ("7 pm", json!(["alice"]), "sessions[3].start \"7 pm\""),
            ("08:00", json!([]), "sessions[3] (tidy) has no participants"),
        ] {
            let p = session_problems(
                3,
                &json!({"start": start, "kind": "tidy", "participants": people}),
            );
            assert_eq!(p.len(), 1);
            assert!(p[0].starts_with(want), "{p:?}");
        }
    }
}
