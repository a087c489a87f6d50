//! Rooms: added, moved (alone or several by one offset) with their doors
//! and fixtures, resized with their doors following the walls.

use crate::ids::Id;
use crate::scene::index::{Indexed, fixtures};
use crate::scene::model::{Rect, RoomDef};
use crate::scene::walls;

use crate::editor::checks::{finite, fits, fresh, positive, room};
use crate::editor::command::{Edit, Entity, Prop};
use crate::editor::error::EditError;

pub fn add(s: Indexed<'_>, r: RoomDef) -> Result<Vec<Edit>, EditError> {
    fresh(s.kind_of(&r.id), &r.id)?;
    positive(
        &r.id,
        "width, depth and height",
        &[r.rect.w, r.rect.h, r.height],
    )?;
    finite(&r.id, "the corner", &[r.rect.x, r.rect.y])?;
    Ok(vec![Edit::push(Entity::Room(r), s.rooms.len())])
}

pub fn move_to(s: Indexed<'_>, id: Id, to: (f32, f32)) -> Result<Vec<Edit>, EditError> {
    let r = room(s, &id)?;
    finite(&id, "the corner", &[to.0, to.1])?;
    let by = (to.0 - r.rect.x, to.1 - r.rect.y);
    let rect = Rect {
        x: to.0,
        y: to.1,
        ..r.rect
    };
    let mut steps = move_by(s, std::slice::from_ref(&id), by)?;
    // Exactly `to`: x + (to - x) can differ from `to` in the last bit.
    steps[0] = Edit::set(&id, Prop::Rect(rect));
    Ok(steps)
}

/// Each door moves once, even between two of the rooms.
pub fn move_by(s: Indexed<'_>, ids: &[Id], by: (f32, f32)) -> Result<Vec<Edit>, EditError> {
    for id in ids {
        room(s, id)?;
        finite(id, "the offset", &[by.0, by.1])?;
    }
    let shift = |p: (f32, f32)| (p.0 + by.0, p.1 + by.1);
    let moved = |id: &Id| ids.contains(id);
    let mut steps = Vec::new();
    for r in s.rooms.iter().filter(|r| moved(&r.id)) {
        let (x, y) = shift((r.rect.x, r.rect.y));
        steps.push(Edit::set(&r.id, Prop::Rect(Rect { x, y, ..r.rect })));
    }
    for d in s
        .doors
        .iter()
        .filter(|d| moved(&d.rooms.0) || moved(&d.rooms.1))
    {
        steps.push(Edit::set(&d.id, Prop::Pos(shift(d.at))));
    }
    for f in fixtures(&s).filter(|f| moved(f.room)) {
        steps.push(Edit::set(f.id, Prop::Pos(shift(f.pos))));
    }
    Ok(steps)
}

/// Refused if a fixture would end up outside.
pub fn resize(s: Indexed<'_>, id: Id, rect: Rect) -> Result<Vec<Edit>, EditError> {
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
    let mut steps = vec![Edit::set(&id, Prop::Rect(rect))];
    for d in s
        .doors
        .iter()
        .filter(|d| d.rooms.0 == id || d.rooms.1 == id)
    {
        steps.push(Edit::set(
            &d.id,
            Prop::Pos(walls::follow_wall(&old, &rect, d.at)),
        ));
    }
    Ok(steps)
}
