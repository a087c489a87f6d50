//! Planning tasks: an instruction whose goal propositions depend on what
//! the robot remembers (a preference, a habit, a request, where something
//! is), with a reference plan the executor accepts from the cutoff state.
//! Each task comes as a MEMENTO-style pair: the acquisition instruction
//! states the knowledge, the utilisation one only alludes to it.

use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet};

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use crate::catalogue::{self, Belongs};
use crate::generation::{Dest, Goal, MemoryTarget, Proposal, TurnProgress, errand};
use crate::ids::Id;
use crate::scene::ObjectDef;
use crate::sim::Simulation;
use crate::trace::request::Request;
use crate::trace::{ClaimMode, Location, Value};

use super::answer::{GRACE, Memo, answer};
use super::answered::Answered;
use super::cutoff::cutoffs;
use super::families::beliefs::LeftSomewhere;
use super::families::{beliefs, commitment, current_state, preference, routine};
use super::index::{Heard, Index, Seen};
use super::model::*;
use super::replay::Replay;
use super::text::{Namer, capital};
use super::wording::request_phrase;

/// Proposals a reference plan may take before the task is dropped.
const MAX_STEPS: u32 = 40;

/// A task before its plan is found.
struct Draft<'a> {
    family: Family,
    target: MemoryTarget,
    template: &'static str,
    /// The acquisition and utilisation instructions, worded only for the
    /// draft chosen: most drafts never become tasks.
    words: Words<'a>,
    goals: Vec<Prop>,
    /// What must be remembered to know the goal's value.
    remember: Option<Query>,
    evidence: Vec<u64>,
}

type Words<'a> = Box<dyn Fn() -> [String; 2] + 'a>;

/// Whether `p` holds in `sim`.
pub fn holds(sim: &Simulation, p: &Prop) -> bool {
    match p {
        Prop::IsOn { object, target } => sim.location(object) == Some(Location::On(target.clone())),
        Prop::IsIn { object, target } => sim.location(object) == Some(Location::In(target.clone())),
        Prop::HeldBy { object, actor } => {
            sim.location(object) == Some(Location::HeldBy(actor.clone()))
        }
        Prop::Field {
            device,
            field,
            value,
        } => sim.field(device, field).as_ref() == Some(value),
    }
}

fn goal_of(p: &Prop) -> Goal {
    match p {
        Prop::IsOn { object, target } => Goal::Fetch {
            object: object.clone(),
            to: Dest::On(target.clone()),
        },
        Prop::IsIn { object, target } => Goal::Fetch {
            object: object.clone(),
            to: Dest::In(target.clone()),
        },
        Prop::HeldBy { object, actor } => Goal::Fetch {
            object: object.clone(),
            to: Dest::Actor(actor.clone()),
        },
        Prop::Field {
            device,
            field,
            value,
        } => Goal::Operate {
            device: device.clone(),
            field: field.clone(),
            value: value.clone(),
        },
    }
}

/// The proposition that `entity.attr = value`.
pub fn prop(entity: &Id, attr: &Id, value: &Value) -> Option<Prop> {
    Some(match (attr.as_str(), value) {
        ("location", Value::Location(Location::On(t))) => Prop::IsOn {
            object: entity.clone(),
            target: t.clone(),
        },
        ("location", Value::Location(Location::In(t))) => Prop::IsIn {
            object: entity.clone(),
            target: t.clone(),
        },
        ("location", Value::Location(Location::HeldBy(a))) => Prop::HeldBy {
            object: entity.clone(),
            actor: a.clone(),
        },
        ("location", _) => return None,
        (field, v) => Prop::Field {
            device: entity.clone(),
            field: Id::new(field),
            value: v.clone(),
        },
    })
}

/// Whether the robot's last observations before the cutoff agree with the
/// truth on everything a plan for `p` touches: the object's place, and the
/// open state of containers it comes from or goes into.
fn knowable(ix: &Index, cutoff: &Cutoff, sim: &Simulation, p: &Prop) -> bool {
    let seen_true = |entity: &Id, attr: &str| {
        let key = (entity.clone(), Id::new(attr));
        ix.seen_before(&key, cutoff.event)
            .last()
            .is_some_and(|s| sim.value(&key).as_ref() == Some(&s.value))
    };
    let container_ok = |r: &Id| {
        let openable = ix
            .scene
            .furniture
            .iter()
            .any(|f| &f.id == r && f.openable != crate::scene::Openable::No)
            || ix
                .scene
                .devices
                .iter()
                .any(|d| &d.id == r && d.openable != crate::scene::Openable::No);
        !openable || seen_true(r, "open")
    };
    let object = match p {
        Prop::Field { .. } => return true,
        Prop::IsOn { object, .. } | Prop::HeldBy { object, .. } => object,
        Prop::IsIn { object, target } => {
            if !container_ok(target) {
                return false;
            }
            object
        }
    };
    seen_true(object, "location")
        && match sim.location(object) {
            Some(Location::In(r)) => container_ok(&r),
            Some(Location::HeldBy(_)) => false,
            _ => true,
        }
}

/// Plans `goals` for `actor` from the state of `sim` with the omniscient
/// errand planner, executing as it goes; `None` if any step is rejected or
/// a goal is not reached. `belongs` is where things go in the scene,
/// worked out once by the caller (the months' stock makes it long).
pub fn reference_plan(
    sim: &mut Simulation,
    belongs: &Belongs,
    actor: &Id,
    goals: &[Prop],
) -> Option<Vec<Request>> {
    let mut plan = Vec::new();
    for p in goals {
        let goal = goal_of(p);
        let mut progress = TurnProgress::default();
        loop {
            match errand::next_in(sim, Some(belongs), actor, &goal, &progress, false, false) {
                Proposal::Done => break,
                Proposal::GiveUp(_) => return None,
                Proposal::Act(req) => {
                    progress.proposals += 1;
                    if progress.proposals > MAX_STEPS {
                        return None;
                    }
                    let e = sim.execute(req.clone());
                    if !e.outcome.is_ok() {
                        return None;
                    }
                    progress.last_ok = Some(e);
                    plan.push(req);
                }
            }
        }
    }
    goals.iter().all(|p| holds(sim, p)).then_some(plan)
}

/// Mines planning tasks: at most one pair per cutoff, numbered from
/// `first`.
pub fn mine_tasks(ix: &Index, seed: u64, first: usize) -> Vec<PlanTask> {
    let mut out = Vec::new();
    let Ok(mut replay) = Replay::new(ix.scene.clone(), ix.events) else {
        return out;
    };
    let mut miner = TaskMiner::new(ix, seed, first);
    for cutoff in cutoffs(ix) {
        // The state at the cutoff, for the "already satisfied" test.
        let Ok(sim) = replay.to(cutoff.event) else {
            return out;
        };
        out.extend(miner.at(&cutoff, sim));
    }
    out
}

/// Mining planning tasks cutoff by cutoff, from a replay the caller keeps
/// (see [`mine_tasks`]; mining with its checks shares one replay).
pub struct TaskMiner<'a> {
    ix: &'a Index<'a>,
    first: usize,
    rng: ChaCha8Rng,
    n: Namer<'a>,
    /// The goals of the tasks made so far, compared as they are (not
    /// written out as JSON for every draft at every cutoff), by what the
    /// first is about: a draft is compared with the few of its thing, not
    /// with every task of the months.
    done: BTreeMap<Option<Id>, Vec<Vec<Prop>>>,
    made: usize,
    memo: Memo,
    /// Plans run on this spare, put in the cutoff's state each time: a
    /// fork's state without a spawn per plan.
    spare: Option<Simulation>,
    /// The scene's things the drafts walk, found once.
    things: Things<'a>,
    /// The claims the drafts read, as the cutoffs advance.
    claims: Claims,
    /// Where things go, for the plans: made for the first.
    belongs: OnceCell<Belongs>,
}

/// The claims a draft can come of, kept as the cutoffs advance: each
/// holder's latest preference for each setting, and the requests not yet
/// past due. A walk back through everything heard at every cutoff grew
/// with the months.
#[derive(Default)]
struct Claims {
    /// Claims heard (positions in the index's list) read so far.
    read: usize,
    /// The latest preference of each holder for each (entity, attribute).
    preferences: BTreeMap<(Id, Id, Id), usize>,
    /// Requests with a time, not past due at the last cutoff.
    requests: Vec<usize>,
}

impl Claims {
    /// Those of `heard` (everything heard before `cutoff`) a draft can
    /// come of, the latest first.
    fn at<'h>(&mut self, heard: &'h [Heard], cutoff: &Cutoff) -> Vec<&'h Heard> {
        for (i, h) in heard.iter().enumerate().skip(self.read) {
            let c = &h.claim;
            match (c.mode, &c.holder, c.due) {
                (ClaimMode::Preference, Some(holder), _) => {
                    let key = (holder.clone(), c.entity.clone(), c.attr.clone());
                    self.preferences.insert(key, i);
                }
                (ClaimMode::Request, _, Some(_)) => self.requests.push(i),
                _ => {}
            }
        }
        self.read = self.read.max(heard.len());
        // Cutoffs come in order: a request past due stays so.
        (self.requests).retain(|&i| heard[i].claim.due.is_some_and(|d| cutoff.t < d + GRACE));
        let mut open: Vec<usize> = (self.preferences.values())
            .chain(&self.requests)
            .copied()
            .collect();
        open.sort_unstable_by(|a, b| b.cmp(a));
        open.into_iter().map(|i| &heard[i]).collect()
    }
}

/// What the drafts look up of the scene's things at every cutoff, found
/// once: the months' stock makes the list long, and most of it is never
/// seen.
struct Things<'a> {
    /// The things the robot saw somewhere, as the cutoffs advance.
    sighted: LeftSomewhere<'a>,
    /// Those left somewhere before the cutoff, with their sights before it.
    left: Vec<(&'a ObjectDef, &'a [Seen])>,
    /// The things the only one of their kind their owner has: "their mug"
    /// names one thing.
    owned_once: Vec<&'a ObjectDef>,
}

impl<'a> Things<'a> {
    fn new(ix: &'a Index<'a>) -> Self {
        let sighted = LeftSomewhere::new(ix.located());
        let mut owned: BTreeMap<(&Id, &str), usize> = BTreeMap::new();
        for x in &ix.scene.objects {
            if let Some(owner) = &x.owner {
                *owned.entry((owner, x.category.as_str())).or_default() += 1;
            }
        }
        let owned_once = (ix.scene.objects.iter())
            .filter(|o| (o.owner.as_ref()).is_some_and(|w| owned[&(w, o.category.as_str())] == 1))
            .collect();
        Things {
            sighted,
            left: vec![],
            owned_once,
        }
    }
}

impl<'a> TaskMiner<'a> {
    pub fn new(ix: &'a Index<'a>, seed: u64, first: usize) -> Self {
        TaskMiner {
            ix,
            first,
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x7a5c),
            n: Namer::new(ix.scene),
            done: BTreeMap::new(),
            made: 0,
            memo: Memo::default(),
            spare: None,
            things: Things::new(ix),
            claims: Claims::default(),
            belongs: OnceCell::new(),
        }
    }

    /// The pair of tasks at `cutoff`, if any, with `sim` in the state just
    /// before it; cutoffs come in order.
    pub fn at(&mut self, cutoff: &Cutoff, sim: &Simulation) -> Vec<PlanTask> {
        let ix = self.ix;
        let mut out = Vec::new();
        // The robot's hand must be free, and what a plan needs to know (where
        // the objects are, whether containers are open) must be what the
        // robot last saw: then a perfect memory can succeed.
        if !sim.held_by(&ix.robot).is_empty() {
            return out;
        }
        self.things.left = (self.things.sighted).at(ix.stockroom(), cutoff.event);
        let done = &self.done;
        let claims = self.claims.at(ix.heard_before(cutoff.event), cutoff);
        let drafts: Vec<Draft> = drafts(ix, &self.n, &self.things, &claims, cutoff, &mut self.memo)
            .into_iter()
            // Not made before (most of a month's drafts were), then not
            // done already, then knowable: the cheaper test first.
            .filter(|d| {
                !done
                    .get(&about(&d.goals))
                    .is_some_and(|v| v.contains(&d.goals))
            })
            .filter(|d| !d.goals.iter().all(|p| holds(sim, p)))
            .filter(|d| d.goals.iter().all(|p| knowable(ix, cutoff, sim, p)))
            .collect();
        // A family first, then a task of it, so no kind crowds out the rest.
        let families: BTreeSet<Family> = drafts.iter().map(|d| d.family).collect();
        let Some(family) = families
            .iter()
            .copied()
            .collect::<Vec<_>>()
            .choose(&mut self.rng)
            .copied()
        else {
            return out;
        };
        let of_family: Vec<&Draft> = drafts.iter().filter(|d| d.family == family).collect();
        let Some(d) = of_family.choose(&mut self.rng) else {
            return out;
        };
        // The plan runs on a copy at the cutoff, so the running replay goes on.
        let belongs = (self.belongs).get_or_init(|| Belongs::new(ix.scene, catalogue::builtin()));
        let Some(plan) =
            reference_plan(sim.fork_into(&mut self.spare), belongs, &ix.robot, &d.goals)
        else {
            return out;
        };
        (self.done.entry(about(&d.goals)).or_default()).push(d.goals.clone());
        let pair = format!("m{:03}", self.made / 2 + 1);
        let sessions: BTreeSet<String> = d
            .evidence
            .iter()
            .filter_map(|e| ix.session_of(*e).map(String::from))
            .collect();
        let [acquisition, utilisation] = (d.words)();
        for (role, instruction) in [
            (PairRole::Acquisition, acquisition),
            (PairRole::Utilisation, utilisation),
        ] {
            out.push(PlanTask {
                id: format!("t{:04}", self.first + self.made),
                family: d.family,
                memory_target: d.target,
                template: format!("plan/{}", d.template),
                cutoff: cutoff.clone(),
                instruction,
                actor: ix.robot.clone(),
                goals: d.goals.clone(),
                remember: d.remember.clone(),
                reference_plan: plan.clone(),
                evidence: d.evidence.clone(),
                sessions: sessions.iter().cloned().collect(),
                pair: Some(Pair {
                    id: pair.clone(),
                    role,
                }),
            });
            self.made += 1;
        }
        out
    }
}

/// What the first of `goals` is about: the thing to move or the device
/// to set.
fn about(goals: &[Prop]) -> Option<Id> {
    goals.first().map(|p| match p {
        Prop::IsOn { object, .. } | Prop::IsIn { object, .. } | Prop::HeldBy { object, .. } => {
            object.clone()
        }
        Prop::Field { device, .. } => device.clone(),
    })
}

/// The value an answer gives, current or last seen.
fn value_of(a: &Answered) -> Option<&Value> {
    match &a.answer {
        Answer::Value { value } | Answer::LastSeen { value, .. } => Some(value),
        _ => None,
    }
}

/// Candidate tasks at a cutoff, from what the robot knows then.
fn drafts<'a>(
    ix: &'a Index,
    n: &'a Namer,
    things: &Things<'a>,
    claims: &[&'a Heard],
    cutoff: &Cutoff,
    memo: &mut Memo,
) -> Vec<Draft<'a>> {
    let c = cutoff.event;
    let mut out = Vec::new();
    for &h in claims {
        let (entity, attr, value) = (&h.claim.entity, &h.claim.attr, &h.claim.value);
        match h.claim.mode {
            // A preference: set the device the way its holder likes it.
            ClaimMode::Preference => {
                let Some(holder) = &h.claim.holder else {
                    continue;
                };
                let Some(goal) = prop(entity, attr, value) else {
                    continue;
                };
                out.push(Draft {
                    family: Family::Preference,
                    target: MemoryTarget::Preference,
                    template: "preferred_setting",
                    words: Box::new(move || {
                        let what = format!("the {} of {}", attr.replace('_', " "), n.name(entity));
                        [
                            format!(
                                "{} likes {what} to be {}. Please set it that way.",
                                n.name(holder),
                                n.value(attr, value)
                            ),
                            format!("Please set {what} the way {} likes it.", n.name(holder)),
                        ]
                    }),
                    goals: vec![goal],
                    remember: Some(preference::how_likes(holder, entity, attr)),
                    evidence: vec![h.event],
                });
            }
            // A request not yet due: do it now.
            ClaimMode::Request => {
                let Some(goal) = prop(entity, attr, value) else {
                    continue;
                };
                out.push(Draft {
                    family: Family::Commitment,
                    target: MemoryTarget::PlanningDependency,
                    template: "do_as_asked",
                    words: Box::new(move || {
                        [
                            format!(
                                "{} asked you to {}. Please do it now.",
                                n.name(&h.speaker),
                                request_phrase(n, entity, attr, value, commitment::said(ix, n, h))
                            ),
                            format!(
                                "Please do what {} asked you to do with {}.",
                                n.name(&h.speaker),
                                n.name(entity)
                            ),
                        ]
                    }),
                    goals: vec![goal],
                    remember: Some(commitment::asked(h.event, entity)),
                    evidence: vec![h.event],
                });
            }
            ClaimMode::Fact => {}
        }
    }
    // A habit: put the object back where it usually goes (not a thing
    // thrown out: nobody asks for the empty carton put back). Not food
    // whose usual place is out of the fridge: the milk set on the table at
    // every breakfast is still put away cold, and nobody asks it left out.
    let room = ix.stockroom();
    for object in ix.placed_objects(c).filter(|o| !ix.binned(o, c)) {
        let q = routine::usual_place(object);
        let Some(a) = memo.answer(ix, cutoff, &q) else {
            continue;
        };
        let Answer::Value { value } = &a.answer else {
            continue;
        };
        if room.spoils(object, value) {
            continue;
        }
        let Some(goal) = prop(object, &Id::new("location"), value) else {
            continue;
        };
        let value = value.clone();
        out.push(Draft {
            family: Family::Routine,
            target: MemoryTarget::Routine,
            template: "usual_place",
            words: Box::new(move || {
                [
                    format!(
                        "Please put {} {}.",
                        n.name(object),
                        n.value("location", &value)
                    ),
                    format!(
                        "Please put {} back where {}.",
                        n.name(object),
                        them(&n.name(object)).usually_go
                    ),
                ]
            }),
            goals: vec![goal],
            remember: Some(q),
            evidence: a.evidence,
        });
    }
    // A person about to look for a thing in the wrong place: they last
    // saw it elsewhere than where the robot knows it is now. Bringing it
    // to them succeeds; going to where they think it is finds nothing.
    // Only things the robot last saw put somewhere (a belief about any other
    // is not known: the months' stock still in the shop among them), and
    // not in a bin (nobody is brought the empty carton), each with where
    // the robot last saw it, asked once whoever looks for it.
    let location = Id::new("location");
    let sighted: Vec<(_, _, std::cell::OnceCell<Option<_>>)> = (things.left.iter())
        .map(|&(o, seen)| (o, seen, Default::default()))
        .collect();
    for person in ix.scene.actors.iter().filter(|a| a.lives_here()) {
        for &(o, seen, ref seen_at) in &sighted {
            // What they last saw, looked up before it is answered: mostly
            // where the robot saw it last too, which is no task (and the
            // answers, every person by every thing at every cutoff, were
            // most of the drafts' cost).
            let key = (o.id.clone(), location.clone());
            let Some(k) = ix.scan_shared(seen, &person.id, &key) else {
                continue;
            };
            // Where they last saw it is where the robot last did: no task
            // (a state's answer is its last sight, so this is the test
            // below, before the answer is worked out).
            if seen.last().is_some_and(|s| s.value == seen[k].value) {
                continue;
            }
            // Where the robot last saw it (the task is kept only where that
            // is true: `knowable`).
            let Some(a) = seen_at
                .get_or_init(|| answer(ix, cutoff, &current_state::state(&o.id, "location")))
            else {
                continue;
            };
            debug_assert!(
                value_of(a).is_none_or(|h| seen.last().is_some_and(|s| s.value == *h)),
                "a state's answer is its last sight"
            );
            let Some(here) = value_of(a).filter(|h| **h != seen[k].value && beliefs::placed(h))
            else {
                continue;
            };
            // Where they think it is: the beliefs family's answer, of
            // which a task takes the place and the sight (not whether the
            // robot watched it since, as the answer works out).
            let Some(j) = beliefs::thought(seen, Some(k)) else {
                continue;
            };
            debug_assert!({
                let thinks = Query::Thinks {
                    person: person.id.clone(),
                    entity: o.id.clone(),
                    attr: location.clone(),
                };
                let belief = memo.answer(ix, cutoff, &thinks);
                belief.is_some_and(|b| {
                    value_of(&b) == Some(&seen[j].value) && b.evidence == [seen[j].event]
                })
            });
            let there = seen[j].value.clone();
            if there == *here {
                continue;
            }
            let (who, here) = (&person.id, here.clone());
            let mut evidence = vec![seen[j].event];
            evidence.extend(&a.evidence);
            evidence.sort_unstable();
            evidence.dedup();
            out.push(Draft {
                family: Family::Beliefs,
                target: MemoryTarget::SocialContext,
                template: "wrong_place",
                words: Box::new(move || {
                    let (who, thing) = (n.name(who), n.name(&o.id));
                    let It { it, it_is, .. } = them(&thing);
                    [
                        format!(
                            "{who} is about to look for {thing}, which {who} last saw {there}; {it_is} now {here}. Please bring {it} to {who}.",
                            there = n.value("location", &there),
                            here = n.value("location", &here),
                        ),
                        format!(
                            "{who} is about to look for {thing}. Please bring {it} to {who} first."
                        ),
                    ]
                }),
                goals: vec![Prop::HeldBy {
                    object: o.id.clone(),
                    actor: who.clone(),
                }],
                // Where it is now is what the plan needs (as bringing an
                // owner their thing); what they think is why it is asked.
                remember: None,
                evidence,
            });
        }
    }
    // Where something is: bring its owner their thing.
    for &o in &things.owned_once {
        let Some(owner) = o.owner.clone() else {
            continue;
        };
        let q = current_state::state(&o.id, "location");
        let Some(a) = answer(ix, cutoff, &q) else {
            continue;
        };
        let Answer::Value { value } = &a.answer else {
            continue;
        };
        let (value, who) = (value.clone(), owner.clone());
        out.push(Draft {
            family: Family::CurrentState,
            target: MemoryTarget::ObjectLocation,
            template: "bring_owner",
            words: Box::new(move || {
                [
                    format!(
                        "Please bring {} {}; {} {}.",
                        n.name(&who),
                        n.name(&o.id),
                        them(&n.name(&o.id)).it_is,
                        n.value("location", &value)
                    ),
                    capital(&format!(
                        "please bring {} their {}.",
                        n.name(&who),
                        o.category
                    )),
                ]
            }),
            goals: vec![Prop::HeldBy {
                object: o.id.clone(),
                actor: owner,
            }],
            remember: None,
            evidence: a.evidence,
        });
    }
    out
}

/// The words a task uses for a thing, as its name is one or many ("the
/// black over-ear headphones; they are on the desk").
struct It {
    it: &'static str,
    it_is: &'static str,
    usually_go: &'static str,
}

fn them(name: &str) -> It {
    if crate::catalogue::plural(name) {
        It {
            it: "them",
            it_is: "they are",
            usually_go: "they usually go",
        }
    } else {
        It {
            it: "it",
            it_is: "it is",
            usually_go: "it usually goes",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The claims kept as the cutoffs advance are, at every cutoff, those
    /// a walk back through everything heard before it finds: each holder's
    /// latest preference for each setting and the requests not yet past
    /// due, the latest first.
    #[test]
    fn kept_claims_are_the_walk_backs() {
        let src = crate::scene::BUILTIN[0].1;
        let scene = crate::scene::parse("family_apartment", src).expect("it parses");
        let events = crate::samples::sweep::lived(&scene, 10, 5);
        let ix = Index::new(&scene, &events);
        let mut kept = Claims::default();
        let (mut preferences, mut requests) = (0, 0);
        for (i, cutoff) in cutoffs(&ix).into_iter().enumerate() {
            let heard = ix.heard_before(cutoff.event);
            let mut seen = BTreeSet::new();
            let walked: Vec<u64> = (heard.iter().rev())
                .filter(|h| match (h.claim.mode, &h.claim.holder, h.claim.due) {
                    (ClaimMode::Preference, Some(holder), _) => {
                        seen.insert((holder, &h.claim.entity, &h.claim.attr))
                    }
                    (ClaimMode::Request, _, Some(due)) => cutoff.t < due + GRACE,
                    _ => false,
                })
                .map(|h| h.event)
                .collect();
            // Kept at every other cutoff only: a miner skips the cutoffs
            // where the robot's hands are full.
            if i % 2 == 0 {
                let found: Vec<u64> = (kept.at(heard, &cutoff).iter()).map(|h| h.event).collect();
                assert_eq!(found, walked, "at {}", cutoff.event);
            }
            preferences = preferences.max(seen.len());
            requests += walked.len() - seen.len();
        }
        assert!(
            preferences > 1 && requests > 0,
            "{preferences} preferences, {requests} requests"
        );
    }
}
