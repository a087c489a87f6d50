//! The generation stages, each a prompt whose reply is read into the
//! stage's output: projects, day beats, sessions, the director's turns,
//! the actor's steps (queued and proposed one by one) and the day's notes.
//! Sessions the script staged are directed and acted by the script.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde_json::json;

use crate::generation::{
    Backend, Beat, Context, DayBeat, DayNotes, GenError, Goal, Misplacement, Project, ProjectType,
    Proposal, Session, Turn, TurnProgress, day_notes,
};
use crate::ids::Id;
use crate::llm::prompts::fill;
use crate::llm::reply;
use crate::sim::Simulation;
use crate::trace::request::Request;
use crate::trace::{DAY, Event, Source, clock_time};

use super::ask::Kept;
use super::checks::{LAST_START, clock, ids_in, intent_goal, session_problems, steps_of};
use super::context::{event_line, first, recent, view};
use super::{LlmBackend, Then};

/// Sessions asked for one day (at most), turns for one session, steps for
/// one actor reply.
pub const SESSIONS: u64 = 10;
pub const TURNS: u64 = 6;
pub const STEPS: u64 = 4;

/// Projects asked for a trace of `days`: a few for a short trace, one per
/// project type for a week or more.
pub fn projects_wanted(days: u32) -> u64 {
    (u64::from(days) + 2).min(ProjectType::ALL.len() as u64)
}

/// A project in one line: id, kind, title, days, who.
fn project_line(p: &Project) -> String {
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
fn note_lines(n: &DayNotes) -> Vec<String> {
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
fn max_tokens(items: u64, per_item: u64) -> u32 {
    (128 + items * per_item) as u32
}

impl LlmBackend {
    /// `stage`'s prompt with `values` and the worked example's names filled.
    fn prompt(&mut self, cx: &Context, stage: &str, values: &[(&str, &str)]) -> String {
        let names = self.names(cx);
        let project = self
            .project_ids
            .first()
            .cloned()
            .unwrap_or_else(|| "p1".into());
        let mut all: Vec<(&str, &str)> = values.to_vec();
        all.extend(names.example.iter().map(|(k, v)| (*k, v.as_str())));
        all.push(("project", &project));
        fill(stage, &all)
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
        let prompt = self.prompt(
            cx,
            "projects",
            &[("days", &days.to_string()), ("count", &want.to_string())],
        );
        let out = match self.ask(
            cx,
            "projects",
            prompt,
            (schema, max_tokens(want, 120)),
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
        let skeleton = self.prompt(
            cx,
            "day_beats",
            &[("day", &day.to_string()), ("days", &cx.days.to_string())],
        );
        let lines: Vec<String> = active.iter().map(|p| project_line(p)).collect();
        let room = self.room(cx, &skeleton, max_tokens(want, 70));
        let prompt = skeleton.replace("{{projects}}", &first(&lines, room));
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
        let skeleton = self.prompt(
            cx,
            "sessions",
            &[
                ("day", &day.to_string()),
                ("count", &format!("4 to {SESSIONS}")),
            ],
        );
        // Today's projects first, then what yesterday left open, then the
        // rest of the notes, each trimmed to what the context leaves.
        let today: Vec<String> = projects
            .iter()
            .filter(|p| (p.start_day..=p.end_day).contains(&day))
            .map(|p| {
                let beat = beats
                    .iter()
                    .find(|b| b.project == p.id)
                    .map_or(String::new(), |b| {
                        format!(
                            ": today {}, {}",
                            json!(b.beat).as_str().unwrap_or(""),
                            b.summary
                        )
                    });
                format!("{}{beat}", project_line(p))
            })
            .collect();
        // The household's calendar comes first: who is out when, the
        // chores, parcels and visitors, as the script keeps them.
        let calendar = self.script(cx).calendar(cx, day);
        let mut room = self.room(cx, &skeleton, max_tokens(SESSIONS, 90));
        let calendar_text = first(&calendar, room * 2 / 3);
        room -= calendar_text.len().min(room);
        let beats_text = first(&today, room / 2);
        room -= beats_text.len().min(room);
        let notes_text = notes.map_or("(the first day)".into(), |n| first(&note_lines(n), room));
        let prompt = skeleton
            .replace("{{calendar}}", &calendar_text)
            .replace("{{beats}}", &beats_text)
            .replace("{{notes}}", &notes_text);
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
        let episode = self.episode.clone();
        let skeleton = self.prompt(
            cx,
            "director",
            &[("count", &format!("2 to {TURNS}")), ("session", &episode)],
        );
        let lines: Vec<String> = state.lines().map(String::from).collect();
        let room = self.room(cx, &skeleton, max_tokens(TURNS, 60));
        let prompt = skeleton.replace("{{state}}", &first(&lines, room));
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
        let episode = self.episode.clone();
        let skeleton = self.prompt(
            cx,
            "actor",
            &[
                ("actor", turn.actor.as_str()),
                ("episode", &episode),
                ("goal", &goal),
                ("feedback", &feedback),
            ],
        );
        // What it sees first, then the latest of what it did.
        let mut room = self.room(cx, &skeleton, max_tokens(STEPS, 80));
        let seen: Vec<String> = view(sim, &turn.actor).lines().map(String::from).collect();
        let seen = first(&seen, room * 2 / 3);
        room -= seen.len().min(room);
        let history = if self.steps.is_empty() {
            "(nothing yet)".into()
        } else {
            recent(&self.steps, room)
        };
        let prompt = skeleton
            .replace("{{view}}", &seen)
            .replace("{{history}}", &history);
        let actor = turn.actor.clone();
        let mut schema = self.names(cx).schema("actor", &[], cx.days, STEPS);
        super::names::without_no_ops(&mut schema, |d, f| {
            sim.field(d, f).and_then(|v| serde_json::to_value(v).ok())
        });
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
        let lines: Vec<String> = events.iter().map(event_line).collect();
        let skeleton = self.prompt(cx, "notes", &[("day", &day.to_string())]);
        let room = self.room(cx, &skeleton, 600);
        let prompt = skeleton.replace("{{events}}", &recent(&lines, room));
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
