//! The generation stages, each a prompt whose reply is read into the
//! stage's output: projects, day beats, sessions, the director's turns,
//! the actor's steps (queued and proposed one by one) and the day's notes.
//! Sessions the script staged are directed and acted by the script.

use std::collections::BTreeSet;

use serde_json::json;

use crate::generation::{
    Backend, Beat, Context, DayBeat, DayNotes, GenError, Misplacement, Project, ProjectType,
    Proposal, Session, Turn, TurnProgress, day_notes,
};
use crate::ids::Id;
use crate::llm::prompts::fill;
use crate::llm::reply;
use crate::sim::Simulation;
use crate::trace::{Event, Source};

use super::LlmBackend;
use super::ask::Kept;
use super::checks::ids_in;
use super::context::{event_line, first, recent};

/// Sessions asked for one day (at most), turns for one session, steps for
/// one actor reply.
pub const SESSIONS: u64 = 5;
pub const TURNS: u64 = 6;
pub const STEPS: u64 = 4;

/// Projects asked for a trace of `days`: a few for a short trace, one per
/// project type for a week or more.
pub fn projects_wanted(days: u32) -> u64 {
    (u64::from(days) + 2).min(ProjectType::ALL.len() as u64)
}

/// A project in one line: id, kind, title, days, who.
pub(super) fn project_line(p: &Project) -> String {
    let who: Vec<&str> = p.participants.iter().map(Id::as_str).collect();
    format!(
        "{} ({}) \"{}\", days {} to {}, with {}",
        p.id,
        json!(p.kind).as_str().unwrap_or(""),
        p.title,
        p.start_day,
        p.end_day,
        who.join(", ")
    )
}

/// Yesterday's notes as lines, what matters most first: plans still open
/// and commitments, preferences, the summary, then states and conflicts.
pub(super) fn note_lines(n: &DayNotes) -> Vec<String> {
    let mut out: Vec<String> = n
        .open_plans
        .iter()
        .map(|p| format!("open plan: {p}"))
        .collect();
    out.extend(n.commitments.iter().map(|c| {
        format!(
            "commitment: {}",
            serde_json::to_string(c).unwrap_or_default()
        )
    }));
    out.extend(n.preferences.iter().map(|p| format!("preference: {p}")));
    out.extend(n.summary.iter().map(|s| format!("day {}: {s}", n.day)));
    out.extend(n.conflicts.iter().map(|c| format!("conflict: {c}")));
    out.extend(
        n.changed_states
            .iter()
            .map(|f| format!("now: {}", serde_json::to_string(f).unwrap_or_default())),
    );
    out
}

/// The reply length allowed for `items` items of about `per_item` tokens:
/// enough for every item, not for a runaway list.
pub(super) fn max_tokens(items: u64, per_item: u64) -> u32 {
    (128 + items * per_item) as u32
}

impl LlmBackend {
    /// `stage`'s prompt with `values` filled, and the stage's worked
    /// example for this trace's seed.
    pub(super) fn prompt(&mut self, stage: &str, values: &[(&str, &str)]) -> String {
        let example = crate::llm::prompts::example(stage, self.seed);
        let mut all: Vec<(&str, &str)> = values.to_vec();
        all.push(("example", &example));
        fill(stage, &all)
    }
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
    fn misplacements(&mut self) -> Vec<Misplacement> {
        self.script
            .as_mut()
            .map(|s| s.misplacements())
            .unwrap_or_default()
    }

    fn projects(&mut self, cx: &Context) -> Result<Vec<Project>, GenError> {
        let days = cx.days;
        let want = projects_wanted(days);
        let schema = self.names(cx).schema("projects", &[], days, want);
        // Words that repeat the example are another home's: a title falls
        // back to the project's kind, a constraint is left out.
        let echoes = std::cell::Cell::new(0u64);
        let echo = |t: &str| {
            let e = crate::llm::prompts::echoes_example("projects", t);
            echoes.set(echoes.get() + u64::from(e));
            e
        };
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
                let title = if echo(&p.title) {
                    json!(kind).as_str().unwrap_or("").replace('_', " ")
                } else {
                    p.title
                };
                out.push(Project {
                    id,
                    kind,
                    title,
                    participants,
                    entities: ids_in(&p.entities),
                    memory_targets: p
                        .memory_targets
                        .iter()
                        .filter_map(|t| serde_json::from_value(json!(t)).ok())
                        .collect(),
                    start_day: start,
                    end_day: (p.end_day.clamp(1, days.into()) as u32).max(start),
                    constraints: p.constraints.into_iter().filter(|c| !echo(c)).collect(),
                });
            }
            if out.is_empty() {
                dropped.push("no usable project".into());
                return Err(dropped);
            }
            Ok((out, dropped))
        };
        let prompt = self.prompt(
            "projects",
            &[("days", &days.to_string()), ("count", &want.to_string())],
        );
        let reply = self.ask(
            cx,
            "projects",
            prompt,
            (schema, max_tokens(want, 120)),
            &accept,
        )?;
        self.report.lived.echoes += echoes.get();
        let out = match reply {
            Ok(out) => out,
            Err(why) => {
                let out = self.fallback(
                    cx,
                    ("projects", "the household".into(), why),
                    None,
                    |s, cx| s.projects(cx),
                )?;
                // The script's own projects: the ones it frames the days with.
                self.script_projects = Some(out.clone());
                out
            }
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
        let skeleton = self.prompt(
            "day_beats",
            &[("day", &day.to_string()), ("days", &cx.days.to_string())],
        );
        let lines: Vec<String> = active.iter().map(|p| project_line(p)).collect();
        let room = self.room(cx, &skeleton, max_tokens(want, 70));
        let prompt = skeleton.replace("{{projects}}", &first(&lines, room));
        let echoes = std::cell::Cell::new(0u64);
        let accept = |r: reply::BeatsReply| -> Kept<Vec<DayBeat>> {
            let (mut out, mut dropped) = (Vec::<DayBeat>::new(), Vec::new());
            for (i, b) in r.beats.into_iter().enumerate() {
                if out.iter().any(|x| x.project == b.project) {
                    dropped.push(format!("beats[{i}]: a second beat for {}", b.project));
                    continue;
                }
                // A summary that repeats the example is another home's.
                let echo = crate::llm::prompts::echoes_example("day_beats", &b.summary);
                echoes.set(echoes.get() + u64::from(echo));
                out.push(DayBeat {
                    day,
                    beat: serde_json::from_value(json!(b.beat)).unwrap_or(Beat::Continued),
                    project: b.project,
                    summary: if echo { String::new() } else { b.summary },
                });
            }
            if out.is_empty() {
                return Err(vec!["no beat for any project active today".into()]);
            }
            Ok((out, dropped))
        };
        let reply = self.ask(
            cx,
            "day_beats",
            prompt,
            (schema, max_tokens(want, 70)),
            &accept,
        )?;
        self.report.lived.echoes += echoes.get();
        match reply {
            Ok(out) => Ok(out),
            Err(why) => {
                let out = self.fallback(
                    cx,
                    ("day_beats", format!("day {day}"), why),
                    Some(vec![]),
                    |s, cx| s.day_beats(cx, projects, day),
                )?;
                // The script's own beats, when these are its projects: the
                // frame is drawn from them, not drawn again.
                if self.source == Source::Script
                    && self
                        .script_projects
                        .as_deref()
                        .is_some_and(|p| p == projects)
                {
                    self.script_beats = Some((day, out.clone()));
                }
                Ok(out)
            }
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
        self.plan_day(cx, projects, beats, day, notes)
    }

    fn direct(
        &mut self,
        cx: &Context,
        session: &Session,
        sim: &Simulation,
    ) -> Result<Vec<Turn>, GenError> {
        self.direct_session(cx, session, sim)
    }

    fn restage(&mut self, session: &mut Session) {
        if let Some(intent) = self.restaged.take() {
            session.intent = intent;
            session.directed = Some(Source::Llm);
        }
    }

    fn act(
        &mut self,
        cx: &Context,
        sim: &Simulation,
        turn: &Turn,
        progress: &TurnProgress,
    ) -> Result<Proposal, GenError> {
        self.act_turn(cx, sim, turn, progress)
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
        let lines: Vec<String> = events.iter().map(event_line).collect();
        let skeleton = self.prompt("notes", &[("day", &day.to_string())]);
        // A day's event lines are ids and clock times, denser in tokens
        // than the 3 characters a token `room` assumes (about 2.5 with
        // SmolLM2's tokenizer: a 2-day house overflowed 8,192 by 9%).
        let room = self.room(cx, &skeleton, 600) * 5 / 6;
        let prompt = skeleton.replace("{{events}}", &recent(&lines, room));
        let schema = self.names(cx).schema("notes", &[], cx.days, 0);
        // What repeats the example is another home's, not this day's.
        let echoes = std::cell::Cell::new(0u64);
        let accept = |mut r: reply::NotesReply| -> Kept<reply::NotesReply> {
            let echo = |t: &String| {
                let e = crate::llm::prompts::echoes_example("notes", t);
                echoes.set(echoes.get() + u64::from(e));
                e
            };
            let mut dropped = vec![];
            for list in [&mut r.preferences, &mut r.open_plans] {
                list.retain(|t| {
                    let keep = !echo(t);
                    if !keep {
                        dropped.push(format!("{t:?} repeats the example"));
                    }
                    keep
                });
            }
            if echo(&r.summary) {
                return Err(vec![
                    "summary repeats the example, which is another home's day; write this day's"
                        .into(),
                ]);
            }
            Ok((r, dropped))
        };
        let reply = self.ask(cx, "notes", prompt, (schema, 600), &accept)?;
        self.report.lived.echoes += echoes.get();
        match reply {
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
