//! What refers to an entity: the dependants a removal must deal with,
//! and the references a rename rewrites.

use crate::ids::Id;
use crate::scene::model::{Placement, Scene};

/// The entities that refer to `id`, in scene order: doors joining a room,
/// fixtures and actors in it, actors near a fixture, objects on, in or
/// held by it, objects it owns.
pub fn referrers(scene: &Scene, id: &Id) -> Vec<Id> {
    let s = scene;
    let doors = s
        .doors
        .iter()
        .filter(|d| &d.rooms.0 == id || &d.rooms.1 == id)
        .map(|d| &d.id);
    let fixtures = s
        .furniture
        .iter()
        .filter(|f| &f.room == id)
        .map(|f| &f.id)
        .chain(s.devices.iter().filter(|d| &d.room == id).map(|d| &d.id));
    let objects = s
        .objects
        .iter()
        .filter(|o| placed_on(&o.at) == Some(id) || o.owner.as_ref() == Some(id))
        .map(|o| &o.id);
    let actors = s
        .actors
        .iter()
        .filter(|a| &a.room == id || a.near.as_ref() == Some(id))
        .map(|a| &a.id);
    doors
        .chain(fixtures)
        .chain(objects)
        .chain(actors)
        .cloned()
        .collect()
}

/// The receptacle or actor an object is on, in or held by (None outside).
pub fn placed_on(p: &Placement) -> Option<&Id> {
    match p {
        Placement::On(t) | Placement::In(t) | Placement::HeldBy(t) => Some(t),
        Placement::Outside => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn referrers_list_every_kind_of_reference() {
        let s = crate::scene::default_scene();
        let by = referrers(&s, &Id::new("alice"));
        assert!(by.iter().any(|i| i.as_str() == "mug_1"), "owner: {by:?}");
        let by = referrers(&s, &Id::new("charging_dock_1"));
        assert_eq!(by, vec![Id::new("robot")]);
        let by = referrers(&s, &Id::new("study"));
        assert!(by.iter().any(|i| i.as_str() == "door_study"), "{by:?}");
        assert!(by.iter().any(|i| i.as_str() == "desk_study"), "{by:?}");
        assert!(referrers(&s, &Id::new("mug_1")).is_empty());
    }
}
