//! Which family plans a command.

use crate::catalogue::Catalogue;
use crate::scene::index::Indexed;

use crate::editor::command::Edit;
use crate::editor::error::EditError;

use super::{actors, doors, fields, fixtures, objects, palette, remove, rooms};

/// Turns a checked command into raw steps, refusing what it must.
pub fn plan(s: Indexed<'_>, cat: &Catalogue, edit: Edit) -> Result<Vec<Edit>, EditError> {
    match edit {
        Edit::AddRoom(r) => rooms::add(s, r),
        Edit::MoveRoom { id, to } => rooms::move_to(s, id, to),
        Edit::MoveRooms { ids, by } => rooms::move_by(s, &ids, by),
        Edit::ResizeRoom { id, rect } => rooms::resize(s, id, rect),
        Edit::AddDoor {
            id,
            rooms,
            at,
            openable,
            open,
        } => doors::add(s, id, rooms, at, openable, open),
        Edit::MoveDoor { id, to } => doors::move_to(s, id, to),
        Edit::AddFurniture(f) => fixtures::add_furniture(s, f),
        Edit::AddDevice(d) => fixtures::add_device(s, d),
        Edit::MoveFixture { id, to } => fixtures::move_to(s, id, to),
        Edit::ResizeFixture { id, size } => fixtures::resize(s, id, size),
        Edit::AddObject(o) => objects::add(s, o),
        Edit::PlaceObject { id, on, inside } => objects::place(s, id, &on, inside),
        Edit::AddActor(a) => actors::add(s, a),
        Edit::StartActor { id, at } => actors::start(s, id, at),
        Edit::SetField {
            device,
            name,
            field,
        } => fields::set(s, device, name, field),
        Edit::Remove { id, policy } => remove::remove(s, id, policy),
        Edit::AddRoomFromCatalogue { kind, at, id } => palette::add_room(s, cat, kind, at, id),
        Edit::AddFixtureFromCatalogue {
            kind,
            room,
            pos,
            id,
        } => palette::add_fixture(s, cat, kind, room, pos, id),
        Edit::AddObjectFromCatalogue {
            category,
            on,
            inside,
            id,
        } => palette::add_object(s, cat, category, on, inside, id),
        Edit::AddActorOfKind { kind, at, id } => palette::add_actor(s, kind, at, id),
        raw => unreachable!("{} is applied directly", raw.name()),
    }
}
