//! A second, independent derivation of the gold answers (issue 48, item
//! 2): what every mined question's answer should be, worked out from the
//! trace's events and the rules written in docs/samples.md alone. It
//! shares no code with the miner (`samples::Index`, `samples::answer`,
//! `samples::answered`, `samples::families`): it reads `hearth::trace`
//! events, the scene (rooms of fixtures, who the people are), the
//! sample's `Query` and `Answer` types, and scans the events before the
//! cutoff as a careful annotator would, one question at a time. It is
//! deliberately slow and plain: a list scanned, not an index kept.
//!
//! What "the robot perceived" means (docs/visibility.md): an event it is
//! among the `observers` of (it saw or heard it, and so the event's
//! changes and words), or among the `revealed_to` of (it saw what the
//! event showed: `reveals`). Rejected events change nothing. The world
//! answer is the same derivation by an observer who perceived every
//! event ([`Eyes::All`]), and for a state, the true value.
//!
//! [`Reference::answer`] gives a question's answer with the evidence it
//! rests on, or why the rules do not settle it (then the miner should not
//! have asked it).

mod acts;
mod beliefs;
mod presence;
mod said;

pub use said::says;
mod state;
mod stock;

use std::collections::{BTreeMap, BTreeSet};

use hearth::ids::Id;
use hearth::samples::{Act, Answer, Query};
use hearth::scene::{ActorKind, OUTSIDE, Scene};
use hearth::trace::request::{Action, Relation};
use hearth::trace::{Claim, Event, Location, Value};

/// Who perceives: the robot, or an observer of every event (what was true).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eyes {
    Robot,
    All,
}

/// An answer and the events it rests on: the one set of events it must
/// cite, or any of a few (several sights of the same thing would do).
#[derive(Debug, Clone, PartialEq)]
pub struct Got {
    pub answer: Answer,
    pub evidence: Vec<Vec<u64>>,
}

/// Events sorted, without repeats.
fn set(evidence: impl IntoIterator<Item = u64>) -> Vec<u64> {
    let set: BTreeSet<u64> = evidence.into_iter().collect();
    set.into_iter().collect()
}

impl Got {
    pub fn new(answer: Answer, evidence: impl IntoIterator<Item = u64>) -> Self {
        Got {
            answer,
            evidence: vec![set(evidence)],
        }
    }

    fn unknown() -> Self {
        Got::new(Answer::Unknown, [])
    }

    /// `answer`, resting on any one of `choices`.
    fn either(answer: Answer, choices: impl IntoIterator<Item = Vec<u64>>) -> Self {
        Got {
            answer,
            evidence: choices.into_iter().map(set).collect(),
        }
    }

    /// Whether `evidence` is what the answer rests on.
    pub fn rests_on(&self, evidence: &[u64]) -> bool {
        self.evidence
            .iter()
            .any(|e| *e == set(evidence.iter().copied()))
    }
}

/// Why the rules do not settle a question (the miner should not ask it).
pub type Unsettled = String;

/// One trace, read for its questions.
pub struct Reference<'a> {
    pub scene: &'a Scene,
    pub events: &'a [Event],
    pub robot: Id,
    /// Each attribute's value before the first event (the truth).
    pub initial: BTreeMap<(Id, Id), Value>,
}

/// A claim heard: who said it, in which event.
#[derive(Debug, Clone)]
pub struct Said<'a> {
    pub event: &'a Event,
    pub speaker: &'a Id,
    pub claim: &'a Claim,
}

impl<'a> Reference<'a> {
    pub fn new(scene: &'a Scene, events: &'a [Event]) -> Self {
        for (i, e) in events.iter().enumerate() {
            assert_eq!(e.id, i as u64 + 1, "event ids are dense from 1");
        }
        let robot = scene
            .actors
            .iter()
            .find(|a| a.kind == ActorKind::Robot)
            .map(|a| a.id.clone())
            .expect("a robot");
        let initial = hearth::sim::initial_state(scene).into_map();
        Reference {
            scene,
            events,
            robot,
            initial,
        }
    }

    /// The events before `cutoff` (ids are dense from 1).
    pub fn before(&self, cutoff: u64) -> &'a [Event] {
        &self.events[..(cutoff.saturating_sub(1) as usize).min(self.events.len())]
    }

    pub fn event(&self, id: u64) -> Option<&'a Event> {
        self.events.get((id as usize).checked_sub(1)?)
    }

    /// Whether `eyes` saw or heard `e` (its changes, its words).
    pub fn observed(&self, eyes: Eyes, e: &Event) -> bool {
        eyes == Eyes::All || e.observers.contains(&self.robot)
    }

    /// Whether `eyes` saw what `e` showed.
    pub fn revealed(&self, eyes: Eyes, e: &Event) -> bool {
        eyes == Eyes::All || e.revealed_to.contains(&self.robot)
    }

    /// Whether `eyes` perceived `e` at all.
    pub fn perceived(&self, eyes: Eyes, e: &Event) -> bool {
        self.observed(eyes, e) || self.revealed(eyes, e)
    }

    /// Every value `eyes` saw `entity.attr` take before `cutoff`, in
    /// order: the changes of the accepted events it observed, and what
    /// events showed it.
    pub fn sightings(&self, eyes: Eyes, entity: &Id, attr: &Id, cutoff: u64) -> Vec<(u64, Value)> {
        let mut out = Vec::new();
        for e in self.before(cutoff) {
            if e.outcome.is_ok() && self.observed(eyes, e) {
                for c in &e.changes {
                    // A departure heard through a wall shows nothing moved.
                    let by_ear = eyes == Eyes::Robot && e.heard_by.contains(&self.robot);
                    if c.entity == *entity
                        && c.attr == *attr
                        && !(by_ear && attr.as_str() == "location")
                    {
                        out.push((e.id, c.new.clone()));
                    }
                }
            }
            if self.revealed(eyes, e) {
                for f in &e.reveals {
                    if f.entity == *entity && f.attr == *attr {
                        out.push((e.id, f.value.clone()));
                    }
                }
            }
        }
        out
    }

    /// The claims `eyes` heard before `cutoff`, in order.
    pub fn heard(&self, eyes: Eyes, cutoff: u64) -> Vec<Said<'a>> {
        let mut out = Vec::new();
        for e in self.before(cutoff) {
            if let Action::Say { claims, .. } = &e.action
                && e.outcome.is_ok()
                && self.observed(eyes, e)
            {
                for claim in claims {
                    out.push(Said {
                        event: e,
                        speaker: &e.actor,
                        claim,
                    });
                }
            }
        }
        out
    }

    /// The accepted events `eyes` perceived before `cutoff` that are acts
    /// worth asking about, with the act.
    pub fn acts(&self, eyes: Eyes, cutoff: u64) -> Vec<(&'a Event, Act)> {
        self.before(cutoff)
            .iter()
            .filter(|e| e.outcome.is_ok() && self.perceived(eyes, e))
            .filter_map(|e| Some((e, act_of(&e.action)?)))
            .collect()
    }

    /// The true value of `entity.attr` just before event `cutoff`.
    pub fn truth(&self, entity: &Id, attr: &Id, cutoff: u64) -> Option<Value> {
        let mut v = self.initial.get(&(entity.clone(), attr.clone())).cloned();
        for e in self.before(cutoff).iter().filter(|e| e.outcome.is_ok()) {
            for c in &e.changes {
                if c.entity == *entity && c.attr == *attr {
                    v = Some(c.new.clone());
                }
            }
        }
        v
    }

    /// The room of furniture or a device.
    pub fn fixture_room(&self, id: &Id) -> Option<&'a Id> {
        let s = self.scene;
        s.furniture
            .iter()
            .find(|f| f.id == *id)
            .map(|f| &f.room)
            .or_else(|| s.devices.iter().find(|d| d.id == *id).map(|d| &d.room))
    }

    /// The answer to `q` asked at `cutoff` (an event id), as `eyes` could
    /// give it.
    pub fn answer(
        &self,
        eyes: Eyes,
        cutoff: &hearth::samples::Cutoff,
        q: &Query,
    ) -> Result<Got, Unsettled> {
        let c = cutoff.event;
        match q {
            Query::State { entity, attr } => self.state(eyes, entity, attr, c),
            Query::Before {
                entity,
                attr,
                change,
            } => self.before_change(eyes, entity, attr, *change, c),
            Query::LastTime { actor, act } => self.last_time(eyes, actor, act, c),
            Query::First {
                a_actor,
                a,
                b_actor,
                b,
            } => self.first(eyes, (a_actor, a), (b_actor, b), c),
            Query::Next { event } => self.next(eyes, *event, c),
            Query::Preference {
                holder,
                entity,
                attr,
            } => self.preference(eyes, holder, entity, attr, c),
            Query::WhoPrefers {
                entity,
                attr,
                value,
            } => self.who_prefers(eyes, entity, attr, value, c),
            Query::UsualValue {
                actor,
                device,
                field,
            } => self.usual_value(eyes, actor, device, field, c),
            Query::UsualPlace { object } => self.usual_place(eyes, object, c),
            Query::UsualActor {
                device,
                field,
                value,
            } => self.usual_actor(eyes, device, field, value, c),
            Query::UsualHour { actor, act } => self.usual_hour(eyes, actor, act, c),
            Query::OutDays { actor, to } => self.out_days(eyes, actor, *to, cutoff),
            Query::WhoSaid {
                entity,
                attr,
                value,
            } => self.who_said(eyes, entity, attr, value, c),
            Query::SeenOrTold { claim, entity } => self.seen_or_told(eyes, *claim, entity, c),
            Query::AccordingTo {
                speaker,
                entity,
                attr,
            } => self.according_to(eyes, speaker, entity, attr, c),
            Query::Asked { request, entity } => self.asked(eyes, *request, entity, c),
            Query::Due { request, entity } => self.due(eyes, *request, entity, c),
            Query::Status { request, entity } => self.status(eyes, *request, entity, cutoff),
            Query::Count { actor, act, day } => self.count(eyes, actor.as_ref(), act, *day, c),
            Query::WhoHome { event } => self.who_home(eyes, *event, c),
            Query::WhileOut {
                person,
                leave,
                back,
                entity,
                attr,
            } => self.while_out(eyes, person, *leave, *back, entity, attr, c),
            Query::Thinks {
                person,
                entity,
                attr,
            } => self.thinks(eyes, person, entity, attr, c),
            Query::WhoSaw { event } => self.who_saw(eyes, *event, c),
            Query::BrokenSince { device } => self.broken_since(eyes, device, c),
            Query::LastBought { kind } => self.last_stocked(eyes, kind, true, c),
            Query::LastThrownOut { kind } => self.last_stocked(eyes, kind, false, c),
            Query::StillHave { kind } => self.still_have(eyes, kind, c),
        }
    }

    /// The humans of the scene, in scene order.
    pub fn people(&self) -> impl Iterator<Item = &'a hearth::scene::ActorDef> {
        self.scene
            .actors
            .iter()
            .filter(|a| a.kind == ActorKind::Human)
    }

    /// Whether `who` starts the trace out of the house (a visitor).
    pub fn starts_out(&self, who: &Id) -> bool {
        self.scene
            .actors
            .iter()
            .any(|a| a.id == *who && a.room.as_str() == OUTSIDE)
    }
}

/// The act an action is asked about as (`Act` in docs/samples.md's
/// queries): its skill with what it was done to; walking, looking,
/// talking, waiting and using a serving are none.
pub fn act_of(a: &Action) -> Option<Act> {
    let mut act = Act {
        skill: a.skill_name().into(),
        object: None,
        target: None,
        field: None,
        value: None,
    };
    match a {
        Action::Open { target } | Action::Close { target } => act.target = Some(target.clone()),
        Action::Pick { object } => act.object = Some(object.clone()),
        Action::Place {
            object,
            target,
            relation,
        } => {
            act.object = Some(object.clone());
            act.target = Some(target.clone());
            act.value = Some(Value::Location(match relation {
                Relation::On => Location::On(target.clone()),
                Relation::In => Location::In(target.clone()),
            }));
        }
        Action::Handoff { object, to } => {
            act.object = Some(object.clone());
            act.target = Some(to.clone());
        }
        Action::SetDeviceState {
            device,
            field,
            value,
        } => {
            act.target = Some(device.clone());
            act.field = Some(Id::new(field));
            act.value = Some(value.clone());
        }
        Action::Leave { door, to, .. } => {
            act.target = Some(door.clone());
            act.value = Some(Value::Text(to.name().to_string()));
        }
        Action::Arrive { door, .. } => act.target = Some(door.clone()),
        Action::FindBroken { device } | Action::Repair { device } => {
            act.target = Some(device.clone())
        }
        // A serving used is asked of by what is left, a list written on
        // by what it reads (states).
        Action::NavigateTo { .. }
        | Action::Inspect { .. }
        | Action::Say { .. }
        | Action::Wait { .. }
        | Action::Use { .. }
        | Action::Write { .. } => {
            return None;
        }
    }
    Some(act)
}

/// A time answer: trace seconds, with the day and the clock to the minute.
pub fn time_answer(t: u64) -> Answer {
    let s = t % 86_400;
    Answer::Time {
        t,
        day: (t / 86_400) as u32 + 1,
        time: format!("{:02}:{:02}", s / 3600, s / 60 % 60),
        stale: false,
    }
}

/// The habit rule (docs/samples.md, routine): the most common value, when
/// it is seen on two days or more and at least two thirds of the times;
/// with its events.
pub fn habit<V: Ord + Clone>(items: &[(V, &Event)]) -> Result<(V, Vec<u64>), Unsettled> {
    let mut by: BTreeMap<&V, Vec<&Event>> = BTreeMap::new();
    for (v, e) in items {
        by.entry(v).or_default().push(e);
    }
    let most = by.values().map(Vec::len).max().ok_or("nothing seen")?;
    let top: Vec<(&&V, &Vec<&Event>)> = by.iter().filter(|(_, es)| es.len() == most).collect();
    if top.len() != 1 {
        return Err(format!("{} values tie at {most}", top.len()));
    }
    let (v, es) = top[0];
    let days: BTreeSet<u32> = es.iter().map(|e| e.day).collect();
    if days.len() < 2 {
        return Err(format!("{most} of {} on one day", items.len()));
    }
    if most * 3 < items.len() * 2 {
        return Err(format!("{most} of {}: under two thirds", items.len()));
    }
    Ok(((*v).clone(), es.iter().map(|e| e.id).collect()))
}
