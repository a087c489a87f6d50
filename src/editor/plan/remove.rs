//! Removing anything, with what refers to it handled by the policy:
//! refused, removed along (a room's doors, fixtures, their objects and
//! actors; a receptacle's objects; what an actor holds), or moved.

use crate::ids::Id;
use crate::scene::index::{Indexed, Kind, fixtures};

use crate::editor::checks::unknown;
use crate::editor::command::{Edit, OnRemove, Prop};
use crate::editor::error::EditError;
use crate::editor::referrers::{placed_on, referrers};

pub fn remove(s: Indexed<'_>, id: Id, policy: OnRemove) -> Result<Vec<Edit>, EditError> {
    let kind = s.kind_of(&id).ok_or_else(|| unknown(&s, &id, "entity"))?;
    let by = referrers(&s, &id);
    if policy == OnRemove::Refuse && !by.is_empty() {
        return Err(EditError::Referenced { id, by });
    }
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
                steps.push(Edit::take(&d.id));
            }
            let in_room: Vec<&Id> = fixtures(&s)
                .filter(|f| f.room == &id)
                .map(|f| f.id)
                .collect();
            // What stands on them; those near them are gone with the room already.
            for o in s
                .objects
                .iter()
                .filter(|o| placed_on(&o.at).is_some_and(|p| in_room.contains(&p)))
            {
                steps.push(Edit::take(&o.id));
            }
            steps.extend(in_room.into_iter().map(Edit::take));
        }
        Kind::Furniture | Kind::Device | Kind::Actor => {
            for a in s.actors.iter().filter(|a| a.near.as_ref() == Some(&id)) {
                steps.push(Edit::set(&a.id, Prop::Near(None)));
            }
            for o in s.objects.iter() {
                if o.owner.as_ref() == Some(&id) {
                    steps.push(Edit::set(&o.id, Prop::Owner(None)));
                }
                if placed_on(&o.at) == Some(&id) {
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
                        _ => Edit::take(&o.id),
                    });
                }
            }
        }
        Kind::Door | Kind::Object => {}
    }
    // Removing steps shift indices, so the entity itself goes last and the
    // inverse re-inserts everything in reverse order at its old index.
    steps.push(Edit::take(&id));
    Ok(steps)
}
