//! The shapes that pass between the stages of generation (projects, beats,
//! sessions, turns, proposals, the plan and the notes) and the [`Backend`]
//! trait whose methods are the stages. [`super::pipeline`] runs them.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::kinds::Kind;
use super::params::{Beat, SessionParams};
use crate::ids::Id;
use crate::scene::Scene;
use crate::sim::Simulation;
use crate::trace::request::{Destination, Request};
use crate::trace::{Claim, Event, Rejection, Source, Value};

/// The eight project types of WorldLines §10.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProjectType {
    HouseholdRoutine,
    RoutineSupport,
    HouseholdOrganization,
    HealthLifestyle,
    MealPreparation,
    WorkStudySupport,
    DigitalDeviceCoordination,
    FamilyComfort,
}

impl ProjectType {
    pub const ALL: [ProjectType; 8] = [
        ProjectType::HouseholdRoutine,
        ProjectType::RoutineSupport,
        ProjectType::HouseholdOrganization,
        ProjectType::HealthLifestyle,
        ProjectType::MealPreparation,
        ProjectType::WorkStudySupport,
        ProjectType::DigitalDeviceCoordination,
        ProjectType::FamilyComfort,
    ];
}

/// The eight memory targets of WorldLines §10.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MemoryTarget {
    ObjectLocation,
    TemporalState,
    DeviceState,
    Preference,
    Routine,
    PlanningDependency,
    HiddenState,
    SocialContext,
}

impl MemoryTarget {
    pub const ALL: [MemoryTarget; 8] = [
        MemoryTarget::ObjectLocation,
        MemoryTarget::TemporalState,
        MemoryTarget::DeviceState,
        MemoryTarget::Preference,
        MemoryTarget::Routine,
        MemoryTarget::PlanningDependency,
        MemoryTarget::HiddenState,
        MemoryTarget::SocialContext,
    ];
}

/// A long-term household thread.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Project {
    pub id: String,
    pub kind: ProjectType,
    pub title: String,
    pub participants: Vec<Id>,
    pub entities: Vec<Id>,
    pub memory_targets: Vec<MemoryTarget>,
    pub start_day: u32,
    pub end_day: u32,
    pub constraints: Vec<String>,
}

/// What happens to a project on a day.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DayBeat {
    pub day: u32,
    pub project: String,
    pub beat: Beat,
    pub summary: String,
}

/// A household episode on a day: when, who, why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    /// `d2s03`: day 2, third session.
    pub id: String,
    pub day: u32,
    /// Planned start, trace seconds.
    pub start: u64,
    pub kind: Kind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
    pub intent: String,
    pub participants: Vec<Id>,
    /// Everything the director needs to stage it, typed (on the wire,
    /// named strings).
    #[serde(default, skip_serializing_if = "SessionParams::is_empty")]
    pub params: SessionParams,
    /// How the director staged it (filled in by the pipeline).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turns: Vec<Turn>,
    /// Who planned it: set by an LLM backend only (the model, or the
    /// script where the model gave nothing usable, or the calendar's
    /// frame).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// Who wrote its intent and directed it where that is not who planned
    /// it: the model, in a session of the calendar's frame (LLM backends).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub directed: Option<Source>,
}

/// A goal an actor pursues during a turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "goal", rename_all = "snake_case")]
pub enum Goal {
    /// Bring an object to an actor, or put it on or in a receptacle.
    Fetch {
        object: Id,
        to: Dest,
    },
    Operate {
        device: Id,
        field: Id,
        value: Value,
    },
    Say {
        to: Vec<Id>,
        text: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        claims: Vec<Claim>,
    },
    GoTo {
        target: Id,
    },
    Inspect {
        target: Id,
    },
    /// A serving of a thing used up a serving at a time (milk poured at
    /// the table), where it is.
    Use {
        object: Id,
    },
    /// Write kinds on a list (`add`, those not on it yet) and cross others
    /// off (`cross_off`), at the list: what it reads is worked out then,
    /// from what is written on it.
    Write {
        object: Id,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        add: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        cross_off: Vec<String>,
    },
    Wait {
        seconds: u64,
    },
    /// Wait in standby, perceiving nothing, until `until` (trace seconds),
    /// however late the wait starts: the robot docked away.
    Standby {
        until: u64,
    },
    /// Open or close a door, cabinet or appliance and leave it so.
    SetOpen {
        target: Id,
        open: bool,
    },
    /// Go out through the exterior `door`, headed `to`, with what of
    /// `take` is at hand (fetched first while a hand is free).
    Leave {
        door: Id,
        to: Destination,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        take: Vec<Id>,
    },
    /// Come in through the exterior `door` with `bring` (what of it is
    /// carried or waits outside).
    Arrive {
        door: Id,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        bring: Vec<Id>,
    },
    /// An intention in words, for an actor that plans its own steps (an
    /// LLM actor): "put Lily's laptop back on her desk".
    Intent {
        text: String,
        /// In a session of the calendar's frame: the calendar's goal this
        /// intention took the place of, which the script pursues where
        /// the writer's steps leave it unmet ([`frame::merge`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fallback: Option<Box<Goal>>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dest {
    Actor(Id),
    On(Id),
    In(Id),
}

/// One actor's part in a session, as the director set it up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    pub actor: Id,
    pub goal: Goal,
    /// Start no earlier than this (trace seconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_before: Option<u64>,
    /// Pursued instead of `goal` when the session's previous turn could not
    /// be completed ("sorry, I couldn't" after a failed errand).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub otherwise: Option<Goal>,
}

/// How a turn has gone so far, for the actor's next proposal.
#[derive(Debug, Clone, Default)]
pub struct TurnProgress {
    /// The executor's rejection of the previous proposal.
    pub feedback: Option<Rejection>,
    /// The last accepted event of this turn.
    pub last_ok: Option<Event>,
    pub proposals: u32,
}

/// What an actor proposes next.
#[derive(Debug, Clone, PartialEq)]
pub enum Proposal {
    Act(Request),
    Done,
    GiveUp(String),
}

/// A request to the robot to do something later.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Commitment {
    pub id: String,
    pub by: Id,
    pub asked_in: String,
    pub due: u64,
    pub goal: Goal,
    pub status: CommitmentStatus,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CommitmentStatus {
    Open,
    Done,
    Failed,
}

/// Carried forward after each day (one line of `notes.jsonl`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DayNotes {
    pub day: u32,
    /// Object locations and device states that changed today, as they stand at day's end.
    pub changed_states: Vec<crate::trace::Fact>,
    pub preferences: Vec<String>,
    pub commitments: Vec<Commitment>,
    /// The last events of the day.
    pub recent_events: Vec<u64>,
    /// Where what someone said disagrees with the truth at day's end.
    pub conflicts: Vec<String>,
    /// Plans still open, in words (LLM backends).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub open_plans: Vec<String>,
    /// The day in a few sentences (LLM backends).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
}

/// `plan.json`: everything decided before and while acting.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub schema: String,
    pub schema_version: u32,
    pub world: String,
    pub projects: Vec<Project>,
    pub beats: Vec<DayBeat>,
    pub sessions: Vec<Session>,
    /// Turns the actors could not complete, and why.
    pub skipped_turns: Vec<SkippedTurn>,
    /// Objects put where they do not belong on purpose, so that a question
    /// can be about it (and `trace lint` lets them be).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub misplacements: Vec<Misplacement>,
}

impl Plan {
    /// The deliberate (object, receptacle) placements, for
    /// [`crate::lint::lint_planned`].
    pub fn deliberate(&self) -> std::collections::BTreeSet<(Id, Id)> {
        self.misplacements
            .iter()
            .map(|m| (m.object.clone(), m.at.clone()))
            .collect()
    }
}

/// An object put on or in a receptacle where its category does not belong,
/// as part of the plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Misplacement {
    pub session: String,
    pub actor: Id,
    pub object: Id,
    /// The receptacle it is put on or in.
    pub at: Id,
    pub why: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkippedTurn {
    pub session: String,
    pub actor: Id,
    pub goal: Goal,
    pub reason: String,
}

#[derive(Debug, Error)]
pub enum GenError {
    #[error("backend {backend} failed at stage {stage}: {message}")]
    Backend {
        backend: String,
        stage: &'static str,
        message: String,
    },
    #[error("{0}")]
    Sink(String),
}

/// What every stage may look at.
pub struct Context<'a> {
    pub scene: &'a Scene,
    pub world: &'a str,
    pub days: u32,
    /// The household: humans who start in the house.
    pub humans: Vec<Id>,
    /// Humans who start outside: visitors who may call.
    pub visitors: Vec<Id>,
    pub robot: Id,
}

/// The stages of generation. The scripted backend implements them with
/// rules and templates; the LLM backend with prompts.
pub trait Backend {
    fn name(&self) -> &str;
    fn model(&self) -> Option<String> {
        None
    }
    /// Who wrote the last proposal from [`Backend::act`], stamped on its
    /// event; `None` (the default) leaves events as they are.
    fn source(&self) -> Option<Source> {
        None
    }
    fn projects(&mut self, cx: &Context) -> Result<Vec<Project>, GenError>;
    fn day_beats(
        &mut self,
        cx: &Context,
        projects: &[Project],
        day: u32,
    ) -> Result<Vec<DayBeat>, GenError>;
    fn sessions(
        &mut self,
        cx: &Context,
        projects: &[Project],
        beats: &[DayBeat],
        day: u32,
        notes: Option<&DayNotes>,
    ) -> Result<Vec<Session>, GenError>;
    /// The director: stages a session as ordered turns, given the world now.
    fn direct(
        &mut self,
        cx: &Context,
        session: &Session,
        sim: &Simulation,
    ) -> Result<Vec<Turn>, GenError>;
    /// What the director changed of the session it last staged (an LLM
    /// backend's own words for a frame session's intent); the default
    /// leaves it as planned.
    fn restage(&mut self, _session: &mut Session) {}
    /// An actor's next proposal towards its goal, given how the turn went so far.
    fn act(
        &mut self,
        cx: &Context,
        sim: &Simulation,
        turn: &Turn,
        progress: &TurnProgress,
    ) -> Result<Proposal, GenError>;
    /// Sessions a finished session calls for later the same day (a request
    /// for "at five"); the pipeline runs them in time order.
    fn follow_ups(
        &mut self,
        _cx: &Context,
        _after: &Session,
        _sim: &Simulation,
    ) -> Result<Vec<Session>, GenError> {
        Ok(vec![])
    }
    /// Told how each turn ended, so the backend's own records (commitments
    /// kept or broken) follow what really happened.
    fn turn_done(&mut self, _session: &Session, _turn: &Turn, _result: &Result<(), String>) {}
    /// The misplacements the backend planned (read once, at the end).
    fn misplacements(&mut self) -> Vec<Misplacement> {
        vec![]
    }
    /// The day's notes, from its events (kept without their `reveals`).
    fn notes(
        &mut self,
        cx: &Context,
        day: u32,
        events: &[Event],
        sim: &Simulation,
    ) -> Result<DayNotes, GenError>;
}

/// Retries after rejections before a turn is skipped.
pub const MAX_RETRIES: u32 = 3;
/// Proposals in one turn before it is skipped (a runaway actor).
pub const MAX_PROPOSALS: u32 = 40;
