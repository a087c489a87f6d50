//! The sample format (`samples.jsonl`): Memory-QA samples and planning
//! tasks, each with its cutoff, structured question, reference answer and
//! evidence. Part of the trace format: other tools read these files.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::catalogue::schedules::Weekday;
use crate::generation::MemoryTarget;
use crate::ids::Id;
use crate::trace::Value;
use crate::trace::request::{Destination, Request};

/// Schema of `samples.jsonl`.
pub const SAMPLES_SCHEMA: &str = "hearth.samples";

/// The question families of WorldLines §3.3 (and counting).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    CurrentState,
    OverwrittenState,
    Temporal,
    Preference,
    Routine,
    SourceAware,
    HiddenState,
    Commitment,
    Counting,
    /// Who was home when something happened, and what happened while
    /// someone was out.
    Presence,
    /// What a person of the house thinks: where they would look for a
    /// thing, as far as the robot can tell.
    Beliefs,
    /// How the house's things hold up: since when a device has been out
    /// of order.
    Upkeep,
    /// What the house runs through: when a kind of thing it uses up was
    /// last bought, or last thrown out.
    Stock,
    /// Looks like another family's question, but nothing the robot could
    /// see or hear settles it: the answer is "not known". Samples mined
    /// before false premises were filed under the families they look like
    /// (`families::unanswerable::looks_like`); no longer mined.
    Unanswerable,
}

impl Family {
    pub const ALL: [Family; 14] = [
        Family::CurrentState,
        Family::OverwrittenState,
        Family::Temporal,
        Family::Preference,
        Family::Routine,
        Family::SourceAware,
        Family::HiddenState,
        Family::Commitment,
        Family::Counting,
        Family::Presence,
        Family::Beliefs,
        Family::Upkeep,
        Family::Stock,
        Family::Unanswerable,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Family::CurrentState => "current_state",
            Family::OverwrittenState => "overwritten_state",
            Family::Temporal => "temporal",
            Family::Preference => "preference",
            Family::Routine => "routine",
            Family::SourceAware => "source_aware",
            Family::HiddenState => "hidden_state",
            Family::Commitment => "commitment",
            Family::Counting => "counting",
            Family::Presence => "presence",
            Family::Beliefs => "beliefs",
            Family::Upkeep => "upkeep",
            Family::Stock => "stock",
            Family::Unanswerable => "unanswerable",
        }
    }
}

/// Where the agent's view of the trace ends: it may use what the robot
/// observed in events with `id < event`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cutoff {
    /// The first event the agent may not see.
    pub event: u64,
    /// Its time (trace seconds), day and clock time.
    pub t: u64,
    pub day: u32,
    pub time: String,
}

/// A question as data, from which the reference answer is computed (and
/// recomputed by the validity checks).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Hash)]
#[serde(tag = "q", rename_all = "snake_case")]
pub enum Query {
    /// What `entity.attr` is now, as far as the robot knows.
    State { entity: Id, attr: Id },
    /// What `entity.attr` was before the robot saw it change at `change`.
    Before { entity: Id, attr: Id, change: u64 },
    /// When `actor` last did `act`.
    LastTime { actor: Id, act: Act },
    /// Which of two actions happened first; each is named by who did what,
    /// and happened once before the cutoff (event ids would give the
    /// order away).
    First {
        a_actor: Id,
        a: Act,
        b_actor: Id,
        b: Act,
    },
    /// What the actor of `event` did next.
    Next { event: u64 },
    /// What `holder` said they like `entity.attr` to be.
    Preference { holder: Id, entity: Id, attr: Id },
    /// The value `actor` usually sets `device.field` to.
    UsualValue { actor: Id, device: Id, field: Id },
    /// Where `object` is usually put.
    UsualPlace { object: Id },
    /// Who usually sets `device.field` to `value`.
    UsualActor { device: Id, field: Id, value: Value },
    /// Who said they like `entity.attr = value`.
    WhoPrefers { entity: Id, attr: Id, value: Value },
    /// At which hour of the day `actor` usually does `act`.
    UsualHour { actor: Id, act: Act },
    /// Who told the robot that `entity.attr = value`.
    WhoSaid { entity: Id, attr: Id, value: Value },
    /// Whether the claim made at `claim` was seen to hold, seen not to hold,
    /// or is only known from being told.
    SeenOrTold { claim: u64, entity: Id },
    /// What `speaker` last said `entity.attr` is.
    AccordingTo { speaker: Id, entity: Id, attr: Id },
    /// What was asked at `request` about `entity`.
    Asked { request: u64, entity: Id },
    /// By when the request at `request` about `entity` is due.
    Due { request: u64, entity: Id },
    /// Whether the request at `request` about `entity` has been done.
    Status { request: u64, entity: Id },
    /// How many times the robot saw `act` (by `actor`, if given) on `day`,
    /// before the cutoff.
    Count {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        actor: Option<Id>,
        act: Act,
        day: u32,
    },
    /// Who (of the household and its guests, not the courier or the
    /// repair technician) was in the house when `event` happened.
    WhoHome { event: u64 },
    /// On which days of the week `actor` usually goes out `to`.
    OutDays { actor: Id, to: Destination },
    /// Who changed `entity.attr` while `person` was out: between their
    /// `leave` event and their `back` (arrival) event, which the asker
    /// knows.
    WhileOut {
        person: Id,
        leave: u64,
        back: u64,
        entity: Id,
        attr: Id,
    },
    /// What `person` thinks `entity.attr` is (where they would look for
    /// it), as far as the robot can tell.
    Thinks { person: Id, entity: Id, attr: Id },
    /// Who of the household saw the move `event` (where they would know
    /// to look).
    WhoSaw { event: u64 },
    /// Since when `device` has been out of order.
    BrokenSince { device: Id },
    /// When a thing of `kind` (a catalogue category the house uses up)
    /// last came into the house.
    LastBought { kind: String },
    /// When a thing of `kind` was last put in a bin.
    LastThrownOut { kind: String },
    /// How much of `kind` the house has left: the servings of its things
    /// in the house, as the robot last saw them.
    StillHave { kind: String },
}

impl Query {
    /// Its kind's name on the wire (`"q"`): what the families table says a
    /// family asks.
    pub fn kind(&self) -> &'static str {
        match self {
            Query::State { .. } => "state",
            Query::Before { .. } => "before",
            Query::LastTime { .. } => "last_time",
            Query::First { .. } => "first",
            Query::Next { .. } => "next",
            Query::Preference { .. } => "preference",
            Query::UsualValue { .. } => "usual_value",
            Query::UsualPlace { .. } => "usual_place",
            Query::UsualActor { .. } => "usual_actor",
            Query::WhoPrefers { .. } => "who_prefers",
            Query::UsualHour { .. } => "usual_hour",
            Query::WhoSaid { .. } => "who_said",
            Query::SeenOrTold { .. } => "seen_or_told",
            Query::AccordingTo { .. } => "according_to",
            Query::Asked { .. } => "asked",
            Query::Due { .. } => "due",
            Query::Status { .. } => "status",
            Query::Count { .. } => "count",
            Query::WhoHome { .. } => "who_home",
            Query::OutDays { .. } => "out_days",
            Query::WhileOut { .. } => "while_out",
            Query::Thinks { .. } => "thinks",
            Query::WhoSaw { .. } => "who_saw",
            Query::BrokenSince { .. } => "broken_since",
            Query::LastBought { .. } => "last_bought",
            Query::LastThrownOut { .. } => "last_thrown_out",
            Query::StillHave { .. } => "still_have",
        }
    }

    /// The attribute (or device field) it names, if it names one: what a
    /// value in its answers is named as.
    pub fn attr(&self) -> Option<&Id> {
        match self {
            Query::State { attr, .. }
            | Query::Before { attr, .. }
            | Query::Preference { attr, .. }
            | Query::WhoPrefers { attr, .. }
            | Query::WhoSaid { attr, .. }
            | Query::AccordingTo { attr, .. }
            | Query::WhileOut { attr, .. }
            | Query::Thinks { attr, .. } => Some(attr),
            Query::UsualValue { field, .. } | Query::UsualActor { field, .. } => Some(field),
            _ => None,
        }
    }

    /// The ids the question is about, in field order (for retrieval seeds
    /// and highlighting): every string in it but the query kind, skills,
    /// attribute and field names.
    pub fn entities(&self) -> Vec<Id> {
        fn go(v: &serde_json::Value, out: &mut Vec<Id>) {
            match v {
                serde_json::Value::Object(m) => {
                    for (k, x) in m {
                        if !matches!(k.as_str(), "q" | "skill" | "attr" | "field" | "to") {
                            go(x, out);
                        }
                    }
                }
                serde_json::Value::String(s) => out.push(Id::new(s)),
                _ => {}
            }
        }
        let mut out = Vec::new();
        go(&serde_json::to_value(self).unwrap_or_default(), &mut out);
        out
    }
}

/// An action as asked about: the skill with its object, target, and for
/// devices the field and value ("alice set_device_state tv_1 volume 25").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Hash)]
pub struct Act {
    /// The skill's name: borrowed from the action (the months' candidate
    /// questions each hold an act, and a copy of a name was an
    /// allocation), owned when read back.
    pub skill: Cow<'static, str>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
}

/// Whether what was said has been seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The robot later saw it so (and never otherwise).
    Seen,
    /// The robot later saw it otherwise (and never so): the report was
    /// wrong or stale when made.
    Contradicted,
    /// Only told; not seen since.
    Told,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Progress {
    /// The robot has seen the requested state since the request.
    Done,
    /// Not yet due, not yet done.
    Pending,
    /// Past a time the request said (by more than the grace period) and
    /// not seen done.
    Overdue,
}

/// A structured reference answer, compared exactly when scoring.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Hash)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Answer {
    /// A state value: a location, a device field, open or closed.
    Value {
        value: Value,
    },
    /// The last value the robot saw, which no longer holds (`stale`).
    LastSeen {
        value: Value,
        seen_at: u64,
        stale: bool,
    },
    /// A moment: `t` in trace seconds, scored to the minute.
    Time {
        t: u64,
        day: u32,
        time: String,
        /// The latest the robot saw, where it could have missed a later
        /// one (a last time said as possibly later).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        stale: bool,
    },
    Actor {
        actor: Id,
        /// The only one the robot saw, where it could have missed others
        /// (who changed a thing while it was out of its sight).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        stale: bool,
    },
    /// An action: the skill and its main argument.
    Action {
        skill: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Id>,
        /// What a device was set to (`set_device_state`): "switched the
        /// light off", not "operated the light".
        #[serde(default, skip_serializing_if = "Option::is_none")]
        setting: Option<Box<(Id, Value)>>,
    },
    /// One of the options the question lists.
    Choice {
        option: String,
    },
    Source {
        source: Source,
    },
    Count {
        count: u32,
    },
    Status {
        status: Progress,
    },
    /// People, in scene order (none: nobody).
    People {
        people: Vec<Id>,
    },
    /// Days of the week, Monday first.
    Days {
        days: Vec<Weekday>,
    },
    /// Nothing the robot perceived before the cutoff settles the question:
    /// the right answer is to say so.
    Unknown,
}

/// How sure an answer is: what calibrated scoring compares beside the
/// answer itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Certainty {
    /// Said as so: a current value, a time, a name.
    Sure,
    /// The last value seen, said to be possibly out of date.
    PossiblyChanged,
    /// "Not known".
    NotKnown,
}

pub fn certainty(a: &Answer) -> Certainty {
    match a {
        Answer::LastSeen { stale: true, .. }
        | Answer::Time { stale: true, .. }
        | Answer::Actor { stale: true, .. } => Certainty::PossiblyChanged,
        Answer::Unknown => Certainty::NotKnown,
        _ => Certainty::Sure,
    }
}

impl Answer {
    /// Said as surely as an observer who missed nothing would say it: a
    /// latest time or person seen is the time or person.
    pub fn surely(self) -> Answer {
        match self {
            Answer::Time { t, day, time, .. } => Answer::Time {
                t,
                day,
                time,
                stale: false,
            },
            Answer::Actor { actor, .. } => Answer::Actor {
                actor,
                stale: false,
            },
            a => a,
        }
    }
}

impl QaSample {
    /// Whether it is a false-premise question (the unanswerable
    /// generator's: a thing the house lacks, a state never seen, words
    /// never said, an act never seen done), filed under the family it
    /// looks like.
    pub fn is_unanswerable(&self) -> bool {
        self.family == Family::Unanswerable || self.template.starts_with("unanswerable/")
    }
}

/// The canonical words of [`Answer::Unknown`]: LoCoMo's scorer credits an
/// abstention only if it contains "no information available" or "not
/// mentioned", and LongMemEval's judge asks whether the question was
/// identified as unanswerable.
pub const UNKNOWN_TEXT: &str = "No information available.";

/// A moment in a trace: `t` in trace seconds, its day and clock time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moment {
    pub t: u64,
    pub day: u32,
    pub time: String,
}

/// One Memory-QA sample.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QaSample {
    pub id: String,
    pub family: Family,
    pub memory_target: MemoryTarget,
    /// Which template produced the question (`family/name`).
    pub template: String,
    /// Which of the template's phrasings words it (chosen by the seed).
    #[serde(default)]
    pub phrasing: usize,
    pub cutoff: Cutoff,
    pub question: String,
    /// The templated question, when `question` was rephrased by an LLM.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template_question: Option<String>,
    /// For multiple-choice questions, the options as written in the question.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    pub query: Query,
    pub answer: Answer,
    /// The one canonical short answer, in the form LoCoMo's and
    /// LongMemEval's gold answers take ("In David's hands.", "30.",
    /// "Off.", "No information available."): what the exports give as the
    /// answer and what every built-in reader says.
    pub answer_text: String,
    /// What qualifies the short answer, apart from it: for a state that
    /// may have changed out of the robot's sight, when it was last seen
    /// ("Last seen day 1 at 08:31; it may have changed since."); for an
    /// unanswerable question, why nothing is known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hedge: Option<String>,
    /// The moment the answer refers to besides itself: when the robot last
    /// saw a stale state, or when a request is due.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer_time: Option<Moment>,
    /// For an unanswerable question, the plausible wrong answer a memory
    /// that confuses things would give (LoCoMo's `adversarial_answer`): a
    /// look-alike's place, the true value the robot never saw, what
    /// someone else said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adversarial_answer: Option<String>,
    /// What was true at the cutoff, where it differs from `answer` (which
    /// is what the robot could know): the answer of an observer who
    /// perceived every event (see [`super::world`]). None for questions
    /// about the robot's own knowledge (source-aware, unanswerable).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub world: Option<Answer>,
    /// Events that support the answer: before the cutoff, seen by the robot.
    pub evidence: Vec<u64>,
    /// Seconds from the latest evidence event to the cutoff: how old what
    /// the answer rests on is (none without evidence).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence_age: Option<u64>,
    /// The sessions of the evidence.
    pub sessions: Vec<String>,
}

/// A goal proposition of a planning task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "prop", rename_all = "snake_case")]
pub enum Prop {
    IsOn { object: Id, target: Id },
    IsIn { object: Id, target: Id },
    HeldBy { object: Id, actor: Id },
    Field { device: Id, field: Id, value: Value },
}

/// MEMENTO-style pairing: the acquisition instruction states the personal
/// knowledge, the utilisation one only alludes to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pair {
    pub id: String,
    pub role: PairRole,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PairRole {
    Acquisition,
    Utilisation,
}

/// One planning task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanTask {
    pub id: String,
    pub family: Family,
    pub memory_target: MemoryTarget,
    pub template: String,
    pub cutoff: Cutoff,
    pub instruction: String,
    /// Who the plan is for: the robot.
    pub actor: Id,
    /// All must hold after the plan runs.
    pub goals: Vec<Prop>,
    /// The knowledge the first goal's value comes from (a preference, a
    /// habit, a request): an agent is told the goal's entity and attribute
    /// and must recall the value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remember: Option<Query>,
    /// A plan the executor accepts from the cutoff state, reaching the goals.
    pub reference_plan: Vec<Request>,
    pub evidence: Vec<u64>,
    pub sessions: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair: Option<Pair>,
}

/// A line of `samples.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Sample {
    Qa(QaSample),
    Plan(PlanTask),
}

impl Sample {
    pub fn id(&self) -> &str {
        match self {
            Sample::Qa(q) => &q.id,
            Sample::Plan(p) => &p.id,
        }
    }

    pub fn cutoff(&self) -> &Cutoff {
        match self {
            Sample::Qa(q) => &q.cutoff,
            Sample::Plan(p) => &p.cutoff,
        }
    }

    pub fn evidence(&self) -> &[u64] {
        match self {
            Sample::Qa(q) => &q.evidence,
            Sample::Plan(p) => &p.evidence,
        }
    }
}

/// The header line of `samples.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SamplesHeader {
    pub schema: String,
    pub schema_version: u32,
    pub scene: Id,
    /// Seed of the cutoff and template choices.
    pub seed: u64,
    /// What the questions are drawn from (files from before `household`
    /// was the default, which do not say, were drawn from the robot's).
    #[serde(default = "Asking::unsaid")]
    pub ask: Asking,
}

/// What questions are drawn from. Either way the reference answer is what
/// the robot could know and the world answer what was true.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Asking {
    /// What the robot perceived: its memory is asked about what it saw, so
    /// a robot that sees less is asked about less.
    Robot,
    /// What happened in the household, whether or not the robot saw it:
    /// when, how often and what people did, where things are. A question
    /// about what the robot missed keeps its family, has "not known" for
    /// its reference answer and the truth for its world answer, and an
    /// `_abs` id; so a robot that sees less answers fewer of them right
    /// (the default: the benchmark asks about the household).
    #[default]
    Household,
}

impl Asking {
    /// What a samples header or dataset card that does not say was drawn
    /// from: files from before `household` was the default.
    pub fn unsaid() -> Self {
        Asking::Robot
    }

    pub fn name(self) -> &'static str {
        match self {
            Asking::Robot => "robot",
            Asking::Household => "household",
        }
    }
}

impl std::str::FromStr for Asking {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "robot" => Ok(Asking::Robot),
            "household" => Ok(Asking::Household),
            _ => Err(format!(
                "unknown question source {s:?}: use robot or household"
            )),
        }
    }
}
