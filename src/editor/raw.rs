//! The raw steps: `Set`, `Insert` and `Take` change exactly one thing
//! and check only that it exists, finding it with `scene::locate` (the
//! scene changes between the steps of one command, so an index would be
//! stale). Each returns what undoes it.

use crate::ids::Id;
use crate::scene::index::{Kind, locate};
use crate::scene::model::{Openable, Scene, Surface};
use crate::scene::role::Role;

use super::checks::{fresh, unknown};
use super::command::{Edit, Entity, Prop};
use super::error::EditError;

/// Inserts `entity` at `index` of its list; the inverse takes it.
pub fn insert(s: &mut Scene, entity: Entity, index: usize) -> Result<Edit, EditError> {
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

/// Removes `id`; the inverse inserts it back where it was.
pub fn take(s: &mut Scene, id: &Id) -> Result<Edit, EditError> {
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
pub fn set(s: &mut Scene, id: &Id, prop: Prop) -> Result<Prop, EditError> {
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
