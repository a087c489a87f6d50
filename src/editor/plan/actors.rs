//! Actors: added starting in a room, or next to a fixture in its room,
//! and started somewhere else.

use crate::ids::Id;
use crate::scene::index::{Indexed, Kind};
use crate::scene::model::ActorDef;

use crate::editor::checks::{expect_kind, fixture_checked, fresh, room};
use crate::editor::command::{Edit, Entity, Prop};
use crate::editor::error::EditError;

pub fn add(s: Indexed<'_>, a: ActorDef) -> Result<Vec<Edit>, EditError> {
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
    Ok(vec![Edit::push(Entity::Actor(a), s.actors.len())])
}

pub fn start(s: Indexed<'_>, id: Id, at: Id) -> Result<Vec<Edit>, EditError> {
    expect_kind(s, &id, &[Kind::Actor], "an actor")?;
    let (room, near) = start_at(s, at)?;
    Ok(vec![
        Edit::set(&id, Prop::Room(room)),
        Edit::set(&id, Prop::Near(near)),
    ])
}

/// Where an actor starting `at` a room or a fixture stands: its room,
/// and the fixture it is next to.
pub fn start_at(s: Indexed<'_>, at: Id) -> Result<(Id, Option<Id>), EditError> {
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
