//! `events.jsonl`: its header and its lines, each a request and what came
//! of it (the changes, who perceived it); trace time.

use serde::{Deserialize, Serialize};

use crate::ids::Id;

use super::rejection::Outcome;
use super::request::Action;
use super::value::Value;

/// Version of the trace files' layout; bumped on any incompatible change.
/// 2: people leave and arrive (`leave`, `arrive`; positions `{"room":
/// "outside"}`; locations `carried_by` and `outside`).
/// 3: things break and are used up (`find_broken`, `repair` and a
/// device's `broken`; `use` and a thing's `level`; their rejection codes).
/// 4: lists are written (`write` and a writable thing's `text`).
pub const SCHEMA_VERSION: u32 = 4;

/// The schema versions this build reads: every older trace is a valid
/// trace of the newest (each version only added skills, attributes,
/// values and rejection codes).
pub const READABLE_SCHEMA_VERSIONS: std::ops::RangeInclusive<u32> = 1..=SCHEMA_VERSION;

/// Seconds in a simulated day; `t = 0` is midnight starting day 1.
pub const DAY: u64 = 86_400;

/// The first line of `events.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventsHeader {
    pub schema: String,
    pub schema_version: u32,
    pub scene: Id,
}

impl EventsHeader {
    pub fn new(scene: Id) -> Self {
        EventsHeader {
            schema: "hearth.events".into(),
            schema_version: SCHEMA_VERSION,
            scene,
        }
    }
}

/// One attribute of one entity that an event changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Change {
    pub entity: Id,
    pub attr: Id,
    pub old: Value,
    pub new: Value,
}

/// An attribute's value as perceived (a fact, not a change).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fact {
    pub entity: Id,
    pub attr: Id,
    pub value: Value,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// A skill: navigate_to, pick, place, ... and wait.
    Action,
    /// `say`: an utterance, heard by its observers.
    Utterance,
}

/// One line of `events.jsonl`: a request and what came of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// 1-based, dense, in trace order.
    pub id: u64,
    /// 1-based simulated day.
    pub day: u32,
    /// Simulated seconds since midnight of day 1, when the action started.
    pub t: u64,
    /// Wall-clock time of day of `t`, `HH:MM:SS`, for people.
    pub time: String,
    /// How long the action took, seconds; the actor is busy until `t + dur`.
    pub dur: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    pub kind: EventKind,
    pub actor: Id,
    #[serde(flatten)]
    pub action: Action,
    pub outcome: Outcome,
    #[serde(default)]
    pub changes: Vec<Change>,
    /// Actors who perceived the event (always including the actor).
    pub observers: Vec<Id>,
    /// Those of the observers who only heard it through a wall (the front
    /// door): they know who went out or came in, not what was carried.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub heard_by: Vec<Id>,
    /// Rooms walked through, for navigation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub via: Vec<Id>,
    /// What became visible through this event (a room on arrival, a
    /// container's contents on opening, a target on inspection).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reveals: Vec<Fact>,
    /// Who perceived `reveals`: the mover for navigation, else the observers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub revealed_to: Vec<Id>,
    /// Entities the event is about: arguments, and entities in claims.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mentions: Vec<Id>,
    /// Who wrote the request: set only in traces of an LLM backend, so a
    /// scripted trace's bytes do not change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
}

impl Event {
    /// Whether `who` only heard change `c` happen, not saw it: a thing
    /// carried in a departure or an arrival they heard through a wall
    /// (`heard_by`).
    pub fn heard_only(&self, who: &Id, c: &Change) -> bool {
        c.attr.as_str() == "location" && self.heard_by.contains(who)
    }
}

/// Who authored a session or an event of an LLM trace: the model, or the
/// offline script that filled in where the model gave nothing usable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    Llm,
    Script,
}

impl Source {
    pub fn name(self) -> &'static str {
        match self {
            Source::Llm => "llm",
            Source::Script => "script",
        }
    }
}

/// `HH:MM:SS` of a trace time.
pub fn clock_time(t: u64) -> String {
    let s = t % DAY;
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// 1-based day of a trace time.
pub fn day_of(t: u64) -> u32 {
    (t / DAY) as u32 + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_and_day() {
        assert_eq!(clock_time(DAY + 8 * 3600 + 61), "08:01:01");
        assert_eq!(day_of(0), 1);
        assert_eq!(day_of(DAY), 2);
    }
}
