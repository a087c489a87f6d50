//! `WorldView`, the read-only view of the world that validation and
//! perception share.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use crate::ids::Id;
use crate::sim::nav::RoomGraph;
use crate::sim::world::{
    Actor, At, Bag, Busy, Clock, Device, Door, Fixture, Hands, Item, Key, Note, Openable, Placed,
    Receptacle, Registry, Room, Servings,
};

/// Read access to the whole world, for validation and perception.
#[derive(SystemParam)]
pub struct WorldView<'w, 's> {
    pub registry: Res<'w, Registry>,
    pub graph: Res<'w, RoomGraph>,
    pub clock: Res<'w, Clock>,
    pub keys: Query<'w, 's, &'static Key>,
    pub rooms: Query<'w, 's, &'static Room>,
    pub doors: Query<'w, 's, &'static Door>,
    pub fixtures: Query<'w, 's, &'static Fixture>,
    pub receptacles: Query<'w, 's, &'static Receptacle>,
    pub openables: Query<'w, 's, &'static Openable>,
    pub devices: Query<'w, 's, &'static Device>,
    pub items: Query<'w, 's, (&'static Item, &'static Placed)>,
    pub actors: Query<'w, 's, (&'static Actor, &'static At, &'static Hands, &'static Busy)>,
    pub bags: Query<'w, 's, &'static Bag>,
    pub servings: Query<'w, 's, &'static Servings>,
    pub notes: Query<'w, 's, &'static Note>,
}

impl WorldView<'_, '_> {
    pub fn id(&self, e: Entity) -> &Id {
        &self.keys.get(e).expect("every spawned entity has a Key").0
    }

    pub fn is_actor(&self, e: Entity) -> bool {
        self.actors.contains(e)
    }

    /// Whether `e` is out of the house: an actor who left, an object
    /// outside or carried by someone who is.
    pub fn is_out(&self, e: Entity) -> bool {
        if let Ok((_, at, _, _)) = self.actors.get(e) {
            return self.registry.is_outside(at.room);
        }
        match self.items.get(e).map(|(_, p)| *p) {
            Ok(Placed::Outside) => true,
            Ok(Placed::HeldBy(a) | Placed::CarriedBy(a)) => self.is_out(a),
            _ => false,
        }
    }

    /// Where an entity can be walked to: the position an actor takes there
    /// and its point on the floor plan. None for what is out of the house.
    pub fn anchor(&self, e: Entity) -> Option<(At, (f32, f32))> {
        if let Ok(room) = self.rooms.get(e) {
            return Some((
                At {
                    room: e,
                    near: None,
                },
                room.rect.center(),
            ));
        }
        if let Ok(f) = self.fixtures.get(e) {
            return Some((
                At {
                    room: f.room,
                    near: Some(e),
                },
                f.pos,
            ));
        }
        if let Ok((_, placed)) = self.items.get(e) {
            return match *placed {
                Placed::On(r) | Placed::In(r) | Placed::HeldBy(r) | Placed::CarriedBy(r) => {
                    self.anchor(r)
                }
                Placed::Outside => None,
            };
        }
        if let Ok((_, at, _, _)) = self.actors.get(e) {
            if self.registry.is_outside(at.room) {
                return None;
            }
            return Some((*at, self.point(*at)));
        }
        None
    }

    /// The floor-plan point of a position: the fixture's, else the room centre.
    pub fn point(&self, at: At) -> (f32, f32) {
        match at.near.and_then(|n| self.fixtures.get(n).ok()) {
            Some(f) => f.pos,
            None => self
                .rooms
                .get(at.room)
                .map(|r| r.rect.center())
                .unwrap_or_default(),
        }
    }

    /// The room an entity is in (an object: where its holder or container is).
    pub fn room_of(&self, e: Entity) -> Option<Entity> {
        self.anchor(e).map(|(at, _)| at.room)
    }

    pub fn is_open(&self, e: Entity) -> bool {
        self.openables.get(e).map_or(true, |o| o.open)
    }

    /// The closed container an object is shut inside, if any.
    pub fn closed_container(&self, object: Entity) -> Option<Entity> {
        match self.items.get(object).ok()?.1 {
            Placed::In(r) if !self.is_open(*r) => Some(*r),
            _ => None,
        }
    }

    /// Rooms whose occupants hear someone speaking in `room`: the room and
    /// its neighbours through open doors and archways.
    pub fn earshot(&self, room: Entity) -> Vec<Entity> {
        if self.registry.is_outside(room) {
            return vec![];
        }
        let mut rooms = vec![room];
        for (other, door) in self.graph.neighbours(room) {
            if self.is_open(door) && !rooms.contains(&other) {
                rooms.push(other);
            }
        }
        rooms
    }

    /// Actors in any of `rooms`, in scene order (never those outside: the
    /// outside is nobody's company).
    pub fn actors_in(&self, rooms: &[Entity]) -> Vec<Entity> {
        let outside = self.registry.outside;
        self.registry
            .actors
            .iter()
            .copied()
            .filter(|a| {
                self.actors
                    .get(*a)
                    .is_ok_and(|(_, at, _, _)| at.room != outside && rooms.contains(&at.room))
            })
            .collect()
    }

    /// Whether `attr` names an attribute of entity `e` that claims and
    /// beliefs can be about.
    pub fn has_attr(&self, e: Entity, attr: &str) -> bool {
        match attr {
            "location" => self.items.contains(e),
            "position" => self.is_actor(e),
            "open" => self.openables.contains(e),
            field => self
                .devices
                .get(e)
                .is_ok_and(|d| d.fields.contains_key(field)),
        }
    }
}
