//! Lookups by id. [`SceneIndex`] maps every id of a scene to what it names and
//! where, built once (O(n)); [`Indexed`] pairs a scene with its index and
//! answers `room`, `fixture`, `object`, `actor` and `kind_of` in O(1).
//!
//! An index describes the scene it was built from: a scene that changes
//! needs a new one (the editor's `Document` rebuilds its index after every
//! change; read-only holders such as the simulation build one at spawn).
//! Lookups check the id they land on, so an index paired with another
//! scene answers `None`, never a wrong entity.

use std::ops::Deref;

// Bevy's map hashes with a fixed seed (foldhash): deterministic, and a
// lookup costs a fraction of std's SipHash, which matters next to the
// short scans it replaces.
use bevy::platform::collections::{HashMap, hash_map::Entry};

use crate::ids::Id;

use super::model::*;
use super::role::Role;

/// What an id names, for rules about references (and the editor's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Room,
    Door,
    Furniture,
    Device,
    Object,
    Actor,
}

impl Kind {
    pub fn noun(self) -> &'static str {
        match self {
            Kind::Room => "a room",
            Kind::Door => "a door",
            Kind::Furniture => "furniture",
            Kind::Device => "a device",
            Kind::Object => "an object",
            Kind::Actor => "an actor",
        }
    }
}

/// Every definition in a scene, in scene order: rooms, doors, furniture,
/// devices, objects, actors, each with its kind and position in its list.
pub fn entries(s: &Scene) -> impl Iterator<Item = (&Id, Kind, usize)> {
    fn of<T>(v: &[T], kind: Kind, id: fn(&T) -> &Id) -> impl Iterator<Item = (&Id, Kind, usize)> {
        v.iter().enumerate().map(move |(i, e)| (id(e), kind, i))
    }
    of(&s.rooms, Kind::Room, |e| &e.id)
        .chain(of(&s.doors, Kind::Door, |e| &e.id))
        .chain(of(&s.furniture, Kind::Furniture, |e| &e.id))
        .chain(of(&s.devices, Kind::Device, |e| &e.id))
        .chain(of(&s.objects, Kind::Object, |e| &e.id))
        .chain(of(&s.actors, Kind::Actor, |e| &e.id))
}

/// What `id` names in `scene` and where, by one scan: for a scene being
/// changed in place (the editor's raw edits), where an index would be
/// stale after every step. Finds the same definition an [`SceneIndex`] does.
pub fn locate(scene: &Scene, id: &str) -> Option<(Kind, usize)> {
    entries(scene)
        .find(|(e, ..)| e.as_str() == id)
        .map(|(_, kind, i)| (kind, i))
}

/// A scene's ids, each to its kind and position in that kind's list.
///
/// With duplicate ids, the first definition in scene order (the one a
/// scan finds) is the one looked up; every later one is kept in
/// [`SceneIndex::duplicates`], which `validate` reports as `duplicate_id`, so
/// the index never hides them.
#[derive(Debug, Clone, Default)]
pub struct SceneIndex {
    // Only point lookups: iteration order never reaches output.
    slots: HashMap<Id, (Kind, usize)>,
    duplicates: Vec<(Kind, usize)>,
}

impl SceneIndex {
    pub fn new(scene: &Scene) -> Self {
        let mut index = SceneIndex::default();
        for (id, kind, i) in entries(scene) {
            match index.slots.entry(id.clone()) {
                Entry::Occupied(_) => index.duplicates.push((kind, i)),
                Entry::Vacant(v) => {
                    v.insert((kind, i));
                }
            }
        }
        index
    }

    /// What `id` names and its position in that kind's list.
    pub fn get(&self, id: &str) -> Option<(Kind, usize)> {
        self.slots.get(id).copied()
    }

    /// Definitions whose id an earlier one already took, in scene order.
    pub fn duplicates(&self) -> &[(Kind, usize)] {
        &self.duplicates
    }

    /// This index over `scene`, the scene it was built from.
    pub fn over<'a>(&'a self, scene: &'a Scene) -> Indexed<'a> {
        Indexed { scene, index: self }
    }
}

/// A scene with its [`SceneIndex`]: the scene's fields through `Deref`, and
/// lookups by id.
#[derive(Debug, Clone, Copy)]
pub struct Indexed<'a> {
    scene: &'a Scene,
    index: &'a SceneIndex,
}

impl Deref for Indexed<'_> {
    type Target = Scene;
    fn deref(&self) -> &Scene {
        self.scene
    }
}

impl<'a> Indexed<'a> {
    pub fn scene(self) -> &'a Scene {
        self.scene
    }

    pub fn index(self) -> &'a SceneIndex {
        self.index
    }

    /// What `id` names, if anything.
    pub fn kind_of(self, id: &str) -> Option<Kind> {
        self.index.get(id).map(|(k, _)| k)
    }

    fn at<T>(self, list: &'a [T], kind: Kind, id: &str, id_of: fn(&T) -> &Id) -> Option<&'a T> {
        match self.index.get(id)? {
            (k, i) if k == kind => list.get(i).filter(|e| id_of(e).as_str() == id),
            _ => None,
        }
    }

    pub fn room(self, id: &str) -> Option<&'a RoomDef> {
        self.at(&self.scene.rooms, Kind::Room, id, |e| &e.id)
    }

    pub fn door(self, id: &str) -> Option<&'a DoorDef> {
        self.at(&self.scene.doors, Kind::Door, id, |e| &e.id)
    }

    pub fn furniture(self, id: &str) -> Option<&'a FurnitureDef> {
        self.at(&self.scene.furniture, Kind::Furniture, id, |e| &e.id)
    }

    pub fn device(self, id: &str) -> Option<&'a DeviceDef> {
        self.at(&self.scene.devices, Kind::Device, id, |e| &e.id)
    }

    /// The furniture or device `id`, as one view.
    pub fn fixture(self, id: &str) -> Option<Fixture<'a>> {
        match self.kind_of(id)? {
            Kind::Furniture => self.furniture(id).map(Fixture::from),
            Kind::Device => self.device(id).map(Fixture::from),
            _ => None,
        }
    }

    pub fn object(self, id: &str) -> Option<&'a ObjectDef> {
        self.at(&self.scene.objects, Kind::Object, id, |e| &e.id)
    }

    pub fn actor(self, id: &str) -> Option<&'a ActorDef> {
        self.at(&self.scene.actors, Kind::Actor, id, |e| &e.id)
    }
}

/// One view of furniture and devices alike: what the editor's commands,
/// the inspector, generation and the viewer read of a fixture. `remote`
/// is `Some` for a device.
#[derive(Debug, Clone, Copy)]
pub struct Fixture<'a> {
    pub id: &'a Id,
    pub kind: &'a str,
    pub room: &'a Id,
    pub pos: (f32, f32),
    pub size: (f32, f32, f32),
    pub surfaces: &'a [Surface],
    pub openable: Openable,
    pub description: &'a str,
    pub roles: &'a [Role],
    pub remote: Option<bool>,
}

impl Fixture<'_> {
    /// How many objects fit on (`inside` false) or in it; `None` when it
    /// has no such surface.
    pub fn capacity(&self, inside: bool) -> Option<u32> {
        self.surfaces.iter().find_map(|sf| match (*sf, inside) {
            (Surface::On(c), false) | (Surface::In(c), true) => Some(c),
            _ => None,
        })
    }
}

impl<'a> From<&'a FurnitureDef> for Fixture<'a> {
    fn from(f: &'a FurnitureDef) -> Self {
        Fixture {
            id: &f.id,
            kind: &f.kind,
            room: &f.room,
            pos: f.pos,
            size: f.size,
            surfaces: &f.surfaces,
            openable: f.openable,
            description: &f.description,
            roles: &f.roles,
            remote: None,
        }
    }
}

impl<'a> From<&'a DeviceDef> for Fixture<'a> {
    fn from(d: &'a DeviceDef) -> Self {
        Fixture {
            id: &d.id,
            kind: &d.kind,
            room: &d.room,
            pos: d.pos,
            size: d.size,
            surfaces: &d.surfaces,
            openable: d.openable,
            description: &d.description,
            roles: &d.roles,
            remote: Some(d.remote),
        }
    }
}

/// Every fixture: furniture, then devices.
pub fn fixtures(s: &Scene) -> impl Iterator<Item = Fixture<'_>> {
    let furniture = s.furniture.iter().map(Fixture::from);
    furniture.chain(s.devices.iter().map(Fixture::from))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{BUILTIN, parse};

    #[test]
    fn every_id_finds_the_entity_a_scan_finds() {
        for (name, src) in BUILTIN {
            let s = parse(name, src).unwrap();
            let index = SceneIndex::new(&s);
            let ix = index.over(&s);
            assert!(index.duplicates().is_empty());
            for (id, kind, i) in entries(&s) {
                assert_eq!(ix.kind_of(id), Some(kind), "{id}");
                assert_eq!(index.get(id), Some((kind, i)));
                assert_eq!(locate(&s, id), Some((kind, i)));
            }
            for r in &s.rooms {
                assert_eq!(ix.room(&r.id), Some(r));
                assert!(ix.fixture(&r.id).is_none() && ix.actor(&r.id).is_none());
            }
            for f in fixtures(&s) {
                let found = ix.fixture(f.id).unwrap();
                assert_eq!((found.kind, found.room, found.pos), (f.kind, f.room, f.pos));
            }
            for o in &s.objects {
                assert_eq!(ix.object(&o.id), Some(o));
            }
            for a in &s.actors {
                assert_eq!(ix.actor(&a.id), Some(a));
                assert!(ix.object(&a.id).is_none());
            }
            assert_eq!(ix.kind_of("no_such_thing"), None);
            assert!(ix.room("no_such_thing").is_none());
        }
    }

    #[test]
    fn duplicates_keep_the_first_and_are_listed() {
        let mut s = crate::scene::default_scene();
        let mut twin = s.objects[0].clone();
        twin.id = s.rooms[1].id.clone();
        s.objects.push(twin);
        let index = SceneIndex::new(&s);
        let ix = index.over(&s);
        assert_eq!(ix.room(&s.rooms[1].id), Some(&s.rooms[1]));
        assert!(ix.object(&s.rooms[1].id).is_none());
        assert_eq!(index.duplicates(), &[(Kind::Object, s.objects.len() - 1)]);
    }

    #[test]
    fn an_index_over_another_scene_finds_nothing_wrong() {
        let s = crate::scene::default_scene();
        let index = SceneIndex::new(&s);
        let mut other = s.clone();
        other.rooms.remove(0);
        let ix = index.over(&other);
        // Positions shifted: every room lookup either finds the right room or none.
        for r in &s.rooms {
            assert!(ix.room(&r.id).is_none_or(|found| found.id == r.id));
        }
        assert!(ix.room(&s.rooms[0].id).is_none());
    }
}
