//! The edit commands: [`Edit`], and the values they carry ([`Prop`],
//! [`Entity`], [`OnRemove`]). How they apply is `apply.rs`'s.
//!
//! Two tiers. *Checked* commands (`AddDoor`, `MoveFixture`, `PlaceObject`,
//! `Remove`, ...) are what people and the editor's tools issue: they refuse
//! what would break the household (unknown id, outside the room, full
//! receptacle) and carry dependants along. *Raw* commands (`Insert`, `Take`,
//! `Set`) change exactly one thing and check only that it exists; inverses
//! are built from them, so undo always applies, even to a scene that was
//! invalid when opened. Problems a raw edit creates are validation's to
//! report. A failed command changes nothing.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::ids::Id;
use crate::scene::model::{
    ActorDef, ActorKind, DeviceDef, DoorDef, FieldDef, FurnitureDef, ObjectDef, Openable,
    Placement, Rect, RoomDef, Surface,
};
use crate::scene::role::Role;

/// One edit of a scene. In an EDITS.ron file these are written as
/// `MoveRoom(id: "kitchen", to: (1.0, 0.0))`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Edit {
    /// Several edits as one: one undo step, all or nothing.
    Batch(Vec<Edit>),

    AddRoom(RoomDef),
    /// A room of a catalogue room type (`kitchen`, or its name), named as
    /// the type is and sized from its typical area (rounded to the 0.1 m
    /// grid), its corner at `at` or, without one, east of the house level
    /// with its northern edge; the id defaults to the type and a number.
    AddRoomFromCatalogue {
        kind: String,
        #[serde(default)]
        at: Option<(f32, f32)>,
        #[serde(default)]
        id: Option<Id>,
    },
    /// Moves a room's corner to `to`, carrying its doors and the furniture
    /// and devices in it along.
    MoveRoom {
        id: Id,
        to: (f32, f32),
    },
    /// Moves several rooms by the same offset, with their doors (each
    /// once, even between two of them) and fixtures: a multi-selection
    /// drag. A batch of `MoveRoom`s would move a shared door twice.
    MoveRooms {
        ids: Vec<Id>,
        by: (f32, f32),
    },
    /// A new rectangle; doors stay on their wall as it moves. Refused if a
    /// fixture would end up outside.
    ResizeRoom {
        id: Id,
        rect: Rect,
    },

    /// A door between two rooms, snapped onto the nearest point of a wall
    /// they share.
    AddDoor {
        id: Id,
        rooms: (Id, Id),
        at: (f32, f32),
        #[serde(default)]
        openable: bool,
        #[serde(default = "yes")]
        open: bool,
    },
    /// Slides a door along its wall to the point nearest `to`.
    MoveDoor {
        id: Id,
        to: (f32, f32),
    },

    AddFurniture(FurnitureDef),
    AddDevice(DeviceDef),
    /// Furniture or a device of a catalogue kind, with its size, surfaces,
    /// openability and device fields, centred at `pos` (by default the
    /// room's centre); the id defaults to the kind and a number
    /// (`coffee_table_2`).
    AddFixtureFromCatalogue {
        kind: String,
        room: Id,
        #[serde(default)]
        pos: Option<(f32, f32)>,
        #[serde(default)]
        id: Option<Id>,
    },
    /// Moves furniture or a device; it must fit inside a room (its own room
    /// first). Moving into another room takes the actors starting near it.
    MoveFixture {
        id: Id,
        to: (f32, f32),
    },
    /// New width, depth, height; the footprint must stay inside the room.
    ResizeFixture {
        id: Id,
        size: (f32, f32, f32),
    },

    AddObject(ObjectDef),
    /// Puts an object on or in a receptacle (the surface it has; `inside`
    /// chooses when it has both, otherwise the first with room), or in an
    /// actor's hands. Capacity is checked.
    PlaceObject {
        id: Id,
        on: Id,
        #[serde(default)]
        inside: Option<bool>,
    },

    /// An object of a catalogue category (or an alias of one) put on or in
    /// a receptacle, or in an actor's hands, as [`Edit::PlaceObject`] puts
    /// it, described by the first of the category's variants no object has
    /// yet; the id defaults to the category and a number.
    AddObjectFromCatalogue {
        category: String,
        on: Id,
        #[serde(default)]
        inside: Option<bool>,
        #[serde(default)]
        id: Option<Id>,
    },

    AddActor(ActorDef),
    /// A person or the robot with the editor's defaults
    /// ([`actor_defaults`](super::actor_defaults)),
    /// starting in a room or next to a fixture (`at`, as in
    /// [`Edit::StartActor`]); the id defaults to `person_N` or `robot_N`.
    AddActorOfKind {
        kind: ActorKind,
        at: Id,
        #[serde(default)]
        id: Option<Id>,
    },
    /// Starts an actor in a room (`at` a room) or next to a fixture (`at`
    /// furniture or a device, in its room).
    StartActor {
        id: Id,
        at: Id,
    },

    /// Adds (`Some`, new name), replaces (value or schema) or removes
    /// (`None`) a device's state field. A new schema that keeps the old
    /// value carries the value along: clamped into moved bounds, or the
    /// first option when the options no longer hold it. A new value must
    /// fit its schema.
    SetField {
        device: Id,
        name: String,
        field: Option<FieldDef>,
    },
    /// Renames an id and every reference to it.
    Rename {
        from: Id,
        to: Id,
    },
    /// Removes anything. What refers to it is handled by `policy`.
    Remove {
        id: Id,
        #[serde(default)]
        policy: OnRemove,
    },
    SetSceneInfo {
        id: Id,
        name: String,
        description: String,
    },

    /// Raw: sets one property of one entity, nothing else.
    Set {
        id: Id,
        prop: Prop,
    },
    /// Raw: inserts an entity at a position of its list.
    Insert {
        entity: Entity,
        index: usize,
    },
    /// Raw: removes an entity, leaving references to it dangling.
    Take {
        id: Id,
    },
}

fn yes() -> bool {
    true
}

/// What happens to the things that refer to something being removed.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub enum OnRemove {
    /// Refuse, naming the referrers, if there are any.
    #[default]
    Refuse,
    /// Remove the dependants with it: a room's doors, fixtures, their
    /// objects and the actors starting there; a receptacle's objects; what
    /// an actor holds. Owners and `near` are cleared rather than removed.
    Cascade,
    /// Objects on/in a removed receptacle, or held by a removed actor, go
    /// to this receptacle (or actor); owners and `near` are cleared.
    MoveTo(Id),
}

/// One property of one entity, with its new value (for [`Edit::Set`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Prop {
    /// Room or actor.
    Name(String),
    /// Furniture, device or object.
    Description(String),
    /// Furniture or device.
    Kind(String),
    /// Object.
    Category(String),
    /// Room.
    Rect(Rect),
    /// Room.
    Height(f32),
    /// Door (`at`), furniture or device.
    Pos((f32, f32)),
    /// Furniture or device.
    Size((f32, f32, f32)),
    /// Furniture or device.
    Surfaces(Vec<Surface>),
    /// Furniture or device.
    Openable(Openable),
    /// Door: whether it can close, and whether it starts open.
    Doorway { openable: bool, open: bool },
    /// Door.
    Rooms((Id, Id)),
    /// Device.
    Remote(bool),
    /// Device: all its fields at once.
    Fields(BTreeMap<String, FieldDef>),
    /// Furniture, device or object.
    Roles(Vec<Role>),
    /// Object.
    Owner(Option<Id>),
    /// Object.
    At(Placement),
    /// Furniture, device or actor.
    Room(Id),
    /// Actor.
    Near(Option<Id>),
    /// Actor.
    ActorKind(ActorKind),
    /// Actor.
    Role(String),
    /// Actor.
    Hands(u32),
    /// Actor.
    Speed(f32),
}

impl Prop {
    pub fn name(&self) -> &'static str {
        match self {
            Prop::Name(_) => "name",
            Prop::Description(_) => "description",
            Prop::Kind(_) => "kind",
            Prop::Category(_) => "category",
            Prop::Rect(_) => "rect",
            Prop::Height(_) => "height",
            Prop::Pos(_) => "pos",
            Prop::Size(_) => "size",
            Prop::Surfaces(_) => "surfaces",
            Prop::Openable(_) => "openable",
            Prop::Doorway { .. } => "doorway",
            Prop::Rooms(_) => "rooms",
            Prop::Remote(_) => "remote",
            Prop::Fields(_) => "fields",
            Prop::Roles(_) => "roles",
            Prop::Owner(_) => "owner",
            Prop::At(_) => "at",
            Prop::Room(_) => "room",
            Prop::Near(_) => "near",
            Prop::ActorKind(_) => "actor kind",
            Prop::Role(_) => "role",
            Prop::Hands(_) => "hands",
            Prop::Speed(_) => "speed",
        }
    }
}

/// Any entity of a scene, for [`Edit::Insert`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Entity {
    Room(RoomDef),
    Door(DoorDef),
    Furniture(FurnitureDef),
    Device(DeviceDef),
    Object(ObjectDef),
    Actor(ActorDef),
}

impl Entity {
    pub fn id(&self) -> &Id {
        match self {
            Entity::Room(e) => &e.id,
            Entity::Door(e) => &e.id,
            Entity::Furniture(e) => &e.id,
            Entity::Device(e) => &e.id,
            Entity::Object(e) => &e.id,
            Entity::Actor(e) => &e.id,
        }
    }
}

impl Edit {
    /// The command's name, as written in EDITS.ron.
    pub fn name(&self) -> &'static str {
        match self {
            Edit::Batch(_) => "Batch",
            Edit::AddRoom(_) => "AddRoom",
            Edit::AddRoomFromCatalogue { .. } => "AddRoomFromCatalogue",
            Edit::MoveRoom { .. } => "MoveRoom",
            Edit::MoveRooms { .. } => "MoveRooms",
            Edit::ResizeRoom { .. } => "ResizeRoom",
            Edit::AddDoor { .. } => "AddDoor",
            Edit::MoveDoor { .. } => "MoveDoor",
            Edit::AddFurniture(_) => "AddFurniture",
            Edit::AddDevice(_) => "AddDevice",
            Edit::AddFixtureFromCatalogue { .. } => "AddFixtureFromCatalogue",
            Edit::MoveFixture { .. } => "MoveFixture",
            Edit::ResizeFixture { .. } => "ResizeFixture",
            Edit::AddObject(_) => "AddObject",
            Edit::AddObjectFromCatalogue { .. } => "AddObjectFromCatalogue",
            Edit::PlaceObject { .. } => "PlaceObject",
            Edit::AddActor(_) => "AddActor",
            Edit::AddActorOfKind { .. } => "AddActorOfKind",
            Edit::StartActor { .. } => "StartActor",
            Edit::SetField { .. } => "SetField",
            Edit::Rename { .. } => "Rename",
            Edit::Remove { .. } => "Remove",
            Edit::SetSceneInfo { .. } => "SetSceneInfo",
            Edit::Set { .. } => "Set",
            Edit::Insert { .. } => "Insert",
            Edit::Take { .. } => "Take",
        }
    }

    /// What a move or resize acts on, for merging a drag's frames into
    /// one undo step; `None` for every other edit.
    pub fn merge_key(&self) -> Option<(&'static str, Vec<Id>)> {
        let one = |id: &Id| Some((self.name(), vec![id.clone()]));
        match self {
            Edit::MoveRoom { id, .. }
            | Edit::ResizeRoom { id, .. }
            | Edit::MoveDoor { id, .. }
            | Edit::MoveFixture { id, .. }
            | Edit::ResizeFixture { id, .. } => one(id),
            Edit::MoveRooms { ids, .. } => Some((self.name(), ids.clone())),
            _ => None,
        }
    }

    /// The raw step setting `prop` of `id`.
    pub(super) fn set(id: &Id, prop: Prop) -> Edit {
        Edit::Set {
            id: id.clone(),
            prop,
        }
    }

    /// The raw step appending `entity` to its list, `len` long.
    pub(super) fn push(entity: Entity, len: usize) -> Edit {
        Edit::Insert { entity, index: len }
    }

    /// The raw step removing `id`.
    pub(super) fn take(id: &Id) -> Edit {
        Edit::Take { id: id.clone() }
    }
}
