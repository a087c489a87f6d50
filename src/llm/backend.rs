//! The LLM generation backend: every stage is a prompt from `prompts/`
//! with named placeholders, answered as JSON under a schema, then turned
//! into the pipeline's typed stage output. Ids the model invents are
//! dropped from plans, and rejected by the executor (with the nearest real
//! ones) when an actor proposes them.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::sync::Arc;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::generation::*;
use crate::ids::Id;
use crate::sim::Simulation;
use crate::sim::request::{Request, SKILLS};
use crate::trace::{DAY, Event, Location, clock_time};

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

/// The reply schema of each stage.
pub fn schema(stage: &str) -> Value {
    let names = |xs: Vec<String>| json!({"type": "string", "enum": xs});
    match stage {
        "projects" => object(
            json!({"projects": {"type": "array", "minItems": 1, "maxItems": 12, "items": object(json!({
                "id": {"type": "string"},
                "kind": names(ProjectType::ALL.iter().map(|k| serde_json::to_value(k).unwrap().as_str().unwrap().to_string()).collect()),
                "title": {"type": "string"},
                "participants": strings(),
                "entities": strings(),
                "memory_targets": {"type": "array", "items": names(MemoryTarget::ALL.iter().map(|k| serde_json::to_value(k).unwrap().as_str().unwrap().to_string()).collect())},
                "start_day": {"type": "integer", "minimum": 1},
                "end_day": {"type": "integer", "minimum": 1},
                "constraints": strings(),
            }))}}),
        ),
        "day_beats" => object(json!({"beats": {"type": "array", "items": object(json!({
            "project": {"type": "string"},
            "beat": names(["established", "continued", "interrupted", "recovered", "completed"].map(String::from).to_vec()),
            "summary": {"type": "string"},
        }))}})),
        "sessions" => object(
            json!({"sessions": {"type": "array", "minItems": 1, "maxItems": 16, "items": object(json!({
                "start": {"type": "string"},
                "kind": {"type": "string"},
                "project": nullable("string"),
                "intent": {"type": "string"},
                "participants": strings(),
            }))}}),
        ),
        "director" => object(
            json!({"turns": {"type": "array", "minItems": 1, "maxItems": 12, "items": object(json!({
                "actor": {"type": "string"},
                "intention": {"type": "string"},
            }))}}),
        ),
        "actor" => object(json!({
            "action": names(["act", "done", "give_up"].map(String::from).to_vec()),
            "skill": {"type": ["string", "null"], "enum": SKILLS.iter().map(|s| Value::String(s.to_string())).chain([Value::Null]).collect::<Vec<_>>()},
            "target": nullable("string"),
            "object": nullable("string"),
            "relation": {"type": ["string", "null"], "enum": ["on", "in", null]},
            "device": nullable("string"),
            "field": nullable("string"),
            "value": {"type": ["string", "number", "boolean", "null"]},
            "to": {"type": ["array", "null"], "items": {"type": "string"}},
            "text": nullable("string"),
            "seconds": {"type": ["integer", "null"], "minimum": 1},
            "reason": nullable("string"),
        })),
        "notes" => object(json!({
            "preferences": strings(),
            "open_plans": strings(),
            "summary": {"type": "string"},
        })),
        "rephrase" => object(json!({"question": {"type": "string"}})),
        "answer" => object(json!({"answer": {"type": "string"}})),
        "judge" => object(json!({
            "score": {"type": "integer", "minimum": 0, "maximum": 3},
            "reason": {"type": "string"},
        })),
        other => panic!("no schema for stage {other}"),
    }
}

/// The LLM backend (`openai`, and `replay` over a recorded cache).
pub struct LlmBackend {
    driver: LlmDriver,
    name: String,
    model: String,
    seed: u64,
    /// Steps of the current turn, for the actor prompt.
    steps: Vec<String>,
}

impl LlmBackend {
    pub fn new(client: Arc<LlmClient>, name: &str, seed: u64) -> Self {
        let model = client.config().model.clone();
        LlmBackend {
            driver: LlmDriver::new(client),
            name: name.into(),
            model,
            seed,
            steps: vec![],
        }
    }

    fn ask(&mut self, stage: &'static str, prompt: String) -> Result<Value, GenError> {
        self.driver
            .call(call(stage, prompt, self.seed))
            .map_err(|e| self.fail(stage, e))
    }

    fn fail(&self, stage: &'static str, e: LlmError) -> GenError {
        GenError::Backend {
            backend: self.name.clone(),
            stage,
            message: e.to_string(),
        }
    }
}

/// Every id of the scene: rooms, doors, fixtures, objects, actors.
fn known_ids(cx: &Context) -> BTreeSet<Id> {
    let s = cx.scene;
    s.rooms
        .iter()
        .map(|r| &r.id)
        .chain(s.doors.iter().map(|d| &d.id))
        .chain(s.furniture.iter().map(|f| &f.id))
        .chain(s.devices.iter().map(|d| &d.id))
        .chain(s.objects.iter().map(|o| &o.id))
        .chain(s.actors.iter().map(|a| &a.id))
        .cloned()
        .collect()
}

fn ids_in(v: &Value, known: &BTreeSet<Id>) -> Vec<Id> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(Id::new)
        .filter(|i| known.contains(i))
        .collect()
}

fn text(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

/// "HH:MM" → seconds since midnight.
fn clock(s: &str) -> Option<u64> {
    let (h, m) = s.trim().split_once(':')?;
    let (h, m): (u64, u64) = (h.parse().ok()?, m.get(..2).unwrap_or(m).parse().ok()?);
    (h < 24 && m < 60).then_some(h * 3600 + m * 60)
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

impl Backend for LlmBackend {
    fn name(&self) -> &str {
        &self.name
    }

    fn model(&self) -> Option<String> {
        Some(self.model.clone())
    }

    fn projects(&mut self, cx: &Context) -> Result<Vec<Project>, GenError> {
        let reply = self.ask(
            "projects",
            fill(
                "projects",
                &[("world", cx.world), ("days", &cx.days.to_string())],
            ),
        )?;
        let known = known_ids(cx);
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for (i, p) in reply["projects"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            let mut id = text(&p["id"]);
            if id.is_empty() || !seen.insert(id.clone()) {
                id = format!("p{}", i + 1);
                seen.insert(id.clone());
            }
            let start = p["start_day"]
                .as_u64()
                .unwrap_or(1)
                .clamp(1, u64::from(cx.days)) as u32;
            out.push(Project {
                id,
                kind: serde_json::from_value(p["kind"].clone())
                    .map_err(|e| self.fail("projects", LlmError::Setup(e.to_string())))?,
                title: text(&p["title"]),
                participants: ids_in(&p["participants"], &known),
                entities: ids_in(&p["entities"], &known),
                memory_targets: serde_json::from_value(p["memory_targets"].clone())
                    .unwrap_or_default(),
                start_day: start,
                end_day: (p["end_day"].as_u64().unwrap_or(u64::from(cx.days)) as u32)
                    .clamp(start, cx.days),
                constraints: p["constraints"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(text)
                    .collect(),
            });
        }
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
        let reply = self.ask(
            "day_beats",
            fill(
                "day_beats",
                &[
                    ("day", &day.to_string()),
                    ("days", &cx.days.to_string()),
                    (
                        "projects",
                        &serde_json::to_string_pretty(&active).unwrap_or_default(),
                    ),
                    ("notes", "(see sessions)"),
                ],
            ),
        )?;
        let ids: BTreeSet<&str> = active.iter().map(|p| p.id.as_str()).collect();
        let mut out = Vec::new();
        for b in reply["beats"].as_array().into_iter().flatten() {
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
        let reply = self.ask(
            "sessions",
            fill(
                "sessions",
                &[
                    ("day", &day.to_string()),
                    ("world", cx.world),
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
            ),
        )?;
        let known = known_ids(cx);
        let actors: BTreeSet<&Id> = cx.scene.actors.iter().map(|a| &a.id).collect();
        let base = u64::from(day - 1) * DAY;
        let mut planned: Vec<(u64, &Value)> = reply["sessions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| Some((clock(s["start"].as_str()?)?, s)))
            .collect();
        planned.sort_by_key(|(t, _)| *t);
        let mut out = Vec::new();
        let mut last = base;
        for (at, s) in planned {
            // Sessions keep order and spacing, and stay within the day.
            let start = (base + at).max(last + 300);
            if start >= base + DAY - 3600 {
                break;
            }
            last = start;
            let project = s["project"]
                .as_str()
                .filter(|p| projects.iter().any(|x| x.id == *p));
            out.push(Session {
                id: format!("d{day}s{:02}", out.len() + 1),
                day,
                start,
                kind: text(&s["kind"]),
                project: project.map(String::from),
                intent: text(&s["intent"]),
                participants: ids_in(&s["participants"], &known)
                    .into_iter()
                    .filter(|a| actors.contains(a))
                    .collect(),
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
        let reply = self.ask(
            "director",
            fill(
                "director",
                &[
                    ("world", cx.world),
                    ("state", &state),
                    (
                        "session",
                        &serde_json::to_string(session).unwrap_or_default(),
                    ),
                ],
            ),
        )?;
        let actors: BTreeSet<&Id> = cx.scene.actors.iter().map(|a| &a.id).collect();
        Ok(reply["turns"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| {
                let actor = Id::new(t["actor"].as_str()?);
                actors.contains(&actor).then(|| Turn {
                    actor,
                    goal: Goal::Intent {
                        text: text(&t["intention"]),
                    },
                    not_before: None,
                    otherwise: None,
                })
            })
            .collect())
    }

    fn act(
        &mut self,
        _cx: &Context,
        sim: &Simulation,
        turn: &Turn,
        progress: &TurnProgress,
    ) -> Result<Proposal, GenError> {
        if progress.proposals == 0 && progress.feedback.is_none() {
            self.steps.clear();
        }
        if let Some(e) = &progress.last_ok {
            let line = event_line(e);
            if self.steps.last() != Some(&line) {
                self.steps.push(line);
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
                ("world", &grounding::semantic_view(sim.scene())),
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
        let reply = self.ask("actor", prompt)?;
        Ok(match reply["action"].as_str() {
            Some("done") => Proposal::Done,
            Some("give_up") => Proposal::GiveUp(text(&reply["reason"])),
            _ => {
                // The flat reply becomes a request in the executor's schema;
                // its shape is checked like any script line.
                let skill = text(&reply["skill"]);
                let mut args = serde_json::Map::new();
                for k in [
                    "target", "object", "relation", "device", "field", "value", "to", "text",
                    "seconds",
                ] {
                    if !reply[k].is_null() {
                        args.insert(k.into(), reply[k].clone());
                    }
                }
                let line = json!({"actor": turn.actor, "skill": skill, "args": args});
                match Request::from_json(&line.to_string()) {
                    Ok(req) => Proposal::Act(req),
                    Err(e) => Proposal::GiveUp(format!("a step the executor cannot read: {e}")),
                }
            }
        })
    }

    fn notes(
        &mut self,
        _cx: &Context,
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
        let reply = self.ask(
            "notes",
            fill(
                "notes",
                &[("day", &day.to_string()), ("events", &lines.join("\n"))],
            ),
        )?;
        let mut notes = day_notes(day, events, sim);
        notes.preferences = reply["preferences"]
            .as_array()
            .into_iter()
            .flatten()
            .map(text)
            .collect();
        notes.open_plans = reply["open_plans"]
            .as_array()
            .into_iter()
            .flatten()
            .map(text)
            .collect();
        notes.summary = Some(text(&reply["summary"]));
        Ok(notes)
    }
}

/// A one-shot call for `stage` with a filled prompt.
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
        client.spawn(c, move |r| {
            let _ = tx.send((i, r));
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
