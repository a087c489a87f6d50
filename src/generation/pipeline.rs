//! The closed loop: every stage of a [`Backend`] in order, day by day;
//! every proposal through the executor, a rejection back to the actor with
//! the executor's hint for a bounded number of retries; the notes carried
//! forward.

use std::collections::BTreeMap;

use super::grounding;
use super::stages::*;
use crate::ids::Id;
use crate::scene::{ActorKind, Scene};
use crate::sim::Simulation;
use crate::trace::{DAY, Event, Key, Value};

/// The notes every backend shares, computed from the day's events and the
/// state at its end: what changed (as it stands now), the last events, and
/// fact claims made today that the state contradicts.
pub fn day_notes(day: u32, events: &[Event], sim: &Simulation) -> DayNotes {
    let state = sim.state();
    let mut changed: BTreeMap<Key, Value> = BTreeMap::new();
    let mut claims: BTreeMap<Key, Value> = BTreeMap::new();
    for e in events.iter().filter(|e| e.outcome.is_ok()) {
        for c in e.changes.iter().filter(|c| c.attr.as_str() != "position") {
            let key = (c.entity.clone(), c.attr.clone());
            changed.insert(key.clone(), state[&key].clone());
        }
        if let crate::trace::request::Action::Say { claims: said, .. } = &e.action {
            for c in said
                .iter()
                .filter(|c| c.mode == crate::trace::ClaimMode::Fact)
            {
                claims.insert((c.entity.clone(), c.attr.clone()), c.value.clone());
            }
        }
    }
    let conflicts = claims
        .iter()
        .filter_map(|((entity, attr), said)| {
            let now = state.get(&(entity.clone(), attr.clone()))?;
            (now != said).then(|| format!("{entity}.{attr} was said to be {said} but is {now}"))
        })
        .collect();
    let mut recent: Vec<u64> = events
        .iter()
        .rev()
        .filter(|e| e.outcome.is_ok())
        .take(10)
        .map(|e| e.id)
        .collect();
    recent.reverse();
    DayNotes {
        day,
        changed_states: changed
            .into_iter()
            .map(|((entity, attr), value)| crate::trace::Fact {
                entity,
                attr,
                value,
            })
            .collect(),
        preferences: vec![],
        commitments: vec![],
        recent_events: recent,
        conflicts,
        open_plans: vec![],
        summary: None,
    }
}

/// What a generation run produced besides the events.
#[derive(Debug, Clone)]
pub struct Generated {
    pub plan: Plan,
    pub notes: Vec<DayNotes>,
}

/// Runs the whole pipeline for `days`, passing each event to `sink` as it
/// happens.
pub fn generate(
    scene: &Scene,
    days: u32,
    backend: &mut dyn Backend,
    sink: &mut dyn FnMut(&Event) -> Result<(), String>,
) -> Result<Generated, GenError> {
    let world = grounding::semantic_view(scene);
    let (humans, visitors): (Vec<_>, Vec<_>) = scene
        .actors
        .iter()
        .filter(|a| a.kind == ActorKind::Human)
        .partition(|a| !a.is_visitor());
    let ids = |v: Vec<&crate::scene::ActorDef>| v.into_iter().map(|a| a.id.clone()).collect();
    let (humans, visitors): (Vec<Id>, Vec<Id>) = (ids(humans), ids(visitors));
    let robot = scene
        .actors
        .iter()
        .find(|a| a.kind == ActorKind::Robot)
        .expect("validated scenes have a robot")
        .id
        .clone();
    let cx = Context {
        scene,
        world: &world,
        days,
        humans,
        visitors,
        robot,
    };
    let mut sim = Simulation::new(scene.clone()).map_err(|p| GenError::Backend {
        backend: backend.name().into(),
        stage: "world",
        message: format!("{} scene problems", p.len()),
    })?;
    let projects = backend.projects(&cx)?;
    let mut plan = Plan {
        schema: "hearth.plan".into(),
        schema_version: crate::trace::SCHEMA_VERSION,
        world: world.clone(),
        projects,
        beats: vec![],
        sessions: vec![],
        skipped_turns: vec![],
        misplacements: vec![],
    };
    let mut notes: Vec<DayNotes> = Vec::new();
    for day in 1..=days {
        let beats = backend.day_beats(&cx, &plan.projects, day)?;
        let sessions = backend.sessions(&cx, &plan.projects, &beats, day, notes.last())?;
        plan.beats.extend(beats);
        let mut day_events = Vec::new();
        let mut pending: std::collections::VecDeque<Session> = sessions.into();
        let mut staged = Vec::new();
        while let Some(mut session) = pending.pop_front() {
            sim.set_session(Some(session.id.clone()));
            sim.advance_to(session.start);
            let turns = backend.direct(&cx, &session, &sim)?;
            backend.restage(&mut session);
            let mut previous_failed = false;
            for turn in &turns {
                let alternative;
                let turn = match &turn.otherwise {
                    Some(goal) if previous_failed => {
                        alternative = Turn {
                            goal: goal.clone(),
                            otherwise: None,
                            ..turn.clone()
                        };
                        &alternative
                    }
                    _ => turn,
                };
                let outcome = run_turn(&cx, backend, &mut sim, turn, &mut |e| {
                    day_events.push(for_notes(e));
                    sink(e)
                })?;
                backend.turn_done(&session, turn, &outcome);
                previous_failed = outcome.is_err();
                if let Err(reason) = outcome {
                    plan.skipped_turns.push(SkippedTurn {
                        session: session.id.clone(),
                        actor: turn.actor.clone(),
                        goal: turn.goal.clone(),
                        reason,
                    });
                }
            }
            session.turns = turns;
            // Follow-ups (a commitment due later today) join the queue in time order.
            for extra in backend.follow_ups(&cx, &session, &sim)? {
                let at = pending.partition_point(|s| s.start <= extra.start);
                pending.insert(at, extra);
            }
            staged.push(session);
        }
        sim.set_session(None);
        plan.sessions.extend(staged);
        notes.push(backend.notes(&cx, day, &day_events, &sim)?);
        // Nothing may run past the day's end into tomorrow's plan.
        debug_assert!(sim.now() < u64::from(day) * DAY + DAY);
    }
    plan.misplacements = backend.misplacements();
    Ok(Generated { plan, notes })
}

/// An event as the day's notes keep it: without what it revealed (a whole
/// room's contents on every arrival), which no backend's notes read and
/// which would double the cost of keeping a day.
fn for_notes(e: &Event) -> Event {
    Event {
        id: e.id,
        day: e.day,
        t: e.t,
        time: e.time.clone(),
        dur: e.dur,
        session: e.session.clone(),
        kind: e.kind,
        actor: e.actor.clone(),
        action: e.action.clone(),
        outcome: e.outcome.clone(),
        changes: e.changes.clone(),
        observers: e.observers.clone(),
        heard_by: e.heard_by.clone(),
        via: e.via.clone(),
        reveals: vec![],
        revealed_to: vec![],
        mentions: e.mentions.clone(),
        source: e.source,
    }
}

/// The closed loop for one turn: propose, execute, feed rejections back.
fn run_turn(
    cx: &Context,
    backend: &mut dyn Backend,
    sim: &mut Simulation,
    turn: &Turn,
    sink: &mut dyn FnMut(&Event) -> Result<(), String>,
) -> Result<Result<(), String>, GenError> {
    let mut progress = TurnProgress::default();
    let mut retries = 0;
    loop {
        let proposal = backend.act(cx, sim, turn, &progress)?;
        let mut req = match proposal {
            Proposal::Done => return Ok(Ok(())),
            Proposal::GiveUp(why) => return Ok(Err(why)),
            Proposal::Act(req) => req,
        };
        progress.proposals += 1;
        if progress.proposals > MAX_PROPOSALS {
            return Ok(Err(format!("no progress after {MAX_PROPOSALS} proposals")));
        }
        let free = sim.busy_until(&req.actor).unwrap_or(0).max(sim.now());
        // The session's start is already on the clock (`advance_to`).
        let floor = turn.not_before.unwrap_or(0);
        if req.at.is_none() && floor > free {
            req.at = Some(floor);
        }
        let mut event = sim.execute(req);
        event.source = backend.source();
        sink(&event).map_err(GenError::Sink)?;
        match event.outcome.rejection() {
            None => {
                progress.feedback = None;
                progress.last_ok = Some(event);
            }
            Some(r) => {
                retries += 1;
                if retries > MAX_RETRIES {
                    return Ok(Err(format!(
                        "rejected {retries} times, last: {} ({})",
                        r.code, r.message
                    )));
                }
                progress.feedback = Some(r.clone());
            }
        }
    }
}
