//! How a scripted actor pursues a goal: the next request, worked out from
//! what it knows now. Humans know their home; the robot acts on its
//! beliefs, so a hidden move sends it to the wrong place first, and it
//! recovers by searching where the object really is.

use crate::catalogue::Belongs;
use crate::ids::Id;
use crate::sim::Simulation;
use crate::sim::world::BROKEN;
use crate::trace::request::{Action, Relation, Request};
use crate::trace::{Location, RejectionCode, Value};

use super::{Dest, Goal, Proposal, TurnProgress};

/// The next proposal of `actor` towards `goal`. With `sloppy`, the actor
/// skips a preparatory step (walking there, opening a door) the way a hasty
/// LLM actor does, and learns from the executor's hint on the retry.
pub fn next(
    sim: &Simulation,
    actor: &Id,
    goal: &Goal,
    progress: &TurnProgress,
    sloppy: bool,
    robot: bool,
) -> Proposal {
    next_in(sim, None, actor, goal, progress, sloppy, robot)
}

/// [`next`], with where things belong in this scene already worked out
/// (a backend keeps it; otherwise it is built when something is put down).
#[allow(clippy::too_many_arguments)]
pub fn next_in(
    sim: &Simulation,
    belongs: Option<&Belongs>,
    actor: &Id,
    goal: &Goal,
    progress: &TurnProgress,
    sloppy: bool,
    robot: bool,
) -> Proposal {
    let here = sim.position(actor).expect("actors have positions");
    let act = |action: Action| {
        let action = match action {
            // A walk that every way is blocked by a closed door, or whose
            // only open way crosses someone else's bedroom, starts by
            // opening the door on the direct way: from this side, or
            // after walking up to it.
            Action::NavigateTo { target } => match sim
                .blocked_way(actor, &target)
                .or_else(|| intrusive_detour(sim, actor, &here.room, &target))
            {
                // Someone busy behind it (a shower): wait until they are done.
                Some((door, side)) if side == here.room => {
                    match far_side(sim, &door, &side).and_then(|r| wait_for_users(sim, actor, &r)) {
                        Some(seconds) if seconds < 3600 => Action::Wait {
                            seconds,
                            standby: false,
                        },
                        _ => Action::Open { target: door },
                    }
                }
                Some((_, side)) => Action::NavigateTo { target: side },
                None => Action::NavigateTo { target },
            },
            // So is a way out past a door shut for the night.
            Action::Leave { door, to, take } => match sim
                .lookup()
                .door(&door)
                .and_then(|d| d.inside_room())
                .and_then(|inside| sim.blocked_way(actor, inside))
            {
                Some((d, side)) if side == here.room => Action::Open { target: d },
                Some((_, side)) => Action::NavigateTo { target: side },
                None => Action::Leave { door, to, take },
            },
            a => a,
        };
        Proposal::Act(Request {
            actor: actor.clone(),
            action,
            at: None,
        })
    };
    let last_skill = progress.last_ok.as_ref().map(|e| e.action.skill_name());
    let sloppy = sloppy && progress.feedback.is_none() && progress.proposals == 0;
    // Told it is already there: beside someone is at them, though near
    // their furniture.
    let beside = progress
        .feedback
        .as_ref()
        .is_some_and(|f| f.code == RejectionCode::AlreadyThere);
    let near = |id: &Id| here.near.as_ref() == Some(id);
    // `action` (a `use` or `write` of `object`; none: nothing left to do)
    // where the thing is: in hand, or at its fixture, walked to first; a
    // cupboard it is kept in opened for it and shut after; given up while
    // someone else has it.
    let at_thing = |object: &Id, skill: &str, action: Option<Action>| {
        let place = sim.location(object);
        let inside = match &place {
            Some(Location::In(f)) => Some(f.clone()),
            _ => None,
        };
        match (last_skill, &inside) {
            (Some("close"), _) => return Proposal::Done,
            (Some(s), Some(f)) if s == skill && kept_shut(sim, f) && sim.is_open(f) => {
                return act(Action::Close { target: f.clone() });
            }
            (Some(s), _) if s == skill => return Proposal::Done,
            _ => {}
        }
        let Some(action) = action else {
            return Proposal::Done;
        };
        let at_it = match place {
            Some(Location::HeldBy(h)) if &h == actor => true,
            Some(Location::HeldBy(h) | Location::CarriedBy(h)) => {
                return Proposal::GiveUp(format!("{h} has {object}"));
            }
            Some(Location::On(f) | Location::In(f)) => near(&f),
            _ => false,
        };
        if !at_it && !sloppy {
            return act(Action::NavigateTo {
                target: object.clone(),
            });
        }
        if let Some(f) = inside.filter(|f| at_it && !sim.is_open(f)) {
            return act(Action::Open { target: f });
        }
        act(action)
    };
    match goal {
        Goal::Say { to, text, claims } => {
            if last_skill == Some("say") {
                return Proposal::Done;
            }
            // Find an addressee who would not hear from here before speaking
            // (unless already beside them: then speak).
            if let Some(far) = to.iter().find(|a| !beside && !sim.in_earshot(actor, a)) {
                // The robot does not open a door on someone to tell them
                // something (gone to bed, in the bath): it keeps.
                if robot && sim.blocked_way(actor, far).is_some() {
                    return Proposal::Done;
                }
                return act(Action::NavigateTo {
                    target: far.clone(),
                });
            }
            act(Action::Say {
                text: text.clone(),
                to: to.clone(),
                claims: claims.clone(),
            })
        }
        Goal::Wait { seconds } => {
            if last_skill == Some("wait") {
                return Proposal::Done;
            }
            act(Action::Wait {
                seconds: *seconds,
                standby: false,
            })
        }
        Goal::Standby { until } => {
            // The wait starts when the actor is free: sized then.
            let start = sim.now().max(sim.busy_until(actor).unwrap_or(0));
            if last_skill == Some("wait") || start >= *until {
                return Proposal::Done;
            }
            act(Action::Wait {
                seconds: until - start,
                standby: true,
            })
        }
        Goal::GoTo { target } => {
            // Done on arrival (a walk to the near side of a closed door is not).
            let arrived = progress.last_ok.as_ref().is_some_and(
                |e| matches!(&e.action, Action::NavigateTo { target: t } if t == target),
            );
            if arrived || beside || near(target) || here.room == *target {
                return Proposal::Done;
            }
            act(Action::NavigateTo {
                target: target.clone(),
            })
        }
        Goal::Inspect { target } => {
            if last_skill == Some("inspect") {
                return Proposal::Done;
            }
            if sim.room_of(target).as_ref() != Some(&here.room) && !sloppy {
                return act(Action::NavigateTo {
                    target: target.clone(),
                });
            }
            act(Action::Inspect {
                target: target.clone(),
            })
        }
        Goal::Use { object } => at_thing(
            object,
            "use",
            Some(Action::Use {
                object: object.clone(),
            }),
        ),
        // What it reads is the world's: only the people of the house write
        // on it, and they see it as they write.
        Goal::Write {
            object,
            add,
            cross_off,
        } => {
            let now = sim.text(object).unwrap_or("");
            let text = crate::trace::relisted(now, add, cross_off);
            let write = (text != now).then(|| Action::Write {
                object: object.clone(),
                text,
            });
            at_thing(object, "write", write)
        }
        Goal::Operate {
            device,
            field,
            value,
        } => {
            if sim.field(device, field).as_ref() == Some(value) {
                return Proposal::Done;
            }
            // A device's health is found out and mended at it.
            let health = field.as_str() == BROKEN;
            let remote = !health && sim.lookup().device(device).is_some_and(|d| d.remote);
            if !remote && !near(device) && !sloppy {
                return act(Action::NavigateTo {
                    target: device.clone(),
                });
            }
            // A program or timer is chosen on a machine that is on.
            let off = sim.field(device, "power") == Some(Value::Bool(false));
            let (field, value) = if off && matches!(field.as_str(), "program" | "timer") {
                ("power".into(), Value::Bool(true))
            } else {
                (field.to_string(), value.clone())
            };
            let device = device.clone();
            act(match (health, &value) {
                (true, Value::Bool(true)) => Action::FindBroken { device },
                (true, _) => Action::Repair { device },
                _ => Action::SetDeviceState {
                    device,
                    field,
                    value,
                },
            })
        }
        Goal::SetOpen { target, open } => {
            if sim.is_open(target) == *open {
                return Proposal::Done;
            }
            let door = sim.lookup().door(target);
            let at_it = match door {
                Some(d) => d.rooms.0 == here.room || d.rooms.1 == here.room,
                None => near(target),
            };
            if !at_it {
                let to = door.map_or(target, |d| &d.rooms.0).clone();
                return act(Action::NavigateTo { target: to });
            }
            let target = target.clone();
            act(if *open {
                Action::Open { target }
            } else {
                Action::Close { target }
            })
        }
        Goal::Leave { door, to, take } => {
            if last_skill == Some("leave") || sim.is_out(actor) {
                return Proposal::Done;
            }
            leave(
                sim, belongs, actor, door, *to, take, progress, robot, &here, act,
            )
        }
        Goal::Arrive { door, bring } => {
            if last_skill == Some("arrive") || !sim.is_out(actor) {
                return Proposal::Done;
            }
            // What is still to bring: carried, or waiting outside.
            let bring = bring
                .iter()
                .filter(|o| match sim.location(o) {
                    Some(Location::CarriedBy(a)) => &a == actor,
                    Some(Location::Outside) => true,
                    _ => false,
                })
                .cloned()
                .collect();
            act(Action::Arrive {
                door: door.clone(),
                bring,
            })
        }
        Goal::Intent { text, .. } => Proposal::GiveUp(format!("no plan for {text:?}")),
        Goal::Fetch { object, to } => fetch(
            sim, belongs, actor, object, to, progress, sloppy, robot, &here, act,
        ),
    }
}

/// On the way out: what is held or in the bag and not going is put down
/// where it belongs, what is to
/// go and out of reach is fetched while a hand is free (a few tries at
/// most: a bus is not missed for a charger), then out through the door
/// with what is at hand.
#[allow(clippy::too_many_arguments)]
fn leave(
    sim: &Simulation,
    belongs: Option<&Belongs>,
    actor: &Id,
    door: &Id,
    to: crate::trace::request::Destination,
    take: &[Id],
    progress: &TurnProgress,
    robot: bool,
    here: &crate::trace::Position,
    act: impl Fn(Action) -> Proposal,
) -> Proposal {
    let held = sim.held_by(actor);
    let patient = progress.proposals < 24;
    // Hands emptied of what is not going, and the bag of what has a place
    // with room (no laptop on a run; a thing with nowhere to go stays in).
    let built;
    let belongs = match belongs {
        Some(b) => b,
        None => {
            built = Belongs::new(sim.scene(), crate::catalogue::builtin());
            &built
        }
    };
    let has_room = |o: &Id| {
        belongs.homes(o).is_some_and(|hs| {
            hs.iter()
                .any(|h| sim.free_space(h, false) > 0 || sim.free_space(h, true) > 0)
        })
    };
    let bagged = sim.carried_by(actor);
    if patient
        && let Some(p) = held
            .iter()
            .chain(bagged.iter().filter(|o| has_room(o)))
            .find(|h| !take.contains(h))
            .and_then(|h| put_down(sim, Some(belongs), h, &here.room, here, None, &act))
    {
        return p;
    }
    let belongs = Some(belongs);
    let inside = sim
        .lookup()
        .door(door)
        .and_then(|d| d.inside_room())
        .cloned();
    // Within reach on the way out (`near`: where they stand counts too,
    // but only for the last look; fetching goes by the door alone, or two
    // things in two rooms would be walked between for ever). What is in a
    // cupboard is always fetched, which opens it, takes it and shuts it:
    // left to the door it would be opened and shut in turn for ever.
    let reach = |o: &Id, near: bool| match sim.location(o) {
        Some(Location::HeldBy(a) | Location::CarriedBy(a)) => &a == actor,
        Some(Location::On(r)) => {
            (near && here.near.as_ref() == Some(&r)) || sim.room_of(&r) == inside
        }
        Some(Location::In(r)) => {
            near && (here.near.as_ref() == Some(&r) || sim.room_of(&r) == inside) && sim.is_open(&r)
        }
        _ => false,
    };
    let hands = sim.lookup().actor(actor).map_or(1, |a| a.hands) as usize;
    if patient && held.len() < hands {
        let reachable =
            |o: &&Id| matches!(sim.location(o), Some(Location::On(_) | Location::In(_)));
        for o in take.iter().filter(reachable).filter(|o| !reach(o, false)) {
            let p = fetch(
                sim,
                belongs,
                actor,
                o,
                &Dest::Actor(actor.clone()),
                progress,
                false,
                robot,
                here,
                &act,
            );
            if !matches!(p, Proposal::GiveUp(_) | Proposal::Done) {
                return p;
            }
        }
    }
    act(Action::Leave {
        door: door.clone(),
        to,
        take: take.iter().filter(|o| reach(o, true)).cloned().collect(),
    })
}

#[allow(clippy::too_many_arguments)]
fn fetch(
    sim: &Simulation,
    belongs: Option<&Belongs>,
    actor: &Id,
    object: &Id,
    to: &Dest,
    progress: &TurnProgress,
    sloppy: bool,
    robot: bool,
    here: &crate::trace::Position,
    act: impl Fn(Action) -> Proposal,
) -> Proposal {
    let near = |id: &Id| here.near.as_ref() == Some(id);
    let Some(truth) = sim.location(object) else {
        return Proposal::GiveUp(format!("no object {object}"));
    };
    let arrived = match (to, &truth) {
        (Dest::Actor(a), Location::HeldBy(h)) => a == h,
        (Dest::On(r), Location::On(l)) | (Dest::In(r), Location::In(l)) => r == l,
        _ => false,
    };
    // Leave containers as they were found: close a normally-closed one the
    // actor stands at once the object is out of it or put away in it.
    let close_here = || {
        let n = here.near.as_ref()?;
        let normally_closed =
            (sim.lookup().fixture(n)).is_some_and(|f| f.openable == crate::scene::Openable::Closed);
        (normally_closed && sim.is_open(n)).then(|| act(Action::Close { target: n.clone() }))
    };
    if arrived {
        return close_here().unwrap_or(Proposal::Done);
    }
    // The destination was full and the object went on a spare surface
    // instead: that is as far as this errand goes, and it is not what was
    // asked (no "as you asked, it is on the desk" of the bed).
    if let Some(Action::Place {
        object: o, target, ..
    }) = progress.last_ok.as_ref().map(|e| &e.action)
        && o == object
    {
        return close_here().unwrap_or_else(|| {
            Proposal::GiveUp(format!("no room where it goes: left on {target}"))
        });
    }
    // Just took it out: close what it came out of before walking off.
    if let Some(c) = close_here().filter(|_| {
        progress
            .last_ok
            .as_ref()
            .is_some_and(|e| e.action.skill_name() == "pick")
    }) {
        return c;
    }
    // What is in one's own bag is put down or handed over as if held.
    if matches!(truth, Location::HeldBy(ref h) | Location::CarriedBy(ref h) if h == actor) {
        return match to {
            Dest::Actor(a) if a == actor => Proposal::Done,
            Dest::Actor(a) => {
                if progress
                    .feedback
                    .as_ref()
                    .is_some_and(|f| f.code == RejectionCode::PartnerHandsFull)
                {
                    // Their hands are full: leave it next to them.
                    put_down(sim, belongs, object, &here.room, here, None, &act)
                        .unwrap_or_else(|| Proposal::GiveUp(format!("{a}'s hands are full")))
                } else if sim.room_of(a).as_ref() == Some(&here.room) || sloppy {
                    act(Action::Handoff {
                        object: object.clone(),
                        to: a.clone(),
                    })
                } else {
                    act(Action::NavigateTo { target: a.clone() })
                }
            }
            Dest::On(r) | Dest::In(r) => {
                let inside = matches!(to, Dest::In(_));
                let bagged = matches!(truth, Location::CarriedBy(_));
                if bagged && sim.free_space(r, inside) == 0 {
                    // No room where it goes: it stays in the bag rather
                    // than come out onto the bed.
                    Proposal::Done
                } else if sim.free_space(r, inside) == 0 && (!sloppy || progress.feedback.is_some())
                {
                    // Full: leave it on a spare surface in the same room,
                    // else where the actor is, rather than carry it about;
                    // a full drawer's own top first (the tablets on the
                    // nightstand, not the bed).
                    let room = sim.room_of(r).unwrap_or_else(|| here.room.clone());
                    let except = (!inside).then_some(r);
                    put_down(sim, belongs, object, &room, here, except, &act)
                        .or_else(|| put_down(sim, belongs, object, &here.room, here, except, &act))
                        .unwrap_or_else(|| Proposal::GiveUp(format!("{r} is full")))
                } else if !near(r) && !sloppy {
                    act(Action::NavigateTo { target: r.clone() })
                } else if inside && !sim.is_open(r) && !sloppy {
                    act(Action::Open { target: r.clone() })
                } else {
                    act(Action::Place {
                        object: object.clone(),
                        target: r.clone(),
                        relation: if inside { Relation::In } else { Relation::On },
                    })
                }
            }
        };
    }
    // No room where it is to go, and it is where such a thing belongs, or
    // already in that room: left there, rather than carried off to the
    // bed (or picked up off the bed to be put back on it).
    if let Dest::On(r) | Dest::In(r) = to
        && let Location::On(l) | Location::In(l) = &truth
        && sim.free_space(r, matches!(to, Dest::In(_))) == 0
        && (belongs.is_some_and(|b| b.fits(object, l)) || sim.room_of(l) == sim.room_of(r))
    {
        return Proposal::GiveUp(format!("no room on or in {r}"));
    }
    let hands = sim.lookup().actor(actor).map_or(1, |a| a.hands) as usize;
    let held = sim.held_by(actor);
    if held.len() >= hands {
        // Free a hand first, as a person would, on a surface in this room.
        return held
            .first()
            .and_then(|h| put_down(sim, belongs, h, &here.room, here, None, &act))
            .unwrap_or_else(|| Proposal::GiveUp(format!("{actor}'s hands are full")));
    }
    // Where to look: humans know; the robot goes by what it last saw.
    let target = if robot {
        let belief = sim
            .beliefs(actor.as_str())
            .and_then(|b| b.get(&(object.clone(), Id::new("location"))));
        match belief {
            Some(b) if b.contradicted_at.is_none() => match &b.value {
                // Believed in someone's hands who has since put it down:
                // the robot asks around and searches.
                Value::Location(Location::HeldBy(h) | Location::CarriedBy(h)) if !matches!(&truth, Location::HeldBy(t) | Location::CarriedBy(t) if t == h) => {
                    truth.clone()
                }
                Value::Location(l) => l.clone(),
                _ => truth.clone(),
            },
            // Never seen, or seen gone: search, which finds it where it is.
            _ => truth.clone(),
        }
    } else {
        truth.clone()
    };
    match target {
        Location::HeldBy(h) | Location::CarriedBy(h) => {
            Proposal::GiveUp(format!("{h} has {object}"))
        }
        Location::Outside => Proposal::GiveUp(format!("{object} is out of the house")),
        Location::On(r) | Location::In(r) => {
            // Not from under people busy beside it (eating, cooking).
            if robot
                && near(&r)
                && let Some(seconds) = wait_for_users(sim, actor, &here.room)
            {
                return act(Action::Wait {
                    seconds,
                    standby: false,
                });
            }
            let inside = matches!(truth, Location::In(_));
            // Nobody opens a machine in the middle of its programme for a mug.
            let running = sim.field(&r, "program").is_some()
                && sim.field(&r, "power") == Some(Value::Bool(true));
            if inside && running && !sim.is_open(&r) {
                return Proposal::GiveUp(format!("{object} is in {r}, which is running"));
            }
            if !near(&r) && !sloppy {
                // Looked in the wrong place first: close it before moving on.
                close_here().unwrap_or_else(|| act(Action::NavigateTo { target: r.clone() }))
            } else if near(&r) && inside && !sim.is_open(&r) && !sloppy {
                act(Action::Open { target: r.clone() })
            } else if near(&r) && !robot_sees_it(sim, actor, object, &r, robot) {
                // Not where the robot believed: close what it looked in,
                // then search where it really is.
                match &truth {
                    Location::On(t) | Location::In(t) if !near(t) => close_here()
                        .unwrap_or_else(|| act(Action::NavigateTo { target: t.clone() })),
                    _ => act(Action::Pick {
                        object: object.clone(),
                    }),
                }
            } else {
                act(Action::Pick {
                    object: object.clone(),
                })
            }
        }
    }
}

/// The room on the other side of `door` from `side`.
fn far_side(sim: &Simulation, door: &Id, side: &Id) -> Option<Id> {
    let d = sim.lookup().door(door)?;
    Some(if &d.rooms.0 == side {
        d.rooms.1.clone()
    } else {
        d.rooms.0.clone()
    })
}

/// How long until the people of the household busy in `room` are done,
/// if they are busy past the time the robot could act (a guest settled in
/// for the evening is not waited out).
fn wait_for_users(sim: &Simulation, me: &Id, room: &Id) -> Option<u64> {
    let start = sim.now().max(sim.busy_until(me)?);
    let until = sim
        .scene()
        .actors
        .iter()
        .filter(|a| a.lives_here() && &a.id != me)
        .filter(|a| sim.position(&a.id).is_some_and(|p| &p.room == room))
        .filter_map(|a| sim.busy_until(&a.id))
        .max()?;
    (until > start).then(|| until - start)
}

/// The closed door on the direct way to `target` when the open way round
/// it crosses someone else's bedroom: people open a door rather than walk
/// through another's room.
fn intrusive_detour(sim: &Simulation, actor: &Id, here: &Id, target: &Id) -> Option<(Id, Id)> {
    let (rooms, detour) = sim.way(actor, target)?;
    let detour = detour?;
    let crossed = crate::catalogue::crossed_bedrooms(sim.lookup(), actor, here, &rooms);
    (!crossed.is_empty()).then_some(detour)
}

fn robot_sees_it(sim: &Simulation, actor: &Id, object: &Id, at: &Id, robot: bool) -> bool {
    if !robot {
        return true;
    }
    matches!(sim.location(object), Some(Location::On(r) | Location::In(r)) if &r == at)
        || sim.beliefs(actor.as_str()).is_none()
}

/// Puts `object` (held) on a fixture in `room` with space on top where it
/// belongs (the one the actor stands at first), else on a top where it
/// belongs elsewhere, else on the one at hand or the first in scene order
/// (deterministic); walks there first. `None` when there is no space.
fn put_down(
    sim: &Simulation,
    belongs: Option<&Belongs>,
    object: &Id,
    room: &Id,
    here: &crate::trace::Position,
    except: Option<&Id>,
    act: &impl Fn(Action) -> Proposal,
) -> Option<Proposal> {
    let scene = sim.scene();
    let mut spare: Vec<&Id> = scene
        .furniture
        .iter()
        .filter(|f| &f.room == room)
        .map(|f| &f.id)
        .chain(
            scene
                .devices
                .iter()
                .filter(|d| &d.room == room)
                .map(|d| &d.id),
        )
        .filter(|id| Some(*id) != except && sim.free_space(id, false) > 0)
        .collect();
    // Where such a thing belongs first (not a book on the bed), then the
    // one at hand.
    let built;
    let belongs = match belongs {
        Some(b) => b,
        None => {
            built = Belongs::new(scene, crate::catalogue::builtin());
            &built
        }
    };
    spare.sort_by_key(|id| (!belongs.fits(object, id), here.near.as_ref() != Some(*id)));
    // No place for it here: a top where it belongs elsewhere in the home
    // (glasses to the dresser when the nightstand is full), before
    // anywhere at hand (the bed).
    let elsewhere = || {
        belongs
            .homes(object)?
            .iter()
            .find(|h| Some(*h) != except && !spare.contains(h) && sim.free_space(h, false) > 0)
    };
    let target = match spare.first() {
        Some(id) if belongs.fits(object, id) => (*id).clone(),
        first => elsewhere().or(first.copied())?.clone(),
    };
    Some(if here.near.as_ref() == Some(&target) {
        act(Action::Place {
            object: object.clone(),
            target,
            relation: Relation::On,
        })
    } else {
        act(Action::NavigateTo { target })
    })
}

/// Whether fixture `f` is kept closed (a cupboard shut again after use).
fn kept_shut(sim: &Simulation, f: &Id) -> bool {
    (sim.lookup().fixture(f)).is_some_and(|x| x.openable == crate::scene::Openable::Closed)
}
