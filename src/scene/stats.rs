//! Counts that describe a scene at a glance (`hearth scene stats`).

use std::collections::BTreeMap;

use serde::Serialize;

use super::model::{ActorKind, Openable, Scene};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SceneStats {
    pub id: String,
    pub rooms: usize,
    pub doors: usize,
    /// Doors that start closed.
    pub closed_doors: usize,
    pub furniture: usize,
    pub devices: usize,
    /// Furniture and devices that open (fridges, drawers, ovens).
    pub openable: usize,
    pub objects: usize,
    pub categories: usize,
    /// Categories with two or more objects: look-alikes told apart only by
    /// their descriptions.
    pub look_alike_groups: usize,
    pub people: usize,
    pub robots: usize,
    /// Floor area of all rooms, square metres.
    pub area: f32,
}

pub fn stats(s: &Scene) -> SceneStats {
    let mut categories: BTreeMap<&str, usize> = BTreeMap::new();
    for o in &s.objects {
        *categories.entry(&o.category).or_default() += 1;
    }
    let people = s
        .actors
        .iter()
        .filter(|a| a.kind == ActorKind::Human)
        .count();
    SceneStats {
        id: s.id.to_string(),
        rooms: s.rooms.len(),
        doors: s.doors.len(),
        closed_doors: s.doors.iter().filter(|d| !d.open).count(),
        furniture: s.furniture.len(),
        devices: s.devices.len(),
        openable: s
            .furniture
            .iter()
            .map(|f| f.openable)
            .chain(s.devices.iter().map(|d| d.openable))
            .filter(|o| *o != Openable::No)
            .count(),
        objects: s.objects.len(),
        categories: categories.len(),
        look_alike_groups: categories.values().filter(|n| **n > 1).count(),
        people,
        robots: s.actors.len() - people,
        area: s.rooms.iter().map(|r| r.rect.w * r.rect.h).sum(),
    }
}

impl SceneStats {
    /// The counts in one line, as `hearth scene list` and `check` print them.
    pub fn summary(&self) -> String {
        format!(
            "{} rooms, {} doors, {} furniture, {} devices, {} objects in {} categories, {} openable, {} humans, {} robots",
            self.rooms,
            self.doors,
            self.furniture,
            self.devices,
            self.objects,
            self.categories,
            self.openable,
            self.people,
            self.robots
        )
    }
}
