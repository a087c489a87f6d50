//! Edit commands and how they apply. Every command applied returns its
//! inverse, and undo is applying that inverse: no scene snapshots.
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
use thiserror::Error;

use crate::catalogue::Catalogue;
use crate::ids::{Id, nearest};
pub use crate::scene::validate::Kind;
use crate::scene::validate::check_field;
use crate::scene::walls;
use crate::scene::*;

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
    /// A person or the robot with the editor's defaults ([`actor_defaults`]),
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

/// Why an edit was refused. The scene is unchanged.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum EditError {
    #[error("no {what} {id}{}", suggest.as_ref().map(|s| format!(" (did you mean {s}?)")).unwrap_or_default())]
    Unknown {
        id: Id,
        what: &'static str,
        suggest: Option<Id>,
    },
    #[error("{id} is {found}, not {expected}")]
    WrongKind {
        id: Id,
        found: &'static str,
        expected: &'static str,
    },
    #[error("the id {id} is already taken")]
    IdTaken { id: Id },
    #[error("{id} at ({}, {}) does not fit inside {}", pos.0, pos.1, room.as_ref().map_or("any room".to_string(), |r| r.to_string()))]
    OutsideRoom {
        id: Id,
        pos: (f32, f32),
        room: Option<Id>,
    },
    #[error("rooms {a} and {b} share no wall long enough for a door")]
    NoSharedWall { a: Id, b: Id },
    #[error("{id} has no {surface} surface")]
    NoSurface { id: Id, surface: &'static str },
    /// `surface` is "on", "in" or "hands".
    #[error("{}", full(id, surface, *capacity))]
    Full {
        id: Id,
        surface: &'static str,
        capacity: u32,
    },
    #[error("{id} is {found}, which has no {prop}")]
    NoSuchProperty {
        id: Id,
        found: &'static str,
        prop: &'static str,
    },
    #[error("{id}: {why}")]
    BadGeometry { id: Id, why: String },
    #[error(
        "{id} is referred to by {}; choose a policy (Cascade or MoveTo)",
        join(by)
    )]
    Referenced { id: Id, by: Vec<Id> },
    #[error("{device}: field {name:?}: {why}")]
    BadField {
        device: Id,
        name: String,
        why: String,
    },
    /// `what` is "furniture or device kind", "room type" or "object category".
    #[error("no {what} {kind:?} in the catalogue")]
    UnknownCatalogueKind { what: &'static str, kind: String },
    #[error("{id}: {why}")]
    BadPolicy { id: Id, why: String },
    #[error("index {index} is past the end of the list ({len} long)")]
    BadIndex { index: usize, len: usize },
    #[error("step {index}: {source}")]
    InBatch {
        index: usize,
        #[source]
        source: Box<EditError>,
    },
}

fn full(id: &Id, surface: &str, capacity: u32) -> String {
    let n = if capacity == 1 {
        "1 object".to_string()
    } else {
        format!("{capacity} objects")
    };
    match surface {
        "hands" => format!("{id}'s hands are full ({n})"),
        s => format!("{id} is full: {n} {s} it already"),
    }
}

fn join(ids: &[Id]) -> String {
    ids.iter().map(Id::as_str).collect::<Vec<_>>().join(", ")
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

    /// Applies the edit, returning its inverse. On error the scene is
    /// unchanged. Fixtures from the catalogue use the built-in one.
    pub fn apply(self, scene: &mut Scene) -> Result<Edit, EditError> {
        self.apply_with(scene, crate::catalogue::builtin())
    }

    pub fn apply_with(self, scene: &mut Scene, cat: &Catalogue) -> Result<Edit, EditError> {
        match self {
            Edit::Batch(edits) => {
                apply_all(scene, cat, edits).map_err(|(index, e)| EditError::InBatch {
                    index,
                    source: Box::new(e),
                })
            }
            Edit::Set { id, prop } => {
                let old = set(scene, &id, prop)?;
                Ok(Edit::Set { id, prop: old })
            }
            Edit::Insert { entity, index } => insert(scene, entity, index),
            Edit::Take { id } => take(scene, &id),
            Edit::Rename { from, to } => rename(scene, from, to),
            Edit::SetSceneInfo {
                id,
                name,
                description,
            } => Ok(Edit::SetSceneInfo {
                id: std::mem::replace(&mut scene.id, id),
                name: std::mem::replace(&mut scene.name, name),
                description: std::mem::replace(&mut scene.description, description),
            }),
            checked => {
                let index = SceneIndex::new(scene);
                let steps = plan(index.over(scene), cat, checked)?;
                apply_all(scene, cat, steps).map_err(|(_, e)| e)
            }
        }
    }
}

/// Applies edits in order; on a failure, undoes the ones applied and says
/// which failed. The inverse undoes them in reverse order.
fn apply_all(
    scene: &mut Scene,
    cat: &Catalogue,
    edits: Vec<Edit>,
) -> Result<Edit, (usize, EditError)> {
    let mut inverses = Vec::with_capacity(edits.len());
    for (i, e) in edits.into_iter().enumerate() {
        match e.apply_with(scene, cat) {
            Ok(inv) => inverses.push(inv),
            Err(err) => {
                for inv in inverses.into_iter().rev() {
                    // Inverses are raw edits of what was just changed.
                    inv.apply_with(scene, cat)
                        .expect("the inverse of an applied edit applies");
                }
                return Err((i, err));
            }
        }
    }
    inverses.reverse();
    Ok(match inverses.len() {
        1 => inverses.pop().expect("one inverse"),
        _ => Edit::Batch(inverses),
    })
}

/// The entities that refer to `id`, in scene order: doors joining a room,
/// fixtures and actors in it, actors near a fixture, objects on, in or
/// held by it, objects it owns.
pub fn referrers(scene: &Scene, id: &Id) -> Vec<Id> {
    let s = scene;
    let doors = s
        .doors
        .iter()
        .filter(|d| &d.rooms.0 == id || &d.rooms.1 == id)
        .map(|d| &d.id);
    let fixtures = s
        .furniture
        .iter()
        .filter(|f| &f.room == id)
        .map(|f| &f.id)
        .chain(s.devices.iter().filter(|d| &d.room == id).map(|d| &d.id));
    let objects = s
        .objects
        .iter()
        .filter(|o| placed_on(&o.at) == id || o.owner.as_ref() == Some(id))
        .map(|o| &o.id);
    let actors = s
        .actors
        .iter()
        .filter(|a| &a.room == id || a.near.as_ref() == Some(id))
        .map(|a| &a.id);
    doors
        .chain(fixtures)
        .chain(objects)
        .chain(actors)
        .cloned()
        .collect()
}

fn placed_on(p: &Placement) -> &Id {
    match p {
        Placement::On(t) | Placement::In(t) | Placement::HeldBy(t) => t,
    }
}

fn unknown(scene: &Scene, id: &Id, what: &'static str) -> EditError {
    EditError::Unknown {
        id: id.clone(),
        what,
        suggest: nearest(id, entries(scene).map(|(id, ..)| id), 1)
            .pop()
            .filter(|s| crate::ids::edit_distance(s, id) <= 3),
    }
}

fn expect_kind(
    scene: Indexed<'_>,
    id: &Id,
    kinds: &[Kind],
    what: &'static str,
) -> Result<Kind, EditError> {
    match scene.kind_of(id) {
        Some(k) if kinds.contains(&k) => Ok(k),
        Some(k) => Err(EditError::WrongKind {
            id: id.clone(),
            found: k.noun(),
            expected: what,
        }),
        None => Err(unknown(&scene, id, what)),
    }
}

fn fresh(found: Option<Kind>, id: &Id) -> Result<(), EditError> {
    if found.is_some() {
        return Err(EditError::IdTaken { id: id.clone() });
    }
    Ok(())
}

fn room<'a>(scene: Indexed<'a>, id: &Id) -> Result<&'a RoomDef, EditError> {
    expect_kind(scene, id, &[Kind::Room], "room")?;
    Ok(scene.room(id).expect("a room"))
}

fn fixture_checked<'a>(scene: Indexed<'a>, id: &Id) -> Result<Fixture<'a>, EditError> {
    expect_kind(
        scene,
        id,
        &[Kind::Furniture, Kind::Device],
        "furniture or a device",
    )?;
    Ok(scene.fixture(id).expect("a fixture"))
}

fn fits(rect: &Rect, pos: (f32, f32), size: (f32, f32, f32)) -> bool {
    rect.contains((pos.0 - size.0 / 2.0, pos.1 - size.1 / 2.0))
        && rect.contains((pos.0 + size.0 / 2.0, pos.1 + size.1 / 2.0))
}

fn positive(id: &Id, what: &str, xs: &[f32]) -> Result<(), EditError> {
    if xs.iter().all(|x| x.is_finite() && *x > 0.0) {
        Ok(())
    } else {
        Err(EditError::BadGeometry {
            id: id.clone(),
            why: format!("{what} must be positive and finite"),
        })
    }
}

fn finite(id: &Id, what: &str, xs: &[f32]) -> Result<(), EditError> {
    if xs.iter().all(|x| x.is_finite()) {
        Ok(())
    } else {
        Err(EditError::BadGeometry {
            id: id.clone(),
            why: format!("{what} must be finite"),
        })
    }
}

fn check_fixture(
    scene: Indexed<'_>,
    id: &Id,
    room_id: &Id,
    pos: (f32, f32),
    size: (f32, f32, f32),
) -> Result<(), EditError> {
    fresh(scene.kind_of(id), id)?;
    positive(id, "size", &[size.0, size.1, size.2])?;
    finite(id, "pos", &[pos.0, pos.1])?;
    if !fits(&room(scene, room_id)?.rect, pos, size) {
        return Err(EditError::OutsideRoom {
            id: id.clone(),
            pos,
            room: Some(room_id.clone()),
        });
    }
    Ok(())
}

/// The placement `id` would get on or in `target`, checking it is free.
fn placement(
    scene: Indexed<'_>,
    id: &Id,
    target: &Id,
    inside: Option<bool>,
) -> Result<Placement, EditError> {
    let kind = expect_kind(
        scene,
        target,
        &[Kind::Furniture, Kind::Device, Kind::Actor],
        "a receptacle or an actor",
    )?;
    let load = |p: &Placement| {
        scene
            .objects
            .iter()
            .filter(|o| &o.at == p && &o.id != id)
            .count() as u32
    };
    if kind == Kind::Actor {
        let hands = scene.actor(target).expect("an actor").hands;
        let p = Placement::HeldBy(target.clone());
        if load(&p) >= hands {
            return Err(EditError::Full {
                id: target.clone(),
                surface: "hands",
                capacity: hands,
            });
        }
        return Ok(p);
    }
    let surfaces = scene.fixture(target).expect("a fixture").surfaces;
    let cap = |inside: bool| {
        surfaces.iter().find_map(|s| match (*s, inside) {
            (Surface::On(c), false) | (Surface::In(c), true) => Some(c),
            _ => None,
        })
    };
    let make = |inside: bool| {
        if inside {
            Placement::In(target.clone())
        } else {
            Placement::On(target.clone())
        }
    };
    let word = |inside: bool| if inside { "In" } else { "On" };
    let candidates: Vec<bool> = match inside {
        Some(i) => vec![i],
        None => vec![false, true],
    };
    let mut first_full = None;
    for i in candidates {
        let Some(c) = cap(i) else { continue };
        if load(&make(i)) < c {
            return Ok(make(i));
        }
        first_full.get_or_insert(EditError::Full {
            id: target.clone(),
            surface: if i { "in" } else { "on" },
            capacity: c,
        });
    }
    Err(first_full.unwrap_or_else(|| EditError::NoSurface {
        id: target.clone(),
        surface: match inside {
            Some(i) => word(i),
            None => "On or In",
        },
    }))
}

/// A free id for a new thing of `kind`: `fridge_2` when `fridge_1` is taken.
pub fn new_id(scene: Indexed<'_>, kind: &str) -> Id {
    let stem: String = kind
        .to_ascii_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let stem = if stem.starts_with(|c: char| c.is_ascii_lowercase()) {
        stem
    } else {
        format!("f_{stem}")
    };
    (1..)
        .map(|n| Id::new(&format!("{stem}_{n}")))
        .find(|id| scene.kind_of(id).is_none())
        .expect("some number is free")
}

/// Turns a checked command into raw steps, refusing what it must.
fn plan(s: Indexed<'_>, cat: &Catalogue, edit: Edit) -> Result<Vec<Edit>, EditError> {
    let set = |id: &Id, prop| Edit::Set {
        id: id.clone(),
        prop,
    };
    let push = |entity: Entity, len: usize| Edit::Insert { entity, index: len };
    Ok(match edit {
        Edit::AddRoom(r) => {
            fresh(s.kind_of(&r.id), &r.id)?;
            positive(
                &r.id,
                "width, depth and height",
                &[r.rect.w, r.rect.h, r.height],
            )?;
            finite(&r.id, "the corner", &[r.rect.x, r.rect.y])?;
            vec![push(Entity::Room(r), s.rooms.len())]
        }
        Edit::AddRoomFromCatalogue { kind, at, id } => {
            let t = cat.room(&kind).ok_or(EditError::UnknownCatalogueKind {
                what: "room type",
                kind,
            })?;
            let at = at.unwrap_or_else(|| {
                // East of the house, level with its northern edge.
                let right = s.rooms.iter().map(|r| r.rect.x + r.rect.w).reduce(f32::max);
                let top = s.rooms.iter().map(|r| r.rect.y).reduce(f32::min);
                (right.unwrap_or(0.0), top.unwrap_or(0.0))
            });
            let area = (t.area.0 + t.area.1) / 2.0;
            let w = (area.sqrt() * 10.0).round() / 10.0;
            let h = ((area / w) * 10.0).round() / 10.0;
            let room = RoomDef {
                id: id.unwrap_or_else(|| new_id(s, &t.kind)),
                name: t.name.clone(),
                rect: Rect {
                    x: at.0,
                    y: at.1,
                    w,
                    h,
                },
                height: ROOM_HEIGHT,
            };
            plan(s, cat, Edit::AddRoom(room))?
        }
        Edit::MoveRoom { id, to } => {
            let r = room(s, &id)?;
            finite(&id, "the corner", &[to.0, to.1])?;
            let by = (to.0 - r.rect.x, to.1 - r.rect.y);
            let rect = Rect {
                x: to.0,
                y: to.1,
                ..r.rect
            };
            let mut steps = plan(
                s,
                cat,
                Edit::MoveRooms {
                    ids: vec![id.clone()],
                    by,
                },
            )?;
            // Exactly `to`: x + (to - x) can differ from `to` in the last bit.
            steps[0] = set(&id, Prop::Rect(rect));
            steps
        }
        Edit::MoveRooms { ids, by } => {
            for id in &ids {
                room(s, id)?;
                finite(id, "the offset", &[by.0, by.1])?;
            }
            let shift = |p: (f32, f32)| (p.0 + by.0, p.1 + by.1);
            let moved = |id: &Id| ids.contains(id);
            let mut steps = Vec::new();
            for r in s.rooms.iter().filter(|r| moved(&r.id)) {
                let (x, y) = shift((r.rect.x, r.rect.y));
                steps.push(set(&r.id, Prop::Rect(Rect { x, y, ..r.rect })));
            }
            for d in s
                .doors
                .iter()
                .filter(|d| moved(&d.rooms.0) || moved(&d.rooms.1))
            {
                steps.push(set(&d.id, Prop::Pos(shift(d.at))));
            }
            for f in fixtures(&s).filter(|f| moved(f.room)) {
                steps.push(set(f.id, Prop::Pos(shift(f.pos))));
            }
            steps
        }
        Edit::ResizeRoom { id, rect } => {
            let old = room(s, &id)?.rect;
            positive(&id, "width and depth", &[rect.w, rect.h])?;
            finite(&id, "the corner", &[rect.x, rect.y])?;
            if let Some(f) = fixtures(&s).find(|f| f.room == &id && !fits(&rect, f.pos, f.size)) {
                return Err(EditError::OutsideRoom {
                    id: f.id.clone(),
                    pos: f.pos,
                    room: Some(id),
                });
            }
            let mut steps = vec![set(&id, Prop::Rect(rect))];
            for d in s
                .doors
                .iter()
                .filter(|d| d.rooms.0 == id || d.rooms.1 == id)
            {
                steps.push(set(&d.id, Prop::Pos(walls::follow_wall(&old, &rect, d.at))));
            }
            steps
        }
        Edit::AddDoor {
            id,
            rooms,
            at,
            openable,
            open,
        } => {
            fresh(s.kind_of(&id), &id)?;
            let (a, b) = (room(s, &rooms.0)?, room(s, &rooms.1)?);
            let at = walls::snap_door(&a.rect, &b.rect, at)
                .filter(|_| a.id != b.id)
                .ok_or_else(|| EditError::NoSharedWall {
                    a: a.id.clone(),
                    b: b.id.clone(),
                })?;
            let door = DoorDef {
                id,
                rooms,
                at,
                openable,
                open,
            };
            vec![push(Entity::Door(door), s.doors.len())]
        }
        Edit::MoveDoor { id, to } => {
            expect_kind(s, &id, &[Kind::Door], "a door")?;
            let d = s.door(&id).expect("a door");
            let (a, b) = (room(s, &d.rooms.0)?, room(s, &d.rooms.1)?);
            let at = walls::snap_door(&a.rect, &b.rect, to)
                .filter(|_| a.id != b.id)
                .ok_or_else(|| EditError::NoSharedWall {
                    a: a.id.clone(),
                    b: b.id.clone(),
                })?;
            vec![set(&id, Prop::Pos(at))]
        }
        Edit::AddFurniture(f) => {
            check_fixture(s, &f.id, &f.room, f.pos, f.size)?;
            vec![push(Entity::Furniture(f), s.furniture.len())]
        }
        Edit::AddDevice(d) => {
            check_fixture(s, &d.id, &d.room, d.pos, d.size)?;
            check_fields(&d.id, &d.fields)?;
            vec![push(Entity::Device(d), s.devices.len())]
        }
        Edit::AddFixtureFromCatalogue {
            kind,
            room,
            pos,
            id,
        } => {
            let r = self::room(s, &room)?.rect;
            let pos = pos.unwrap_or((r.x + r.w / 2.0, r.y + r.h / 2.0));
            let id = |canonical: &str| id.clone().unwrap_or_else(|| new_id(s, canonical));
            let describe = |ds: &[String]| ds.first().cloned().unwrap_or_default();
            let add = if let Some(k) = cat.furniture_kind(&kind) {
                Edit::AddFurniture(FurnitureDef {
                    id: id(&k.kind),
                    kind: k.kind.clone(),
                    room,
                    pos,
                    size: k.size,
                    surfaces: k.surfaces.clone(),
                    openable: k.openable,
                    description: describe(&k.descriptions),
                    roles: Vec::new(),
                })
            } else if let Some(k) = cat.device_kind(&kind) {
                Edit::AddDevice(DeviceDef {
                    id: id(&k.kind),
                    kind: k.kind.clone(),
                    room,
                    pos,
                    size: k.size,
                    remote: k.remote,
                    fields: k.fields.clone(),
                    surfaces: k.surfaces.clone(),
                    openable: k.openable,
                    description: describe(&k.descriptions),
                    roles: Vec::new(),
                })
            } else {
                return Err(EditError::UnknownCatalogueKind {
                    what: "furniture or device kind",
                    kind,
                });
            };
            plan(s, cat, add)?
        }
        Edit::MoveFixture { id, to } => {
            let f = fixture_checked(s, &id)?;
            finite(&id, "pos", &[to.0, to.1])?;
            let own = s.room(f.room).into_iter();
            let others = s.rooms.iter().filter(|r| &r.id != f.room);
            let dest = own
                .chain(others)
                .find(|r| fits(&r.rect, to, f.size))
                .ok_or_else(|| EditError::OutsideRoom {
                    id: id.clone(),
                    pos: to,
                    room: None,
                })?;
            let mut steps = vec![set(&id, Prop::Pos(to))];
            if &dest.id != f.room {
                steps.push(set(&id, Prop::Room(dest.id.clone())));
                for a in s.actors.iter().filter(|a| a.near.as_ref() == Some(&id)) {
                    steps.push(set(&a.id, Prop::Room(dest.id.clone())));
                }
            }
            steps
        }
        Edit::ResizeFixture { id, size } => {
            let f = fixture_checked(s, &id)?;
            positive(&id, "size", &[size.0, size.1, size.2])?;
            let r = room(s, f.room)?;
            if !fits(&r.rect, f.pos, size) {
                return Err(EditError::OutsideRoom {
                    id,
                    pos: f.pos,
                    room: Some(r.id.clone()),
                });
            }
            vec![set(&id, Prop::Size(size))]
        }
        Edit::AddObject(o) => {
            fresh(s.kind_of(&o.id), &o.id)?;
            let (target, inside) = match &o.at {
                Placement::On(t) => (t, Some(false)),
                Placement::In(t) => (t, Some(true)),
                Placement::HeldBy(t) => (t, None),
            };
            let (kinds, what): (&[Kind], _) = match inside {
                None => (&[Kind::Actor], "an actor"),
                Some(_) => (&[Kind::Furniture, Kind::Device], "a receptacle"),
            };
            expect_kind(s, target, kinds, what)?;
            placement(s, &o.id, target, inside)?;
            if let Some(owner) = &o.owner {
                expect_kind(s, owner, &[Kind::Actor], "an actor")?;
            }
            vec![push(Entity::Object(o), s.objects.len())]
        }
        Edit::PlaceObject { id, on, inside } => {
            expect_kind(s, &id, &[Kind::Object], "an object")?;
            vec![set(&id, Prop::At(placement(s, &id, &on, inside)?))]
        }
        Edit::AddActor(a) => {
            fresh(s.kind_of(&a.id), &a.id)?;
            room(s, &a.room)?;
            if let Some(near) = &a.near {
                let f = fixture_checked(s, near)?;
                if f.room != &a.room {
                    return Err(EditError::WrongKind {
                        id: near.clone(),
                        found: "in another room",
                        expected: "furniture or a device in the actor's room",
                    });
                }
            }
            if a.hands == 0 || !(a.speed.is_finite() && a.speed > 0.0) {
                return Err(EditError::BadGeometry {
                    id: a.id,
                    why: "an actor needs hands and a positive speed".into(),
                });
            }
            vec![push(Entity::Actor(a), s.actors.len())]
        }
        Edit::AddObjectFromCatalogue {
            category,
            on,
            inside,
            id,
        } => {
            let c = cat
                .category(&category)
                .ok_or(EditError::UnknownCatalogueKind {
                    what: "object category",
                    kind: category,
                })?;
            let id = id.unwrap_or_else(|| new_id(s, &c.category));
            fresh(s.kind_of(&id), &id)?;
            let at = placement(s, &id, &on, inside)?;
            // A look-alike variant no object has yet, to tell them apart.
            let used = |v: &&String| s.objects.iter().any(|o| &o.description == *v);
            let description = (c.variants.iter().find(|v| !used(v)))
                .or(c.variants.first())
                .map_or_else(|| c.category.clone(), String::clone);
            let object = ObjectDef {
                id,
                category: c.category.clone(),
                description,
                owner: None,
                at,
                roles: Vec::new(),
            };
            plan(s, cat, Edit::AddObject(object))?
        }
        Edit::AddActorOfKind { kind, at, id } => {
            let (room, near) = start_at(s, at)?;
            let id = id.unwrap_or_else(|| {
                new_id(
                    s,
                    if kind == ActorKind::Robot {
                        "robot"
                    } else {
                        "person"
                    },
                )
            });
            let actor = ActorDef {
                room,
                near,
                ..actor_defaults(id, kind)
            };
            plan(s, cat, Edit::AddActor(actor))?
        }
        Edit::StartActor { id, at } => {
            expect_kind(s, &id, &[Kind::Actor], "an actor")?;
            let (room, near) = start_at(s, at)?;
            vec![set(&id, Prop::Room(room)), set(&id, Prop::Near(near))]
        }
        Edit::SetField {
            device,
            name,
            field,
        } => {
            expect_kind(s, &device, &[Kind::Device], "a device")?;
            let d = s.device(&device).expect("a device");
            let mut fields = d.fields.clone();
            match field {
                Some(f) => {
                    let f = carry_value(fields.get(&name), f);
                    fields.insert(name, f);
                    check_fields(&device, &fields)?;
                }
                None => {
                    if fields.remove(&name).is_none() {
                        return Err(EditError::BadField {
                            device,
                            name,
                            why: "no such field".into(),
                        });
                    }
                }
            }
            vec![set(&device, Prop::Fields(fields))]
        }
        Edit::Remove { id, policy } => remove(s, id, policy)?,
        raw => unreachable!("{} is applied directly", raw.name()),
    })
}

/// Where an actor starting `at` a room or a fixture stands: its room,
/// and the fixture it is next to.
fn start_at(s: Indexed<'_>, at: Id) -> Result<(Id, Option<Id>), EditError> {
    let kind = expect_kind(
        s,
        &at,
        &[Kind::Room, Kind::Furniture, Kind::Device],
        "a room, furniture or a device",
    )?;
    Ok(match kind {
        Kind::Room => (at, None),
        _ => (s.fixture(&at).expect("a fixture").room.clone(), Some(at)),
    })
}

/// The height of a room added from the catalogue (metres).
pub const ROOM_HEIGHT: f32 = 2.5;

/// A new actor of `kind` as the editor makes one: named by its id, a
/// resident (or the robot) with two hands, walking at 1.0 m/s (the robot
/// at 0.6 m/s), starting in no room yet.
pub fn actor_defaults(id: Id, kind: ActorKind) -> ActorDef {
    let robot = kind == ActorKind::Robot;
    ActorDef {
        name: id.to_string(),
        id,
        kind,
        role: if robot { "robot" } else { "resident" }.into(),
        room: Id::new(""),
        near: None,
        hands: 2,
        speed: if robot { 0.6 } else { 1.0 },
    }
}

/// A field's new schema `new`, its value carried along when only the
/// schema changed (the value is the old one): clamped into the bounds, or
/// the first option. A changed value, or a different type, is kept as
/// given for [`check_fields`] to judge.
fn carry_value(old: Option<&FieldDef>, new: FieldDef) -> FieldDef {
    use FieldDef::*;
    match (old, new) {
        (Some(Int { value: v, .. }), Int { value, min, max }) if *v == value && min <= max => Int {
            value: value.clamp(min, max),
            min,
            max,
        },
        (Some(Float { value: v, .. }), Float { value, min, max })
            if *v == value && min <= max && value.is_finite() =>
        {
            Float {
                value: value.clamp(min, max),
                min,
                max,
            }
        }
        (Some(Timer { value: v, .. }), Timer { value, max }) if *v == value => Timer {
            value: value.min(max),
            max,
        },
        (Some(Enum { value: v, .. }), Enum { value, options })
            if *v == value && !options.contains(&value) && !options.is_empty() =>
        {
            Enum {
                value: options[0].clone(),
                options,
            }
        }
        (_, new) => new,
    }
}

fn check_fields(device: &Id, fields: &BTreeMap<String, FieldDef>) -> Result<(), EditError> {
    for (name, f) in fields {
        let bad = |why: String| EditError::BadField {
            device: device.clone(),
            name: name.clone(),
            why,
        };
        if !Id::is_well_formed(name) {
            return Err(bad("names are lower-case letters, digits and _".into()));
        }
        check_field(f).map_err(bad)?;
    }
    Ok(())
}

fn remove(s: Indexed<'_>, id: Id, policy: OnRemove) -> Result<Vec<Edit>, EditError> {
    let kind = s.kind_of(&id).ok_or_else(|| unknown(&s, &id, "entity"))?;
    let by = referrers(&s, &id);
    if policy == OnRemove::Refuse && !by.is_empty() {
        return Err(EditError::Referenced { id, by });
    }
    let take = |id: &Id| Edit::Take { id: id.clone() };
    let set = |id: &Id, prop| Edit::Set {
        id: id.clone(),
        prop,
    };
    let mut steps = Vec::new();
    match kind {
        Kind::Room => {
            if let OnRemove::MoveTo(_) = policy {
                return Err(EditError::BadPolicy {
                    id,
                    why: "a room's contents cannot move elsewhere; use Cascade".into(),
                });
            }
            // Actors first: they may be near a fixture of the room.
            for a in s.actors.iter().filter(|a| a.room == id) {
                steps.extend(remove(s, a.id.clone(), OnRemove::Cascade)?);
            }
            for d in s
                .doors
                .iter()
                .filter(|d| d.rooms.0 == id || d.rooms.1 == id)
            {
                steps.push(take(&d.id));
            }
            let in_room: Vec<&Id> = fixtures(&s)
                .filter(|f| f.room == &id)
                .map(|f| f.id)
                .collect();
            // What stands on them; those near them are gone with the room already.
            for o in s
                .objects
                .iter()
                .filter(|o| in_room.contains(&placed_on(&o.at)))
            {
                steps.push(take(&o.id));
            }
            steps.extend(in_room.into_iter().map(take));
        }
        Kind::Furniture | Kind::Device | Kind::Actor => {
            for a in s.actors.iter().filter(|a| a.near.as_ref() == Some(&id)) {
                steps.push(set(&a.id, Prop::Near(None)));
            }
            for o in s.objects.iter() {
                if o.owner.as_ref() == Some(&id) {
                    steps.push(set(&o.id, Prop::Owner(None)));
                }
                if placed_on(&o.at) == &id {
                    steps.push(match &policy {
                        OnRemove::MoveTo(to) => {
                            if to == &id {
                                return Err(EditError::BadPolicy {
                                    id,
                                    why: "cannot move its objects onto itself".into(),
                                });
                            }
                            Edit::PlaceObject {
                                id: o.id.clone(),
                                on: to.clone(),
                                inside: None,
                            }
                        }
                        _ => take(&o.id),
                    });
                }
            }
        }
        Kind::Door | Kind::Object => {}
    }
    // Removing steps shift indices, so the entity itself goes last and the
    // inverse re-inserts everything in reverse order at its old index.
    steps.push(take(&id));
    Ok(steps)
}

fn rename(scene: &mut Scene, from: Id, to: Id) -> Result<Edit, EditError> {
    if locate(scene, &from).is_none() {
        return Err(unknown(scene, &from, "entity"));
    }
    // A dangling reference to `to` would be merged with `from`'s and could
    // not be told apart on undo.
    if from == to || locate(scene, &to).is_some() || !referrers(scene, &to).is_empty() {
        return Err(EditError::IdTaken { id: to });
    }
    let r = |x: &mut Id| {
        if *x == from {
            *x = to.clone();
        }
    };
    let s = scene;
    for e in &mut s.rooms {
        r(&mut e.id);
    }
    for e in &mut s.doors {
        r(&mut e.id);
        r(&mut e.rooms.0);
        r(&mut e.rooms.1);
    }
    for e in &mut s.furniture {
        r(&mut e.id);
        r(&mut e.room);
    }
    for e in &mut s.devices {
        r(&mut e.id);
        r(&mut e.room);
    }
    for e in &mut s.objects {
        r(&mut e.id);
        if let Some(o) = &mut e.owner {
            r(o);
        }
        match &mut e.at {
            Placement::On(t) | Placement::In(t) | Placement::HeldBy(t) => r(t),
        }
    }
    for e in &mut s.actors {
        r(&mut e.id);
        r(&mut e.room);
        if let Some(n) = &mut e.near {
            r(n);
        }
    }
    Ok(Edit::Rename { from: to, to: from })
}

fn insert(s: &mut Scene, entity: Entity, index: usize) -> Result<Edit, EditError> {
    fresh(locate(s, entity.id()).map(|(k, _)| k), entity.id())?;
    let id = entity.id().clone();
    fn put<T>(v: &mut Vec<T>, index: usize, x: T) -> Result<(), EditError> {
        if index > v.len() {
            return Err(EditError::BadIndex {
                index,
                len: v.len(),
            });
        }
        v.insert(index, x);
        Ok(())
    }
    match entity {
        Entity::Room(e) => put(&mut s.rooms, index, e),
        Entity::Door(e) => put(&mut s.doors, index, e),
        Entity::Furniture(e) => put(&mut s.furniture, index, e),
        Entity::Device(e) => put(&mut s.devices, index, e),
        Entity::Object(e) => put(&mut s.objects, index, e),
        Entity::Actor(e) => put(&mut s.actors, index, e),
    }?;
    Ok(Edit::Take { id })
}

fn take(s: &mut Scene, id: &Id) -> Result<Edit, EditError> {
    let (kind, index) = locate(s, id).ok_or_else(|| unknown(s, id, "entity"))?;
    let entity = match kind {
        Kind::Room => Entity::Room(s.rooms.remove(index)),
        Kind::Door => Entity::Door(s.doors.remove(index)),
        Kind::Furniture => Entity::Furniture(s.furniture.remove(index)),
        Kind::Device => Entity::Device(s.devices.remove(index)),
        Kind::Object => Entity::Object(s.objects.remove(index)),
        Kind::Actor => Entity::Actor(s.actors.remove(index)),
    };
    Ok(Edit::Insert { entity, index })
}

/// The properties furniture and devices share, borrowed for [`set`].
struct FixtureMut<'a> {
    description: &'a mut String,
    kind: &'a mut String,
    pos: &'a mut (f32, f32),
    size: &'a mut (f32, f32, f32),
    surfaces: &'a mut Vec<Surface>,
    openable: &'a mut Openable,
    roles: &'a mut Vec<Role>,
    room: &'a mut Id,
}

/// Borrows the shared properties of a `FurnitureDef` or `DeviceDef`.
macro_rules! fixture_mut {
    ($e:expr) => {
        FixtureMut {
            description: &mut $e.description,
            kind: &mut $e.kind,
            pos: &mut $e.pos,
            size: &mut $e.size,
            surfaces: &mut $e.surfaces,
            openable: &mut $e.openable,
            roles: &mut $e.roles,
            room: &mut $e.room,
        }
    };
}

/// Sets a property furniture and devices share, returning the old value,
/// or gives the property back if it is not one of them.
fn set_fixture(f: FixtureMut<'_>, prop: Prop) -> Result<Prop, Prop> {
    use std::mem::replace;
    Ok(match prop {
        Prop::Description(v) => Prop::Description(replace(f.description, v)),
        Prop::Kind(v) => Prop::Kind(replace(f.kind, v)),
        Prop::Pos(v) => Prop::Pos(replace(f.pos, v)),
        Prop::Size(v) => Prop::Size(replace(f.size, v)),
        Prop::Surfaces(v) => Prop::Surfaces(replace(f.surfaces, v)),
        Prop::Openable(v) => Prop::Openable(replace(f.openable, v)),
        Prop::Roles(v) => Prop::Roles(replace(f.roles, v)),
        Prop::Room(v) => Prop::Room(replace(f.room, v)),
        p => return Err(p),
    })
}

/// Sets one property, returning the old value.
fn set(s: &mut Scene, id: &Id, prop: Prop) -> Result<Prop, EditError> {
    use std::mem::replace;
    let (kind, i) = locate(s, id).ok_or_else(|| unknown(s, id, "entity"))?;
    let no = |prop: &Prop| EditError::NoSuchProperty {
        id: id.clone(),
        found: kind.noun(),
        prop: prop.name(),
    };
    match kind {
        Kind::Room => {
            let e = &mut s.rooms[i];
            Ok(match prop {
                Prop::Name(v) => Prop::Name(replace(&mut e.name, v)),
                Prop::Rect(v) => Prop::Rect(replace(&mut e.rect, v)),
                Prop::Height(v) => Prop::Height(replace(&mut e.height, v)),
                p => return Err(no(&p)),
            })
        }
        Kind::Door => {
            let e = &mut s.doors[i];
            Ok(match prop {
                Prop::Pos(v) => Prop::Pos(replace(&mut e.at, v)),
                Prop::Rooms(v) => Prop::Rooms(replace(&mut e.rooms, v)),
                Prop::Doorway { openable, open } => Prop::Doorway {
                    openable: replace(&mut e.openable, openable),
                    open: replace(&mut e.open, open),
                },
                p => return Err(no(&p)),
            })
        }
        Kind::Furniture => {
            let e = &mut s.furniture[i];
            set_fixture(fixture_mut!(e), prop).map_err(|p| no(&p))
        }
        Kind::Device => {
            let e = &mut s.devices[i];
            Ok(match prop {
                Prop::Remote(v) => Prop::Remote(replace(&mut e.remote, v)),
                Prop::Fields(v) => Prop::Fields(replace(&mut e.fields, v)),
                p => set_fixture(fixture_mut!(e), p).map_err(|p| no(&p))?,
            })
        }
        Kind::Object => {
            let e = &mut s.objects[i];
            Ok(match prop {
                Prop::Description(v) => Prop::Description(replace(&mut e.description, v)),
                Prop::Category(v) => Prop::Category(replace(&mut e.category, v)),
                Prop::Roles(v) => Prop::Roles(replace(&mut e.roles, v)),
                Prop::Owner(v) => Prop::Owner(replace(&mut e.owner, v)),
                Prop::At(v) => Prop::At(replace(&mut e.at, v)),
                p => return Err(no(&p)),
            })
        }
        Kind::Actor => {
            let e = &mut s.actors[i];
            Ok(match prop {
                Prop::Name(v) => Prop::Name(replace(&mut e.name, v)),
                Prop::Room(v) => Prop::Room(replace(&mut e.room, v)),
                Prop::Near(v) => Prop::Near(replace(&mut e.near, v)),
                Prop::ActorKind(v) => Prop::ActorKind(replace(&mut e.kind, v)),
                Prop::Role(v) => Prop::Role(replace(&mut e.role, v)),
                Prop::Hands(v) => Prop::Hands(replace(&mut e.hands, v)),
                Prop::Speed(v) => Prop::Speed(replace(&mut e.speed, v)),
                p => return Err(no(&p)),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_ids_are_well_formed_and_free() {
        let scene = crate::scene::default_scene();
        let index = SceneIndex::new(&scene);
        let s = index.over(&scene);
        assert_eq!(new_id(s, "Fridge").as_str(), "fridge_2");
        assert_eq!(new_id(s, "Kitchen island").as_str(), "kitchen_island_1");
        let odd = new_id(s, "3-D printer");
        assert!(Id::is_well_formed(&odd), "{odd}");
    }

    #[test]
    fn referrers_list_every_kind_of_reference() {
        let s = crate::scene::default_scene();
        let by = referrers(&s, &Id::new("alice"));
        assert!(by.iter().any(|i| i.as_str() == "mug_1"), "owner: {by:?}");
        let by = referrers(&s, &Id::new("charging_dock_1"));
        assert_eq!(by, vec![Id::new("robot")]);
        let by = referrers(&s, &Id::new("study"));
        assert!(by.iter().any(|i| i.as_str() == "door_study"), "{by:?}");
        assert!(by.iter().any(|i| i.as_str() == "desk_study"), "{by:?}");
        assert!(referrers(&s, &Id::new("mug_1")).is_empty());
    }
}
