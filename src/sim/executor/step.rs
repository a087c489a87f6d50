//! The request being executed as the systems pass it along: [`Step`],
//! with its planned [`Op`]s and what it [`Reveal`]s.

use bevy::prelude::*;

use crate::ids::Id;
use crate::scene::FieldDef;
use crate::sim::world::{At, Placed};
use crate::trace::request::Request;
use crate::trace::{Change, Event, Fact, Rejection};

/// One state change, in entity terms.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    Move {
        object: Entity,
        from: Placed,
        to: Placed,
    },
    Walk {
        actor: Entity,
        from: At,
        to: At,
    },
    SetOpen {
        target: Entity,
        open: bool,
    },
    SetField {
        device: Entity,
        field: Id,
        old: FieldDef,
        new: FieldDef,
    },
    /// A thing's servings left, from `old` (what it held) to `new`.
    SetLevel {
        object: Entity,
        old: u32,
        new: u32,
    },
    /// What is written on a thing, from `old` (none: never written) to `new`.
    SetText {
        object: Entity,
        old: Option<String>,
        new: String,
    },
}

/// What a successful request lets its perceivers see beyond its changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Reveal {
    #[default]
    Nothing,
    /// The whole destination room, to the actor who walked in.
    Room(Entity),
    /// A container's contents, to everyone who saw it opened.
    Contents(Entity),
    /// A fixture, device, object or actor looked at closely.
    Target(Entity),
}

/// The request being executed and everything the systems of
/// [`crate::sim::SimSystems`] work out about it, in order.
#[derive(Resource, Debug, Default)]
pub struct Step {
    pub request: Option<Request>,
    pub actor: Option<Entity>,
    pub t: u64,
    pub dur: u64,
    pub rejection: Option<Rejection>,
    pub ops: Vec<Op>,
    pub via: Vec<Entity>,
    pub reveal: Reveal,
    /// Filled by perception.
    pub observers: Vec<Entity>,
    /// Observers who only heard it (see `trace::Event::heard_by`).
    pub heard_by: Vec<Entity>,
    pub revealed_to: Vec<Entity>,
    pub reveals: Vec<Fact>,
    pub changes: Vec<Change>,
    /// Filled by recording.
    pub event: Option<Event>,
}
