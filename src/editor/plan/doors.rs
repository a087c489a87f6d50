//! Doors: added between two rooms and moved along their wall, snapped onto
//! the nearest point of the wall the rooms share (the validator's wall).

use crate::ids::Id;
use crate::scene::index::{Indexed, Kind};
use crate::scene::model::{DoorDef, OUTSIDE};
use crate::scene::walls;

use crate::editor::checks::{expect_kind, fresh, room};
use crate::editor::command::{Edit, Entity, Prop};
use crate::editor::error::EditError;

pub fn add(
    s: Indexed<'_>,
    id: Id,
    rooms: (Id, Id),
    at: (f32, f32),
    openable: bool,
    open: bool,
) -> Result<Vec<Edit>, EditError> {
    fresh(s.kind_of(&id), &id)?;
    let at = on_shared_wall(s, &rooms, at)?;
    let door = DoorDef {
        id,
        rooms,
        at,
        openable,
        open,
    };
    Ok(vec![Edit::push(Entity::Door(door), s.doors.len())])
}

pub fn move_to(s: Indexed<'_>, id: Id, to: (f32, f32)) -> Result<Vec<Edit>, EditError> {
    expect_kind(s, &id, &[Kind::Door], "a door")?;
    let d = s.door(&id).expect("a door");
    let at = on_shared_wall(s, &d.rooms, to)?;
    Ok(vec![Edit::set(&id, Prop::Pos(at))])
}

/// The point of the wall `rooms` share nearest `at`; for an exterior door
/// (`outside` on one side), of its room's outer walls.
fn on_shared_wall(
    s: Indexed<'_>,
    rooms: &(Id, Id),
    at: (f32, f32),
) -> Result<(f32, f32), EditError> {
    let probe = DoorDef {
        id: Id::new("probe"),
        rooms: rooms.clone(),
        at,
        openable: true,
        open: true,
    };
    if let Some(inside) = probe.inside_room() {
        let r = room(s, inside)?;
        let rects: Vec<_> = s.rooms.iter().map(|x| x.rect).collect();
        return walls::snap_outer(&r.rect, &rects, at).ok_or_else(|| EditError::NoSharedWall {
            a: r.id.clone(),
            b: Id::new(OUTSIDE),
        });
    }
    let (a, b) = (room(s, &rooms.0)?, room(s, &rooms.1)?);
    walls::snap_door(&a.rect, &b.rect, at)
        .filter(|_| a.id != b.id)
        .ok_or_else(|| EditError::NoSharedWall {
            a: a.id.clone(),
            b: b.id.clone(),
        })
}
