//! The trace format: the one serialization boundary between the core and
//! everything that reads its output (miner, evaluator, viewer, Python).
//!
//! A trace directory holds `manifest.json`, `scene.ron` and `events.jsonl`;
//! the first line of `events.jsonl` is an [`EventsHeader`], every other line
//! one [`Event`]. These types only describe data; writing files is
//! [`crate::store`]'s job. [`request`] is the request shape scripts, agents
//! and generators submit; events carry it, so it is part of the format.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

mod difficulty;
mod rejection;
pub mod request;
mod state;

pub use difficulty::{Difficulty, DifficultyError};
pub use rejection::{Outcome, Rejection, RejectionCode};
pub use state::{Key, State};

use crate::ids::Id;
use request::Action;

/// Version of the trace files' layout; bumped on any incompatible change.
/// 2: people leave and arrive (`leave`, `arrive`; positions `{"room":
/// "outside"}`; locations `carried_by` and `outside`).
pub const SCHEMA_VERSION: u32 = 2;

/// The schema versions this build reads: every version-1 trace is a valid
/// version-2 trace (2 only added skills, values and rejection codes).
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

/// A value of an attribute: a device field, an open flag, an object's
/// location or an actor's position.
///
/// Written untagged; read by its own visitor (what `#[serde(untagged)]`
/// would accept, without buffering every value first: reading a trace is
/// mostly reading values).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Value {
    Bool(bool),
    Int(i64),
    Float(f64),
    Text(String),
    Location(Location),
    Position(Position),
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> serde::de::Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a bool, number, string, location ({\"on\": id}) or position ({\"room\": id})")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, i: i64) -> Result<Value, E> {
        Ok(Value::Int(i))
    }

    fn visit_u64<E>(self, u: u64) -> Result<Value, E> {
        // As untagged would: an integer too large for i64 is a float.
        Ok(i64::try_from(u).map_or(Value::Float(u as f64), Value::Int))
    }

    fn visit_f64<E>(self, x: f64) -> Result<Value, E> {
        Ok(Value::Float(x))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::Text(s.to_string()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::Text(s))
    }

    /// A location is a map of one entry (`on`, `in`, `held_by`,
    /// `carried_by`, or `outside: true`); else a position, with a `room`
    /// and perhaps `near` (other keys ignored).
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut entries: Vec<(String, Option<Id>)> = Vec::new();
        let mut outside = None;
        while let Some(k) = map.next_key::<String>()? {
            if matches!(
                k.as_str(),
                "on" | "in" | "held_by" | "carried_by" | "room" | "near"
            ) {
                let v = map.next_value::<Option<Id>>()?;
                entries.push((k, v));
            } else if k == "outside" {
                outside = Some(map.next_value::<serde_json::Value>()?);
                entries.push((k, None));
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
                entries.push((k, None));
            }
        }
        if let [(k, id)] = entries.as_slice() {
            match (k.as_str(), id.clone()) {
                ("on", Some(id)) => return Ok(Value::Location(Location::On(id))),
                ("in", Some(id)) => return Ok(Value::Location(Location::In(id))),
                ("held_by", Some(id)) => return Ok(Value::Location(Location::HeldBy(id))),
                ("carried_by", Some(id)) => {
                    return Ok(Value::Location(Location::CarriedBy(id)));
                }
                ("outside", _) if outside == Some(serde_json::Value::Bool(true)) => {
                    return Ok(Value::Location(Location::Outside));
                }
                _ => {}
            }
        }
        let field = |name: &str| entries.iter().find(|(k, _)| k == name).map(|(_, v)| v);
        match field("room") {
            Some(Some(room)) => Ok(Value::Position(Position {
                room: room.clone(),
                near: field("near").cloned().flatten(),
            })),
            _ => Err(serde::de::Error::custom(
                "data did not match any variant of untagged enum Value",
            )),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Text(s) => f.write_str(s),
            Value::Location(l) => write!(f, "{l}"),
            Value::Position(p) => write!(f, "{p}"),
        }
    }
}

/// Where an object is. On the wire a map of one entry: `{"on": id}`,
/// `{"in": id}`, `{"held_by": actor}`, `{"carried_by": actor}` (in a
/// pocket or bag, out of the hands: what a person takes out of the house
/// or brings in) or `{"outside": true}` (beyond the front door with no one:
/// a parcel not yet delivered, a laptop left at work).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Location {
    On(Id),
    In(Id),
    HeldBy(Id),
    CarriedBy(Id),
    Outside,
}

impl Location {
    /// Whether the object is in someone's hands or bag.
    pub fn holder(&self) -> Option<&Id> {
        match self {
            Location::HeldBy(a) | Location::CarriedBy(a) => Some(a),
            _ => None,
        }
    }
}

/// The wire shape of a [`Location`].
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum LocationWire {
    On(Id),
    In(Id),
    HeldBy(Id),
    CarriedBy(Id),
    Outside(OutsideFlag),
}

/// `true`, the one value of `{"outside": true}`.
#[derive(Clone, Copy)]
struct OutsideFlag;

impl Serialize for OutsideFlag {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bool(true)
    }
}

impl<'de> Deserialize<'de> for OutsideFlag {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match bool::deserialize(d)? {
            true => Ok(OutsideFlag),
            false => Err(serde::de::Error::custom("\"outside\" is only ever true")),
        }
    }
}

impl Serialize for Location {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.clone() {
            Location::On(r) => LocationWire::On(r),
            Location::In(r) => LocationWire::In(r),
            Location::HeldBy(a) => LocationWire::HeldBy(a),
            Location::CarriedBy(a) => LocationWire::CarriedBy(a),
            Location::Outside => LocationWire::Outside(OutsideFlag),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Location {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match LocationWire::deserialize(d)? {
            LocationWire::On(r) => Location::On(r),
            LocationWire::In(r) => Location::In(r),
            LocationWire::HeldBy(a) => Location::HeldBy(a),
            LocationWire::CarriedBy(a) => Location::CarriedBy(a),
            LocationWire::Outside(_) => Location::Outside,
        })
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::On(r) => write!(f, "on {r}"),
            Location::In(r) => write!(f, "in {r}"),
            Location::HeldBy(a) => write!(f, "held by {a}"),
            Location::CarriedBy(a) => write!(f, "carried by {a}"),
            Location::Outside => write!(f, "outside the house"),
        }
    }
}

/// Where an actor is: a room, and the furniture or device it stands at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    pub room: Id,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub near: Option<Id>,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.near {
            Some(n) => write!(f, "{} at {n}", self.room),
            None => write!(f, "{}", self.room),
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

/// Structured content of an utterance about `entity.attr = value`. A fact
/// claim ("the keys are in the drawer") is what someone said, which may be
/// wrong or become stale; a preference ("volume 25 is right for me") says
/// how `holder` likes it; a request ("put it in the wardrobe by five") asks
/// the addressee to make it so by `due`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    pub entity: Id,
    pub attr: Id,
    pub value: Value,
    #[serde(default, skip_serializing_if = "ClaimMode::is_fact")]
    pub mode: ClaimMode,
    /// Whose preference (preferences only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holder: Option<Id>,
    /// By when, trace seconds (requests only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due: Option<u64>,
}

impl Claim {
    /// A plain statement of fact.
    pub fn fact(entity: Id, attr: Id, value: Value) -> Self {
        Claim {
            entity,
            attr,
            value,
            mode: ClaimMode::Fact,
            holder: None,
            due: None,
        }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimMode {
    #[default]
    Fact,
    Preference,
    Request,
}

impl ClaimMode {
    fn is_fact(&self) -> bool {
        *self == ClaimMode::Fact
    }
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

/// `manifest.json`: what a trace is and how it was made. Written last, so a
/// directory with a manifest is a finished trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub schema: String,
    pub schema_version: u32,
    pub hearth_version: String,
    pub scene: SceneRef,
    /// `script`, `scripted`, `openai` or `replay`.
    pub backend: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub prompt_hashes: BTreeMap<String, String>,
    pub days: u32,
    pub counts: Counts,
    /// Files of the trace, relative to its directory.
    pub files: Vec<String>,
    /// What the LLM calls cost and what was skipped (LLM backends).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llm: Option<LlmReport>,
    /// The difficulty axes it was generated with (absent: the defaults).
    #[serde(default, skip_serializing_if = "Difficulty::is_default")]
    pub difficulty: Difficulty,
}

/// The cost of a trace's LLM calls per stage, and the replies it went on
/// without. Figures come from the recorded exchanges, so a replay reports
/// the same.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LlmReport {
    pub stages: BTreeMap<String, StageCost>,
    /// Characters of every call's prompt, and of those the ones that repeat
    /// the previous call's prompt from its start (what a server's prefix
    /// cache can reuse).
    pub prompt_chars: u64,
    pub reused_prefix_chars: u64,
    pub skipped: Vec<LlmSkip>,
    /// How much of the trace the model wrote; the script wrote the rest.
    #[serde(default)]
    pub authored: Authored,
    /// Stages the script filled because the model gave nothing usable (or
    /// the token budget was spent), each with where and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fallbacks: Vec<LlmSkip>,
    /// How the model's day sat in the calendar's frame, and how its steps
    /// were grounded.
    #[serde(default)]
    pub lived: Lived,
}

/// The model's part in the household's day: its own sessions placed in
/// the calendar's frame, the frame sessions it directed, and what the
/// grounding of its steps did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Lived {
    /// Sessions of its own the model asked for (each kept at its time,
    /// moved or dropped).
    pub asked: u64,
    /// Moved to free time, or dropped, with why (`at`: the day, the time
    /// asked and the kind).
    pub moved: Vec<LlmSkip>,
    pub dropped: Vec<LlmSkip>,
    /// Frame sessions whose intent and turns the model wrote.
    pub directed: u64,
    /// The model's turns in frame sessions: in the place of a calendar
    /// turn, beside them, or dropped (their actor out).
    pub replaced: u64,
    pub added: u64,
    pub turns_dropped: u64,
    /// The calendar's words (those carrying no fact) given to the model
    /// to say in its own.
    pub spoken: u64,
    /// Walks put before a model's step about something out of reach.
    pub walks: u64,
    /// Steps dropped because they would change nothing.
    pub no_ops: u64,
    /// Turns ended because the model asked again for a refused request.
    pub ended: u64,
    /// Model texts (intents, intentions, words) that repeat a prompt's
    /// example.
    pub echoes: u64,
}

/// Sessions, intents, events and words of an LLM trace by who wrote
/// them, and the events refused by code.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Authored {
    pub sessions: u64,
    pub llm_sessions: u64,
    pub events: u64,
    pub llm_events: u64,
    /// Sessions whose intent the model wrote (its own, and the frame's
    /// it directed).
    #[serde(default)]
    pub llm_intents: u64,
    #[serde(default)]
    pub utterances: u64,
    #[serde(default)]
    pub llm_utterances: u64,
    /// Refused events by rejection code.
    #[serde(default)]
    pub refused: BTreeMap<String, u64>,
}

impl Authored {
    /// Counts one event of the trace.
    pub fn add_event(&mut self, e: &Event) {
        let llm = e.source == Some(Source::Llm);
        self.events += 1;
        self.llm_events += u64::from(llm);
        if e.kind == EventKind::Utterance {
            self.utterances += 1;
            self.llm_utterances += u64::from(llm);
        }
        if let Some(r) = e.outcome.rejection() {
            *self.refused.entry(r.code.code().to_string()).or_default() += 1;
        }
    }

    /// The share of session intents the model wrote, 0 to 1.
    pub fn intent_share(&self) -> f64 {
        share(self.llm_intents, self.sessions)
    }

    /// The share of utterances the model wrote, 0 to 1.
    pub fn utterance_share(&self) -> f64 {
        share(self.llm_utterances, self.utterances)
    }

    /// The share of events refused, 0 to 1.
    pub fn refused_share(&self) -> f64 {
        let refused: u64 = self.refused.values().sum();
        refused as f64 / self.events.max(1) as f64
    }

    /// The share of sessions the model wrote, 0 to 1 (1 when there are none).
    pub fn session_share(&self) -> f64 {
        share(self.llm_sessions, self.sessions)
    }

    pub fn event_share(&self) -> f64 {
        share(self.llm_events, self.events)
    }
}

fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        1.0
    } else {
        part as f64 / whole as f64
    }
}

/// What LLM calls cost: per stage in an [`LlmReport`], and per call in
/// the LLM client's replies and cache records (which leave out `calls` and
/// `skipped`, the backend's to count; absent counts read as 0).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct StageCost {
    pub calls: u64,
    /// HTTP requests, retries and re-asks included.
    pub requests: u64,
    /// From the reply's `usage`; estimated as characters / 4 when absent.
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// Replies made valid JSON locally.
    pub repairs: u64,
    /// Replies sent back with what was wrong.
    pub reasks: u64,
    pub skipped: u64,
    /// Values brought into the schema locally: numbers clamped to their
    /// bounds, near-miss names mapped to the real one, unknown fields dropped.
    pub fixed: u64,
    /// Items dropped from a reply whose other items were kept.
    pub dropped: u64,
    /// Calls whose reply the stage used (after re-asks, if any): `accepted
    /// / calls` is the stage's acceptance.
    #[serde(skip_serializing_if = "is_zero")]
    pub accepted: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl std::ops::AddAssign for StageCost {
    fn add_assign(&mut self, o: StageCost) {
        self.calls += o.calls;
        self.requests += o.requests;
        self.prompt_tokens += o.prompt_tokens;
        self.completion_tokens += o.completion_tokens;
        self.repairs += o.repairs;
        self.reasks += o.reasks;
        self.skipped += o.skipped;
        self.fixed += o.fixed;
        self.dropped += o.dropped;
        self.accepted += o.accepted;
    }
}

/// A session, turn, day's beats or notes that went on without a usable reply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmSkip {
    pub stage: String,
    /// `day 2`, `d2s03`, `d2s03 alice`.
    pub at: String,
    pub reason: String,
}

impl LlmReport {
    pub fn total(&self) -> StageCost {
        self.stages.values().fold(StageCost::default(), |mut t, s| {
            t += *s;
            t
        })
    }
}

impl Manifest {
    /// The manifest of a finished trace of `scene`.
    pub fn new(
        scene: &crate::scene::Scene,
        backend: &str,
        seed: Option<u64>,
        days: u32,
        counts: Counts,
        files: Vec<String>,
    ) -> Self {
        Manifest {
            schema: "hearth.trace".into(),
            schema_version: SCHEMA_VERSION,
            hearth_version: env!("CARGO_PKG_VERSION").into(),
            scene: SceneRef {
                id: scene.id.clone(),
                hash: crate::scene::content_hash(scene),
            },
            backend: backend.into(),
            seed,
            model: None,
            prompt_hashes: BTreeMap::new(),
            days,
            counts,
            files,
            llm: None,
            difficulty: Default::default(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SceneRef {
    pub id: Id,
    /// SHA-256 of the scene's canonical RON (`scene.ron` in the trace).
    pub hash: String,
}

/// Totals over a trace's events.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Counts {
    pub events: u64,
    pub rejected: u64,
    pub changes: u64,
    /// Accepted events with state changes that no robot observed.
    pub unseen_by_robot: u64,
    pub by_kind: BTreeMap<String, u64>,
    pub by_skill: BTreeMap<String, u64>,
}

impl Counts {
    /// Adds one event; `robots` are the robot ids of the scene.
    pub fn add(&mut self, e: &Event, robots: &[Id]) {
        self.events += 1;
        self.changes += e.changes.len() as u64;
        if !e.outcome.is_ok() {
            self.rejected += 1;
        } else if !e.changes.is_empty() && !e.observers.iter().any(|o| robots.contains(o)) {
            self.unseen_by_robot += 1;
        }
        let kind = match e.kind {
            EventKind::Action => "action",
            EventKind::Utterance => "utterance",
        };
        *self.by_kind.entry(kind.into()).or_default() += 1;
        *self
            .by_skill
            .entry(e.action.skill_name().into())
            .or_default() += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Value` as `#[serde(untagged)]` derives it: what its own reader must match.
    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(untagged)]
    enum Untagged {
        Bool(bool),
        Int(i64),
        Float(f64),
        Text(String),
        Location(Location),
        Position(Position),
    }

    impl From<Untagged> for Value {
        fn from(u: Untagged) -> Value {
            match u {
                Untagged::Bool(b) => Value::Bool(b),
                Untagged::Int(i) => Value::Int(i),
                Untagged::Float(x) => Value::Float(x),
                Untagged::Text(s) => Value::Text(s),
                Untagged::Location(l) => Value::Location(l),
                Untagged::Position(p) => Value::Position(p),
            }
        }
    }

    #[test]
    fn values_read_as_untagged_reads_them() {
        for js in [
            "true",
            "-3",
            "42",
            "18446744073709551615",
            "2.5",
            "1e3",
            "\"warm\"",
            "\"\"",
            r#"{"on":"table_1"}"#,
            r#"{"in":"fridge_1"}"#,
            r#"{"held_by":"alice"}"#,
            r#"{"carried_by":"alice"}"#,
            r#"{"outside":true}"#,
            r#"{"outside":false}"#,
            r#"{"outside":"alice"}"#,
            r#"{"outside":true,"room":"kitchen"}"#,
            r#"{"room":"kitchen"}"#,
            r#"{"room":"kitchen","near":"sink_1"}"#,
            r#"{"near":"sink_1","room":"kitchen"}"#,
            r#"{"room":"kitchen","near":null}"#,
            r#"{"room":"kitchen","other":[1,{"x":2}]}"#,
            r#"{"on":"table_1","room":"kitchen"}"#,
            // Not values: both refuse them.
            "null",
            "[1,2]",
            "{}",
            r#"{"on":null}"#,
            r#"{"on":3}"#,
            r#"{"under":"table_1"}"#,
            r#"{"near":"sink_1"}"#,
            r#"{"room":null}"#,
        ] {
            let ours = serde_json::from_str::<Value>(js).ok();
            let derived = serde_json::from_str::<Untagged>(js).ok().map(Value::from);
            assert_eq!(ours, derived, "{js}");
        }
        // Written as ever, so read back the same.
        let v = Value::Position(Position {
            room: Id::new("kitchen"),
            near: None,
        });
        let js = serde_json::to_string(&v).unwrap();
        assert_eq!(js, r#"{"room":"kitchen"}"#);
        assert_eq!(serde_json::from_str::<Value>(&js).unwrap(), v);
    }

    #[test]
    fn values_serialize_as_plain_json() {
        let v = Value::Location(Location::HeldBy(Id::new("robot")));
        assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"held_by":"robot"}"#);
        let back: Value = serde_json::from_str(r#"{"in":"fridge_1"}"#).unwrap();
        assert_eq!(back, Value::Location(Location::In(Id::new("fridge_1"))));
        let p: Value = serde_json::from_str(r#"{"room":"kitchen","near":"counter_1"}"#).unwrap();
        assert!(matches!(p, Value::Position(_)));
        assert_eq!(serde_json::from_str::<Value>("3").unwrap(), Value::Int(3));
        assert_eq!(
            serde_json::from_str::<Value>("3.5").unwrap(),
            Value::Float(3.5)
        );
    }

    #[test]
    fn locations_outside_have_their_wire_forms() {
        for (loc, js) in [
            (
                Location::CarriedBy(Id::new("bob")),
                r#"{"carried_by":"bob"}"#,
            ),
            (Location::Outside, r#"{"outside":true}"#),
            (Location::HeldBy(Id::new("bob")), r#"{"held_by":"bob"}"#),
        ] {
            assert_eq!(serde_json::to_string(&loc).unwrap(), js);
            assert_eq!(serde_json::from_str::<Location>(js).unwrap(), loc);
            let v = Value::Location(loc);
            assert_eq!(serde_json::from_str::<Value>(js).unwrap(), v);
        }
        let p: Value = serde_json::from_str(r#"{"room":"outside"}"#).unwrap();
        assert!(
            matches!(p, Value::Position(Position { room, near: None }) if room.as_str() == "outside")
        );
        assert!(serde_json::from_str::<Location>(r#"{"outside":false}"#).is_err());
    }

    #[test]
    fn clock_and_day() {
        assert_eq!(clock_time(DAY + 8 * 3600 + 61), "08:01:01");
        assert_eq!(day_of(0), 1);
        assert_eq!(day_of(DAY), 2);
    }
}
