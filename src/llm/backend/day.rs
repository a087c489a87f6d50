//! A day of the LLM backend inside the household's calendar. The day
//! starts from the calendar's sessions, which the script frames with its
//! own projects ([`Frame`]); the model adds sessions of its own in the
//! free time of the people at home ([`Frame::place`] moves or drops what
//! clashes, with why), and directs every session: its own, and each frame
//! session, whose calendar turns it writes in its own words where it
//! names the same things ([`frame::merge`]). Leaving, coming back and
//! what the household says that carries facts stay the calendar's.

use std::fmt::Write as _;

use serde_json::json;

use crate::generation::frame::{self, Frame, anchored};
use crate::generation::{
    Backend, Context, DayBeat, DayNotes, Dest, GenError, Goal, Kind, Project, Session, Turn,
};
use crate::ids::Id;
use crate::llm::reply;
use crate::sim::Simulation;
use crate::trace::{DAY, LlmSkip, Source, clock_time};

use super::LlmBackend;
use super::ask::Kept;
use super::checks::{clock, ids_in, session_problems};
use super::context::first;
use super::stages::{SESSIONS, TURNS, max_tokens, note_lines, project_line};

/// `HH:MM` of a trace time.
fn hhmm(t: u64) -> String {
    clock_time(t)[..5].to_string()
}

/// A frame session's line in the sessions prompt.
fn session_line(s: &Session) -> String {
    let who: Vec<&str> = s.participants.iter().map(Id::as_str).collect();
    format!("{} {}: {}", hhmm(s.start), s.kind, who.join(", "))
}

/// A goal of the calendar's, in words.
fn goal_words(actor: &Id, g: &Goal) -> Option<String> {
    Some(match g {
        Goal::Leave { to, take, .. } => {
            let to = json!(to);
            let with = if take.is_empty() {
                String::new()
            } else {
                let t: Vec<&str> = take.iter().map(Id::as_str).collect();
                format!(" with {}", t.join(", "))
            };
            format!("{actor} leaves for {}{with}", to.as_str().unwrap_or("out"))
        }
        Goal::Arrive { bring, .. } => {
            let b: Vec<&str> = bring.iter().map(Id::as_str).collect();
            if b.is_empty() {
                format!("{actor} comes in")
            } else {
                format!("{actor} comes in with {}", b.join(", "))
            }
        }
        Goal::Standby { .. } => format!("{actor} docks"),
        _ => return None,
    })
}

/// The ids the calendar's turns are about (their things and who is
/// spoken to), each once, at most a dozen.
fn things_of(turns: &[Turn]) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    let mut add = |id: &Id| {
        if !out.iter().any(|o| o == id.as_str()) {
            out.push(id.to_string());
        }
    };
    for t in turns {
        match &t.goal {
            Goal::Fetch { object, to } => {
                add(object);
                match to {
                    Dest::Actor(a) | Dest::On(a) | Dest::In(a) => add(a),
                }
            }
            Goal::Operate { device, .. } => add(device),
            Goal::GoTo { target }
            | Goal::Inspect { target }
            | Goal::Use { object: target }
            | Goal::Write { object: target, .. }
            | Goal::SetOpen { target, .. } => add(target),
            Goal::Say { to, .. } => to.iter().for_each(&mut add),
            _ => {}
        }
    }
    out.truncate(12);
    out
}

impl LlmBackend {
    /// The day as the calendar frames it: the script's sessions, planned
    /// with the script's own projects and beats.
    fn frame(
        &mut self,
        cx: &Context,
        day: u32,
        notes: Option<&DayNotes>,
    ) -> Result<Frame, GenError> {
        if self.script_projects.is_none() {
            let p = self.script(cx).projects(cx)?;
            self.script_projects = Some(p);
        }
        let projects = self.script_projects.clone().unwrap_or_default();
        let beats = match self.script_beats.take() {
            Some((d, beats)) if d == day => beats,
            _ => self.script(cx).day_beats(cx, &projects, day)?,
        };
        self.script(cx).frame(cx, &projects, &beats, day, notes)
    }

    /// The day's sessions: the frame's, and the model's own placed in the
    /// free time.
    pub(super) fn plan_day(
        &mut self,
        cx: &Context,
        projects: &[Project],
        beats: &[DayBeat],
        day: u32,
        notes: Option<&DayNotes>,
    ) -> Result<Vec<Session>, GenError> {
        let mut frame = self.frame(cx, day, notes)?;
        for s in &mut frame.sessions {
            s.source = Some(Source::Script);
            // The script's projects are not the trace's.
            s.project = None;
        }
        let skeleton = self.prompt(
            "sessions",
            &[
                ("day", &day.to_string()),
                ("count", &format!("2 to {SESSIONS}")),
            ],
        );
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
        // The calendar in words, then its sessions; the free time of those
        // who have any.
        let mut calendar = self.script(cx).calendar(cx, day);
        calendar.extend(frame.sessions.iter().map(session_line));
        let free: Vec<String> = frame
            .free()
            .into_iter()
            .filter(|(_, spans)| !spans.is_empty())
            .map(|(who, spans)| {
                let spans: Vec<String> = spans
                    .iter()
                    .map(|(a, b)| format!("{}-{}", hhmm(*a), hhmm(*b)))
                    .collect();
                format!("{who}: {}", spans.join(", "))
            })
            .collect();
        // The free time first: it is where the model's sessions go.
        let mut room = self.room(cx, &skeleton, max_tokens(SESSIONS, 90));
        let free_text = first(&free, room / 2);
        room -= free_text.len().min(room);
        let calendar_text = first(&calendar, room * 2 / 3);
        room -= calendar_text.len().min(room);
        let beats_text = first(&today, room / 2);
        room -= beats_text.len().min(room);
        let notes_text = notes.map_or("(the first day)".into(), |n| first(&note_lines(n), room));
        let prompt = skeleton
            .replace("{{calendar}}", &calendar_text)
            .replace("{{free}}", &free_text)
            .replace("{{beats}}", &beats_text)
            .replace("{{notes}}", &notes_text);
        let ids: Vec<String> = projects.iter().map(|p| p.id.clone()).collect();
        let names = self.names(cx);
        let schema = names.schema("sessions", &ids, cx.days, SESSIONS);
        let base = u64::from(day - 1) * DAY;
        let accept = |r: reply::SessionsReply| -> Kept<Vec<Session>> {
            let (mut out, mut dropped) = (Vec::new(), Vec::new());
            for (i, s) in r.sessions.into_iter().enumerate() {
                let mut problems = session_problems(i, &s);
                if out.iter().any(|o: &Session| {
                    o.kind == s.kind.as_str()
                        && o.intent == s.intent
                        && clock(&s.start) == Some(o.start - base)
                }) {
                    problems.push(format!("sessions[{i}] repeats an earlier one"));
                }
                if Kind::of_name(&s.kind).known().is_some() {
                    problems.push(format!(
                        "sessions[{i}].kind {} is the calendar's, which has its own; name a kind of your own",
                        s.kind
                    ));
                }
                let invented = names.invented(&s.intent);
                if !invented.is_empty() {
                    problems.push(format!(
                        "sessions[{i}].intent names {}, which the home does not have",
                        invented.join(", ")
                    ));
                }
                match clock(&s.start) {
                    Some(at) if problems.is_empty() => out.push(Session {
                        id: String::new(),
                        day,
                        start: base + at,
                        kind: Kind::from(s.kind),
                        project: s.project,
                        intent: s.intent,
                        participants: ids_in(&s.participants),
                        params: Default::default(),
                        turns: vec![],
                        source: Some(Source::Llm),
                        directed: None,
                    }),
                    _ => dropped.extend(problems),
                }
            }
            if out.is_empty() {
                dropped.push("no usable session".into());
                return Err(dropped);
            }
            Ok((out, dropped))
        };
        let wanted = match self.ask(
            cx,
            "sessions",
            prompt,
            (schema, max_tokens(SESSIONS, 90)),
            &accept,
        )? {
            Ok(w) => w,
            // The frame stands alone.
            Err(why) => self.fallback(
                cx,
                ("sessions", format!("day {day}"), why),
                Some(vec![]),
                |_, _| Ok(vec![]),
            )?,
        };
        self.report.lived.asked += wanted.len() as u64;
        // Named for what they take up until the day's ids are given.
        let wanted = wanted
            .into_iter()
            .enumerate()
            .map(|(i, s)| Session {
                id: format!("d{day}m{:02}", i + 1),
                ..s
            })
            .collect();
        let placed = frame.place(wanted);
        let note = |p: &frame::Placed| LlmSkip {
            stage: "sessions".into(),
            at: format!("day {} {} {}", p.day, p.asked, p.kind),
            reason: format!(
                "{} is {} then{}",
                p.who,
                match &p.taken {
                    frame::Taken::Out => "out".to_string(),
                    frame::Taken::Asleep => "asleep".to_string(),
                    frame::Taken::Session { id } => format!("in session {id}"),
                },
                p.at.as_ref()
                    .map_or(String::new(), |t| format!("; moved to {t}"))
            ),
        };
        let lived = &mut self.report.lived;
        lived.moved.extend(placed.moved.iter().map(note));
        lived.dropped.extend(placed.dropped.iter().map(note));
        let mut all = frame.sessions;
        all.extend(placed.kept);
        // The frame's first at the same minute: it was there first.
        all.sort_by_key(|s| (s.start, s.source != Some(Source::Script)));
        for (n, s) in all.iter_mut().enumerate() {
            s.id = format!("d{day}s{:02}", n + 1);
        }
        Ok(all)
    }

    /// What the director prompt says of a frame session: what the
    /// calendar has in it, what it is about, and what stays as it is.
    fn slot(session: &Session, calendar: &[Turn]) -> String {
        let mut out = String::new();
        let intent = session
            .kind
            .known()
            .map_or(session.intent.as_str(), |k| k.intent());
        let _ = write!(out, "It is on the household's calendar: {intent}.");
        let params: Vec<String> = session
            .params
            .entries()
            .iter()
            .filter(|(k, _)| {
                !matches!(k.as_str(), "beat" | "take" | "dust" | "asked_in" | "parcel")
            })
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        if !params.is_empty() {
            let _ = write!(out, " ({})", params.join("; "));
        }
        let things = things_of(calendar);
        if !things.is_empty() {
            let _ = write!(out, "\nIt is about: {}.", things.join(", "));
        }
        let kept: Vec<String> = calendar
            .iter()
            .filter(|t| anchored(&t.goal))
            .filter_map(|t| goal_words(&t.actor, &t.goal))
            .collect();
        if !kept.is_empty() {
            let _ = write!(
                out,
                "\nKept as the calendar says (write what happens around it): {}.",
                kept.join("; ")
            );
        }
        out
    }

    /// Directs a session: the model's turns; in a frame session, merged
    /// with the calendar's.
    pub(super) fn direct_session(
        &mut self,
        cx: &Context,
        session: &Session,
        sim: &Simulation,
    ) -> Result<Vec<Turn>, GenError> {
        self.session = session.id.clone();
        self.restaged = None;
        self.set.clear();
        self.look(cx, sim);
        let calendar = match session.source {
            Some(Source::Script) => Some(self.script(cx).direct(cx, session, sim)?),
            _ => None,
        };
        // Nothing happens in it today (someone just in does not go out).
        if calendar.as_ref().is_some_and(Vec::is_empty) {
            return Ok(vec![]);
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
        let slot = calendar
            .as_deref()
            .map_or(String::new(), |c| Self::slot(session, c));
        let skeleton = self.prompt(
            "director",
            &[
                ("count", &format!("2 to {TURNS}")),
                ("session", &episode),
                ("slot", &slot),
            ],
        );
        let lines: Vec<String> = state.lines().map(String::from).collect();
        let room = self.room(cx, &skeleton, max_tokens(TURNS, 60));
        let prompt = skeleton.replace("{{state}}", &first(&lines, room));
        let names = self.names(cx);
        let schema = names.schema("director", &[], cx.days, TURNS);
        // The slot's own words back are not the model's: what the
        // calendar has in the session, or the session's intent.
        let slot_words = session
            .kind
            .known()
            .filter(|_| calendar.is_some())
            .map_or(session.intent.clone(), |k| k.intent().to_string());
        let echoes = std::cell::Cell::new(0u64);
        let echo = |text: &str| {
            let e = crate::llm::prompts::repeats(text, &slot_words);
            echoes.set(echoes.get() + u64::from(e));
            e
        };
        let accept = |r: reply::DirectorReply| -> Kept<(String, Vec<Turn>)> {
            let (mut out, mut dropped) = (Vec::new(), Vec::new());
            for (i, t) in r.turns.into_iter().enumerate() {
                if echo(&t.intention) {
                    dropped.push(format!(
                        "turns[{i}].intention repeats the episode's line; write what {} does here",
                        t.actor
                    ));
                    continue;
                }
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
                    goal: Goal::Intent {
                        text: t.intention,
                        fallback: None,
                    },
                    not_before: None,
                    otherwise: None,
                });
            }
            if out.is_empty() {
                return Err(dropped);
            }
            let intent = if names.invented(&r.intent).is_empty() && !echo(&r.intent) {
                r.intent.trim().to_string()
            } else {
                String::new()
            };
            Ok(((intent, out), dropped))
        };
        let reply = self.ask(
            cx,
            "director",
            prompt,
            (schema, max_tokens(TURNS, 60)),
            &accept,
        )?;
        self.report.lived.echoes += echoes.get();
        let (intent, turns) = match reply {
            Ok(r) => r,
            Err(why) => {
                // The calendar's turns as they are; a session of the
                // model's own has no script to fall back on.
                let kept = calendar.unwrap_or_default();
                let skip = kept.clone();
                return self.fallback(
                    cx,
                    ("director", session.id.clone(), why),
                    Some(skip),
                    move |_, _| Ok(kept),
                );
            }
        };
        let Some(calendar) = calendar else {
            return Ok(turns);
        };
        let known = names.ids();
        let merged = frame::merge(cx.scene, calendar, turns, &|a: &Id| !sim.is_out(a), &known);
        let lived = &mut self.report.lived;
        lived.directed += 1;
        lived.replaced += merged.replaced as u64;
        lived.added += merged.added as u64;
        lived.spoken += merged.spoken as u64;
        lived.turns_dropped += merged.dropped.len() as u64;
        for d in &merged.dropped {
            tracing::debug!("{}: dropped a turn: {d}", session.id);
        }
        if !intent.is_empty() {
            self.restaged = Some(intent);
        }
        Ok(merged.turns)
    }
}
