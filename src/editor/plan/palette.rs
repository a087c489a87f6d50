//! The palette's additions: a thing of a kind, with the defaults the
//! editor gives it. Rooms, furniture, devices and objects from the
//! catalogue (sized, described and equipped as their kind is); people
//! and the robot from [`actor_defaults`]; ids from [`new_id`].

use crate::catalogue::Catalogue;
use crate::ids::Id;
use crate::scene::index::Indexed;
use crate::scene::model::{ActorDef, ActorKind, DeviceDef, FurnitureDef, ObjectDef, Rect, RoomDef};

use super::{actors, fixtures, objects, rooms};
use crate::editor::checks::{fresh, room};
use crate::editor::command::Edit;
use crate::editor::error::EditError;

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
        schedule: None,
        room: Id::new(""),
        near: None,
        hands: 2,
        speed: if robot { 0.6 } else { 1.0 },
    }
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

/// A room of a catalogue room type, sized from its typical area, its
/// corner at `at` or east of the house level with its northern edge.
pub fn add_room(
    s: Indexed<'_>,
    cat: &Catalogue,
    kind: String,
    at: Option<(f32, f32)>,
    id: Option<Id>,
) -> Result<Vec<Edit>, EditError> {
    let t = cat.room(&kind).ok_or(EditError::UnknownCatalogueKind {
        what: "room type",
        kind,
    })?;
    let at = at.unwrap_or_else(|| {
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
    rooms::add(s, room)
}

/// Furniture or a device of a catalogue kind, centred at `pos` or in the
/// room's centre.
pub fn add_fixture(
    s: Indexed<'_>,
    cat: &Catalogue,
    kind: String,
    in_room: Id,
    pos: Option<(f32, f32)>,
    id: Option<Id>,
) -> Result<Vec<Edit>, EditError> {
    let r = room(s, &in_room)?.rect;
    let pos = pos.unwrap_or((r.x + r.w / 2.0, r.y + r.h / 2.0));
    let id = |canonical: &str| id.clone().unwrap_or_else(|| new_id(s, canonical));
    let describe = |ds: &[String]| ds.first().cloned().unwrap_or_default();
    if let Some(k) = cat.furniture_kind(&kind) {
        fixtures::add_furniture(
            s,
            FurnitureDef {
                id: id(&k.kind),
                kind: k.kind.clone(),
                room: in_room,
                pos,
                size: k.size,
                surfaces: k.surfaces.clone(),
                openable: k.openable,
                description: describe(&k.descriptions),
                roles: Vec::new(),
            },
        )
    } else if let Some(k) = cat.device_kind(&kind) {
        fixtures::add_device(
            s,
            DeviceDef {
                id: id(&k.kind),
                kind: k.kind.clone(),
                room: in_room,
                pos,
                size: k.size,
                remote: k.remote,
                fields: k.fields.clone(),
                surfaces: k.surfaces.clone(),
                openable: k.openable,
                description: describe(&k.descriptions),
                roles: Vec::new(),
            },
        )
    } else {
        Err(EditError::UnknownCatalogueKind {
            what: "furniture or device kind",
            kind,
        })
    }
}

/// An object of a catalogue category, placed as [`Edit::PlaceObject`]
/// places one.
pub fn add_object(
    s: Indexed<'_>,
    cat: &Catalogue,
    category: String,
    on: Id,
    inside: Option<bool>,
    id: Option<Id>,
) -> Result<Vec<Edit>, EditError> {
    let c = cat
        .category(&category)
        .ok_or(EditError::UnknownCatalogueKind {
            what: "object category",
            kind: category,
        })?;
    let id = id.unwrap_or_else(|| new_id(s, &c.category));
    fresh(s.kind_of(&id), &id)?;
    let at = objects::placement(s, &id, &on, inside)?;
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
    objects::add(s, object)
}

/// A person or the robot with [`actor_defaults`], starting `at` a room
/// or a fixture.
pub fn add_actor(
    s: Indexed<'_>,
    kind: ActorKind,
    at: Id,
    id: Option<Id>,
) -> Result<Vec<Edit>, EditError> {
    let (room, near) = actors::start_at(s, at)?;
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
    actors::add(s, actor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::index::SceneIndex;

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
}
