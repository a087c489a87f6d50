//! Renaming: an id and every reference to it, applied directly (its
//! inverse is the rename back).

use crate::ids::Id;
use crate::scene::index::locate;
use crate::scene::model::{Placement, Scene};

use super::checks::unknown;
use super::command::Edit;
use super::error::EditError;
use super::referrers::referrers;

/// Renames `from` everywhere it is defined or referred to; the inverse
/// renames it back.
pub fn rename(scene: &mut Scene, from: Id, to: Id) -> Result<Edit, EditError> {
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
            Placement::Outside => {}
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
