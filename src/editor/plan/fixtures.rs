//! Furniture and devices: added inside their room, moved (into another
//! room if it fits there, taking the actors starting next to them),
//! resized within their room.

use crate::ids::Id;
use crate::scene::index::Indexed;
use crate::scene::model::{DeviceDef, FurnitureDef};

use super::fields::check_fields;
use crate::editor::checks::{finite, fits, fixture_checked, fresh, positive, room};
use crate::editor::command::{Edit, Entity, Prop};
use crate::editor::error::EditError;

pub fn add_furniture(s: Indexed<'_>, f: FurnitureDef) -> Result<Vec<Edit>, EditError> {
    check_new(s, &f.id, &f.room, f.pos, f.size)?;
    Ok(vec![Edit::push(Entity::Furniture(f), s.furniture.len())])
}

pub fn add_device(s: Indexed<'_>, d: DeviceDef) -> Result<Vec<Edit>, EditError> {
    check_new(s, &d.id, &d.room, d.pos, d.size)?;
    check_fields(&d.id, &d.fields)?;
    Ok(vec![Edit::push(Entity::Device(d), s.devices.len())])
}

/// A new fixture: a free id, a positive size, inside its room.
fn check_new(
    s: Indexed<'_>,
    id: &Id,
    room_id: &Id,
    pos: (f32, f32),
    size: (f32, f32, f32),
) -> Result<(), EditError> {
    fresh(s.kind_of(id), id)?;
    positive(id, "size", &[size.0, size.1, size.2])?;
    finite(id, "pos", &[pos.0, pos.1])?;
    if !fits(&room(s, room_id)?.rect, pos, size) {
        return Err(EditError::OutsideRoom {
            id: id.clone(),
            pos,
            room: Some(room_id.clone()),
        });
    }
    Ok(())
}

/// Its own room first, then the others in scene order.
pub fn move_to(s: Indexed<'_>, id: Id, to: (f32, f32)) -> Result<Vec<Edit>, EditError> {
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
    let mut steps = vec![Edit::set(&id, Prop::Pos(to))];
    if &dest.id != f.room {
        steps.push(Edit::set(&id, Prop::Room(dest.id.clone())));
        for a in s.actors.iter().filter(|a| a.near.as_ref() == Some(&id)) {
            steps.push(Edit::set(&a.id, Prop::Room(dest.id.clone())));
        }
    }
    Ok(steps)
}

pub fn resize(s: Indexed<'_>, id: Id, size: (f32, f32, f32)) -> Result<Vec<Edit>, EditError> {
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
    Ok(vec![Edit::set(&id, Prop::Size(size))])
}
