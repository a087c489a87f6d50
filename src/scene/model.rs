//! The scene format: what a RON file under `scenes/` deserializes into.
//! These types are plain data; [`super::validate`] checks them and
//! [`crate::sim`] spawns them as ECS entities.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::ids::Id;

use super::role::Role;

/// The reserved place id of the world beyond the front door: a person who
/// left is at `{"room": "outside"}`; an exterior door has it on one side of
/// its `rooms`. No entity may take this id.
pub const OUTSIDE: &str = "outside";

/// A household: rooms joined by doors, furniture and devices placed in
/// rooms, objects on or in them, and the actors who live there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    pub id: Id,
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub rooms: Vec<RoomDef>,
    #[serde(default)]
    pub doors: Vec<DoorDef>,
    #[serde(default)]
    pub furniture: Vec<FurnitureDef>,
    #[serde(default)]
    pub devices: Vec<DeviceDef>,
    #[serde(default)]
    pub objects: Vec<ObjectDef>,
    pub actors: Vec<ActorDef>,
}

impl Scene {
    /// Ids of the robots, in scene order.
    pub fn robots(&self) -> Vec<Id> {
        self.actors_of(ActorKind::Robot)
    }

    /// Ids of the actors of `kind`, in scene order.
    pub fn actors_of(&self, kind: ActorKind) -> Vec<Id> {
        let of_kind = self.actors.iter().filter(|a| a.kind == kind);
        of_kind.map(|a| a.id.clone()).collect()
    }
}

/// An axis-aligned rectangle on the floor plan, in metres; `(x, y)` is the
/// corner with the smallest coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Rect {
    pub fn center(&self) -> (f32, f32) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }

    /// Inside or on the border, with a small tolerance for hand-typed numbers.
    pub fn contains(&self, (px, py): (f32, f32)) -> bool {
        const EPS: f32 = 1e-3;
        px >= self.x - EPS
            && px <= self.x + self.w + EPS
            && py >= self.y - EPS
            && py <= self.y + self.h + EPS
    }

    /// Interiors overlap (touching borders do not count).
    pub fn overlaps(&self, o: &Rect) -> bool {
        const EPS: f32 = 1e-3;
        self.x + EPS < o.x + o.w
            && o.x + EPS < self.x + self.w
            && self.y + EPS < o.y + o.h
            && o.y + EPS < self.y + self.h
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoomDef {
    pub id: Id,
    pub name: String,
    pub rect: Rect,
    #[serde(default = "default_height")]
    pub height: f32,
}

fn default_height() -> f32 {
    2.5
}

fn yes() -> bool {
    true
}

/// A doorway between two rooms, at a point on their shared wall. A door
/// that is not `openable` is an open archway. An exterior door (the front
/// door) has [`OUTSIDE`] on one side and sits on its room's outer wall:
/// people `leave` and `arrive` through it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DoorDef {
    pub id: Id,
    pub rooms: (Id, Id),
    pub at: (f32, f32),
    #[serde(default)]
    pub openable: bool,
    #[serde(default = "yes")]
    pub open: bool,
}

impl DoorDef {
    /// The room an exterior door opens from; `None` for a door between rooms.
    pub fn inside_room(&self) -> Option<&Id> {
        match (self.rooms.0.as_str(), self.rooms.1.as_str()) {
            (OUTSIDE, OUTSIDE) => None,
            (OUTSIDE, _) => Some(&self.rooms.1),
            (_, OUTSIDE) => Some(&self.rooms.0),
            _ => None,
        }
    }

    /// Whether the door leads outside.
    pub fn is_exterior(&self) -> bool {
        self.inside_room().is_some()
    }
}

/// A placement surface and how many objects it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Surface {
    On(u32),
    In(u32),
}

/// Whether a fixture opens (fridge, drawer, oven), and its initial state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Openable {
    #[default]
    No,
    Open,
    Closed,
}

/// Furniture: a receptacle (or plain obstacle) placed in a room.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FurnitureDef {
    pub id: Id,
    /// What it is ("fridge", "sofa"); the display name in prompts.
    pub kind: String,
    pub room: Id,
    /// Centre on the floor plan, metres.
    pub pos: (f32, f32),
    /// Width (x), depth (y), height, metres.
    pub size: (f32, f32, f32),
    #[serde(default)]
    pub surfaces: Vec<Surface>,
    #[serde(default)]
    pub openable: Openable,
    #[serde(default)]
    pub description: String,
    /// Roles beyond those the catalogue gives this kind, so that an unusual
    /// kind name still takes part in household life.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roles: Vec<Role>,
}

/// A typed device state field: its schema and initial value together.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum FieldDef {
    Bool(bool),
    Int {
        value: i64,
        min: i64,
        max: i64,
    },
    Float {
        value: f64,
        min: f64,
        max: f64,
    },
    Enum {
        value: String,
        options: Vec<String>,
    },
    /// Seconds left on a countdown; 0 is off.
    Timer {
        value: u32,
        max: u32,
    },
}

/// An appliance, smart or not, with typed state fields. A device may also
/// be a receptacle (oven, dishwasher, washing machine).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeviceDef {
    pub id: Id,
    pub kind: String,
    pub room: Id,
    pub pos: (f32, f32),
    pub size: (f32, f32, f32),
    /// Can be operated from anywhere (app, voice assistant), not only in person.
    #[serde(default)]
    pub remote: bool,
    pub fields: BTreeMap<String, FieldDef>,
    #[serde(default)]
    pub surfaces: Vec<Surface>,
    #[serde(default)]
    pub openable: Openable,
    #[serde(default)]
    pub description: String,
    /// Roles beyond those the catalogue gives this kind, so that an unusual
    /// kind name still takes part in household life.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roles: Vec<Role>,
}

/// Where an object starts. `Outside` is beyond the front door (a parcel,
/// groceries): someone brings it in with `arrive`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Placement {
    On(Id),
    In(Id),
    HeldBy(Id),
    Outside,
}

/// A movable, pickable object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectDef {
    pub id: Id,
    pub category: String,
    /// Tells look-alikes apart: colour, shape, material.
    pub description: String,
    #[serde(default)]
    pub owner: Option<Id>,
    pub at: Placement,
    /// Roles beyond those the catalogue gives this kind, so that an unusual
    /// kind name still takes part in household life.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roles: Vec<Role>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActorKind {
    Human,
    Robot,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActorDef {
    pub id: Id,
    pub name: String,
    pub kind: ActorKind,
    #[serde(default)]
    pub role: String,
    /// The weekly schedule a human keeps: a role of `assets/schedules.ron`
    /// (`office_worker`, `school_child`, ...). Without one, the role its
    /// free-text `role` names (see `catalogue::schedules`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<Id>,
    /// The room the actor starts in, and where a human sleeps; `outside`
    /// for a visitor who arrives later (never the robot).
    pub room: Id,
    /// A furniture or device id in `room` the actor starts next to.
    #[serde(default)]
    pub near: Option<Id>,
    #[serde(default = "default_hands")]
    pub hands: u32,
    /// Walking speed, metres per second.
    #[serde(default = "default_speed")]
    pub speed: f32,
}

impl ActorDef {
    /// A human who starts outside: someone who calls, not one of the
    /// household.
    pub fn is_visitor(&self) -> bool {
        self.kind == ActorKind::Human && self.room.as_str() == OUTSIDE
    }

    /// One of the household: a human who starts in the house.
    pub fn lives_here(&self) -> bool {
        self.kind == ActorKind::Human && !self.is_visitor()
    }
}

fn default_hands() -> u32 {
    1
}

fn default_speed() -> f32 {
    1.0
}
