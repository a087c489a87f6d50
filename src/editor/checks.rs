//! The lookups and tests a command refuses by: an id that names nothing
//! (with the nearest one that does), or the wrong kind of thing, or is
//! taken; geometry that is not finite or positive, or does not fit.

use crate::ids::{self, Id, nearest};
use crate::scene::index::{Fixture, Indexed, Kind, entries};
use crate::scene::model::{Rect, RoomDef, Scene};

use super::error::EditError;

/// The refusal for an id that names nothing, with a near one if any.
pub fn unknown(scene: &Scene, id: &Id, what: &'static str) -> EditError {
    EditError::Unknown {
        id: id.clone(),
        what,
        suggest: nearest(id, entries(scene).map(|(id, ..)| id), 1)
            .pop()
            .filter(|s| ids::edit_distance(s, id) <= 3),
    }
}

/// What `id` names, refused unless it is one of `kinds` (`what` says which).
pub fn expect_kind(
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

/// Refuses an id that is taken (`found` is what it names, if anything).
pub fn fresh(found: Option<Kind>, id: &Id) -> Result<(), EditError> {
    if found.is_some() {
        return Err(EditError::IdTaken { id: id.clone() });
    }
    Ok(())
}

pub fn room<'a>(scene: Indexed<'a>, id: &Id) -> Result<&'a RoomDef, EditError> {
    expect_kind(scene, id, &[Kind::Room], "room")?;
    Ok(scene.room(id).expect("a room"))
}

pub fn fixture_checked<'a>(scene: Indexed<'a>, id: &Id) -> Result<Fixture<'a>, EditError> {
    expect_kind(
        scene,
        id,
        &[Kind::Furniture, Kind::Device],
        "furniture or a device",
    )?;
    Ok(scene.fixture(id).expect("a fixture"))
}

/// Whether a footprint of `size` centred at `pos` lies inside `rect`.
pub fn fits(rect: &Rect, pos: (f32, f32), size: (f32, f32, f32)) -> bool {
    rect.contains((pos.0 - size.0 / 2.0, pos.1 - size.1 / 2.0))
        && rect.contains((pos.0 + size.0 / 2.0, pos.1 + size.1 / 2.0))
}

pub fn positive(id: &Id, what: &str, xs: &[f32]) -> Result<(), EditError> {
    if xs.iter().all(|x| x.is_finite() && *x > 0.0) {
        Ok(())
    } else {
        Err(EditError::BadGeometry {
            id: id.clone(),
            why: format!("{what} must be positive and finite"),
        })
    }
}

pub fn finite(id: &Id, what: &str, xs: &[f32]) -> Result<(), EditError> {
    if xs.iter().all(|x| x.is_finite()) {
        Ok(())
    } else {
        Err(EditError::BadGeometry {
            id: id.clone(),
            why: format!("{what} must be finite"),
        })
    }
}
