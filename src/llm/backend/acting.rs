//! The actor stage: a turn's intention turned into steps by the model,
//! queued and proposed one by one after grounding ([`super::ground`]).
//! The script pursues what the model leaves out: the calendar's goal of a
//! frame turn the model's steps left unmet, or, where the model gave
//! nothing usable, what the script makes of the intention.

use crate::generation::frame;
use crate::generation::{Backend, Context, GenError, Goal, Proposal, Turn, TurnProgress};
use crate::llm::reply;
use crate::sim::Simulation;
use crate::trace::Source;
use crate::trace::request::{Action, Request};

use super::ask::Kept;
use super::checks::{intent_goal, steps_of};
use super::context::{event_line, first, recent, view};
use super::ground::{Ground, key};
use super::stages::{STEPS, max_tokens};
use super::{LlmBackend, Then, TurnState};

impl LlmBackend {
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

    /// The model's part of a turn is over (`outcome`): the script pursues
    /// the calendar's goal the turn took the place of, if it is still
    /// unmet (the script's errand is done at once if it is met).
    fn end_turn(
        &mut self,
        cx: &Context,
        sim: &Simulation,
        turn: &Turn,
        outcome: Proposal,
    ) -> Result<Proposal, GenError> {
        let fallback = match &turn.goal {
            Goal::Intent { fallback, .. } => fallback.as_deref().cloned(),
            _ => None,
        };
        match fallback {
            // The words were said, in the model's own.
            Some(Goal::Say { .. }) if self.turn.spoke => Ok(outcome),
            Some(goal) => {
                self.turn.scripted_goal = Some(goal.clone());
                // A fresh start for the script: the model's refusals are
                // not its to answer.
                self.script_act(cx, sim, turn, goal, &TurnProgress::default())
            }
            None => Ok(outcome),
        }
    }

    /// Proposes `req` as the model's.
    fn propose(&mut self, req: Request) -> Proposal {
        self.source = Source::Llm;
        if let Action::SetDeviceState { device, field, .. } = &req.action {
            self.set.insert((
                req.actor.clone(),
                device.clone(),
                crate::ids::Id::new(field),
            ));
        }
        self.turn.spoke |= matches!(req.action, Action::Say { .. });
        self.turn.last = Some(req.clone());
        Proposal::Act(req)
    }

    /// The next of the queued steps, grounded; `None` once the queue is
    /// empty.
    fn next_queued(
        &mut self,
        cx: &Context,
        sim: &Simulation,
        turn: &Turn,
    ) -> Result<Option<Proposal>, GenError> {
        let robot = turn.actor == cx.robot;
        while let Some(req) = self.turn.queue.front().cloned() {
            match self.ground(sim, &req, robot) {
                Ground::Ready => {
                    self.turn.queue.pop_front();
                    self.turn.walks = 0;
                    return Ok(Some(self.propose(req)));
                }
                Ground::Walk(w) => {
                    self.turn.walks += 1;
                    self.report.lived.walks += 1;
                    return Ok(Some(self.propose(w)));
                }
                Ground::Skip(why) => {
                    self.turn.queue.pop_front();
                    self.turn.walks = 0;
                    self.report.lived.no_ops += 1;
                    self.turn
                        .steps
                        .push(format!("(left out, it changes nothing: {why})"));
                }
                Ground::Again => {
                    self.turn.queue.clear();
                    self.report.lived.ended += 1;
                    let why = format!("asked again for a refused {}", req.action.skill_name());
                    return self
                        .end_turn(cx, sim, turn, Proposal::GiveUp(why))
                        .map(Some);
                }
            }
        }
        Ok(None)
    }

    pub(super) fn act_turn(
        &mut self,
        cx: &Context,
        sim: &Simulation,
        turn: &Turn,
        progress: &TurnProgress,
    ) -> Result<Proposal, GenError> {
        let fresh =
            progress.proposals == 0 && progress.feedback.is_none() && progress.last_ok.is_none();
        if fresh {
            self.turn = TurnState::default();
        }
        let goal = match &turn.goal {
            Goal::Intent { text, .. } => text.clone(),
            // A goal the script staged is the script's to pursue.
            g => return self.script_act(cx, sim, turn, g.clone(), progress),
        };
        if let Some(g) = self.turn.scripted_goal.clone() {
            return self.script_act(cx, sim, turn, g, progress);
        }
        if let Some((to, gist)) = frame::said_in(&turn.goal) {
            let (to, gist) = (to.clone(), gist.clone());
            if fresh {
                return self.words(cx, sim, turn, to, &gist);
            }
            // Said (or walked towards whom to say it to): what is queued,
            // then done.
            if progress.feedback.is_none()
                && let Some(p) = self.next_queued(cx, sim, turn)?
            {
                return Ok(p);
            }
            return self.end_turn(cx, sim, turn, Proposal::Done);
        }
        self.source = Source::Llm;
        if let Some(e) = &progress.last_ok {
            let line = event_line(e);
            if self.turn.steps.last() != Some(&line) {
                self.turn.steps.push(line);
            }
        }
        if progress.feedback.is_some() {
            // A rejection drops the rest of the reply; its feedback opens
            // the next call, and the request is not made again this turn.
            self.turn.queue.clear();
            if let Some(last) = self.turn.last.take() {
                self.turn.refused.insert(key(&last));
                self.refused_before.insert(key(&last));
            }
        } else {
            if let Some(p) = self.next_queued(cx, sim, turn)? {
                return Ok(p);
            }
            if !fresh {
                match self.turn.then.clone() {
                    Then::Done => return self.end_turn(cx, sim, turn, Proposal::Done),
                    Then::GiveUp(why) => {
                        return self.end_turn(cx, sim, turn, Proposal::GiveUp(why));
                    }
                    Then::Continue => {}
                }
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
        let history = if self.turn.steps.is_empty() {
            "(nothing yet)".into()
        } else {
            recent(&self.turn.steps, room)
        };
        let prompt = skeleton
            .replace("{{view}}", &seen)
            .replace("{{history}}", &history);
        let actor = turn.actor.clone();
        let names = self.names(cx);
        let mut schema = names.schema("actor", &[], cx.days, STEPS);
        super::names::without_no_ops(&mut schema, |d, f| {
            sim.field(d, f).and_then(|v| serde_json::to_value(v).ok())
        });
        // The steps are about what the intention names (and the calendar's
        // goal it took the place of).
        let known = names.ids();
        let mut about: Vec<String> = frame::named(&goal, &known)
            .into_iter()
            .map(|i| i.to_string())
            .collect();
        if let Goal::Intent {
            fallback: Some(g), ..
        } = &turn.goal
        {
            about.extend(frame::about(g).into_iter().map(|i| i.to_string()));
        }
        // An intention that names nothing: what is around the actor.
        if about.is_empty() {
            about = around(sim, &turn.actor);
        }
        super::names::narrow_to(&mut schema, &about);
        let echoes = std::cell::Cell::new(0u64);
        let accept = |r: reply::ActorReply| -> Kept<(Vec<Request>, Then)> {
            let (mut ok, mut dropped) = steps_of(&actor, &r.steps);
            ok.retain(|req| match &req.action {
                Action::Say { text, .. }
                    if crate::llm::prompts::echoes_example("actor", text) =>
                {
                    echoes.set(echoes.get() + 1);
                    dropped.push(format!(
                        "say {text:?} repeats the example, which is another home's; say what {actor} would say here"
                    ));
                    false
                }
                _ => true,
            });
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
        let reply = self.ask(
            cx,
            "actor",
            prompt,
            (schema, max_tokens(STEPS, 80)),
            &accept,
        )?;
        self.report.lived.echoes += echoes.get();
        let (steps, then) = match reply {
            Ok(out) => out,
            Err(why) => {
                // The calendar's goal, else what the script makes of the
                // intention (the first thing of the home it names).
                let at = format!("{} {actor}", self.session);
                let scripted = match &turn.goal {
                    Goal::Intent {
                        fallback: Some(g), ..
                    } => Some((**g).clone()),
                    _ => intent_goal(&self.names(cx), &goal),
                };
                let give_up = Proposal::GiveUp(format!("no usable reply from the model: {why}"));
                let goal = scripted.clone();
                let out =
                    self.fallback(cx, ("actor", at, why), Some(give_up.clone()), |s, cx| {
                        match goal {
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
                    self.turn.scripted_goal = scripted;
                    return Ok(out);
                }
                // Skipped: the model's part goes, the calendar's goal stays.
                if let Goal::Intent {
                    fallback: Some(g), ..
                } = &turn.goal
                {
                    let g = (**g).clone();
                    self.turn.scripted_goal = Some(g.clone());
                    return self.script_act(cx, sim, turn, g, &TurnProgress::default());
                }
                return Ok(out);
            }
        };
        self.turn.queue = steps.into();
        self.turn.then = then;
        if let Some(p) = self.next_queued(cx, sim, turn)? {
            return Ok(p);
        }
        // Every step was left out: what the reply said comes next.
        match self.turn.then.clone() {
            Then::Done => self.end_turn(cx, sim, turn, Proposal::Done),
            Then::GiveUp(why) => self.end_turn(cx, sim, turn, Proposal::GiveUp(why)),
            Then::Continue => self.end_turn(
                cx,
                sim,
                turn,
                Proposal::GiveUp("every step would change nothing".into()),
            ),
        }
    }

    /// A calendar line that carries no fact, in the model's words (the
    /// `words` stage): said to whom the calendar has it said. A reply that
    /// repeats the calendar's line, or says nothing usable, leaves the
    /// line to the script.
    fn words(
        &mut self,
        cx: &Context,
        sim: &Simulation,
        turn: &Turn,
        to: Vec<crate::ids::Id>,
        gist: &str,
    ) -> Result<Proposal, GenError> {
        let listeners: Vec<&str> = to.iter().map(|t| t.as_str()).collect();
        let listeners = if listeners.is_empty() {
            "whoever is here".to_string()
        } else {
            listeners.join(" and ")
        };
        let room = sim
            .position(&turn.actor)
            .map_or(String::from("the house"), |p| p.room.to_string());
        let now = sim.now().max(sim.busy_until(&turn.actor).unwrap_or(0));
        let episode = self.episode.clone();
        let prompt = self.prompt(
            "words",
            &[
                ("actor", turn.actor.as_str()),
                ("room", &room),
                ("time", &crate::trace::clock_time(now)[..5]),
                ("episode", &episode),
                ("to", &listeners),
                ("gist", gist),
            ],
        );
        let schema = self.names(cx).schema("words", &[], cx.days, 1);
        let accept = |r: reply::WordsReply| -> Kept<String> {
            let text = r.text.trim().to_string();
            if text.is_empty() {
                return Err(vec!["text is empty: write what is said".into()]);
            }
            Ok((text, vec![]))
        };
        let said = match self.ask(cx, "words", prompt, (schema, 96), &accept)? {
            Ok(text) if !crate::llm::prompts::repeats(&text, gist) => text,
            Ok(_) => {
                // The calendar's words back: the script's line, as it was.
                self.report.lived.echoes += 1;
                return self.end_turn(cx, sim, turn, Proposal::Done);
            }
            Err(why) => {
                let at = format!("{} {}", self.session, turn.actor);
                let done = Proposal::Done;
                self.fallback(cx, ("words", at, why), Some(done.clone()), |_, _| Ok(done))?;
                return self.end_turn(cx, sim, turn, Proposal::Done);
            }
        };
        self.turn.queue = vec![Request {
            actor: turn.actor.clone(),
            action: Action::Say {
                text: said,
                to,
                claims: vec![],
            },
            at: None,
        }]
        .into();
        self.turn.then = Then::Done;
        match self.next_queued(cx, sim, turn)? {
            Some(p) => Ok(p),
            None => self.end_turn(cx, sim, turn, Proposal::Done),
        }
    }
}

/// What an actor may act on when its intention names nothing: the rooms
/// (to go to), and the furniture, devices, objects and people in the room
/// it is in.
fn around(sim: &Simulation, actor: &crate::ids::Id) -> Vec<String> {
    let s = sim.scene();
    let here = sim.position(actor).map(|p| p.room);
    let in_here = |id: &crate::ids::Id| here.is_some() && sim.room_of(id) == here;
    s.rooms
        .iter()
        .map(|r| &r.id)
        .chain(s.furniture.iter().map(|f| &f.id).filter(|i| in_here(i)))
        .chain(s.devices.iter().map(|d| &d.id).filter(|i| in_here(i)))
        .chain(s.objects.iter().map(|o| &o.id).filter(|i| in_here(i)))
        .chain(
            s.actors
                .iter()
                .map(|a| &a.id)
                .filter(|i| *i != actor && in_here(i)),
        )
        .map(|i| i.to_string())
        .collect()
}
