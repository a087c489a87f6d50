//! Where things belong: a scene room's catalogue room type, and for every
//! object the receptacles its category is found on or in, in the rooms it
//! belongs in (a book on a bookshelf in the living room, not in the
//! bathroom cabinet). Shared by generation (where to put things away) and
//! the lint (what was left out of place).

use std::collections::BTreeMap;

use super::model::Catalogue;
use crate::ids::Id;
use crate::scene::{Indexed, Role, Scene, SceneIndex, Surface, fixtures};

/// The catalogue room type of `room`: its id without a `_N` suffix, its
/// name, the end of its id (`master_bedroom`), else `bedroom` for a room a
/// human sleeps in. `None` when nothing matches (a "kid_room_1" nobody
/// sleeps in).
pub fn room_kind<'c>(cat: &'c Catalogue, scene: Indexed<'_>, room: &Id) -> Option<&'c str> {
    let r = scene.room(room)?;
    let id = r.id.as_str();
    let bare = id
        .rsplit_once('_')
        .filter(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .map_or(id, |(k, _)| k);
    let kind = cat
        .room(bare)
        .or_else(|| {
            cat.rooms
                .iter()
                .find(|t| t.name.eq_ignore_ascii_case(&r.name))
        })
        .or_else(|| {
            cat.rooms
                .iter()
                .filter(|t| bare.ends_with(&format!("_{}", t.kind)))
                .max_by_key(|t| t.kind.len())
        })
        .or_else(|| {
            let sleeps = scene
                .actors
                .iter()
                .any(|a| a.kind == crate::scene::ActorKind::Human && &a.room == room);
            sleeps.then(|| cat.room("bedroom")).flatten()
        })?;
    Some(kind.kind.as_str())
}

/// Every object's places: where its category belongs in this scene, most
/// typical first, and always the place it starts in (a household's own
/// arrangement is never "out of place").
#[derive(Debug, Clone, Default)]
pub struct Belongs {
    homes: BTreeMap<Id, Vec<Id>>,
    /// Machines with an inside and laundry baskets: what is in them is
    /// being washed or cooked, not put away.
    working: Vec<Id>,
}

impl Belongs {
    pub fn new(scene: &Scene, cat: &Catalogue) -> Self {
        let index = SceneIndex::new(scene);
        let ix = index.over(scene);
        // Receptacles with their canonical kind and room type, scene order.
        let receptacles: Vec<(&Id, &str, Option<&str>)> = fixtures(scene)
            .filter(|f| !f.surfaces.is_empty())
            .map(|f| {
                // `remote` is `Some` for a device: its kind is a device kind.
                let canonical = match f.remote {
                    None => cat.furniture_kind(f.kind).map(|k| k.kind.as_str()),
                    Some(_) => cat.device_kind(f.kind).map(|k| k.kind.as_str()),
                };
                (
                    f.id,
                    canonical.unwrap_or(f.kind),
                    room_kind(cat, ix, f.room),
                )
            })
            .collect();
        let mut homes = BTreeMap::new();
        for o in &scene.objects {
            let Some(c) = cat.category(&o.category) else {
                continue;
            };
            let mut places: Vec<Id> = vec![];
            if let crate::scene::Placement::On(at) | crate::scene::Placement::In(at) = &o.at {
                places.push(at.clone());
            }
            for spot in &c.found {
                for (id, kind, room) in &receptacles {
                    let room_ok =
                        c.rooms.is_empty() || room.is_none_or(|k| c.rooms.iter().any(|r| r == k));
                    if *kind == spot.kind() && room_ok && !places.contains(id) {
                        places.push((*id).clone());
                    }
                }
            }
            homes.insert(o.id.clone(), places);
        }
        let roles = super::roles::Roles::new(scene, cat);
        let working = scene
            .devices
            .iter()
            .filter(|d| d.surfaces.iter().any(|s| matches!(s, Surface::In(_))))
            .map(|d| d.id.clone())
            .chain(roles.fixtures(Role::LaundryBasket).iter().cloned())
            .chain(roles.fixtures(Role::Waste).iter().cloned())
            .collect();
        Belongs { homes, working }
    }

    /// Whether `object` belongs on or in `receptacle` (an object of a
    /// category the catalogue does not know belongs anywhere; anything
    /// may be in a machine or a laundry basket).
    pub fn fits(&self, object: &Id, receptacle: &Id) -> bool {
        self.working.contains(receptacle)
            || self
                .homes
                .get(object)
                .is_none_or(|h| h.iter().any(|p| p == receptacle))
    }

    /// Where `object` belongs, its starting place first, then the most
    /// typical receptacles; `None` for an unknown category.
    pub fn homes(&self, object: &Id) -> Option<&[Id]> {
        self.homes.get(object).map(Vec::as_slice)
    }
}

/// The bedrooms of others a walk by `actor` from `from` through `via`
/// (rooms entered, the destination last) crosses on the way elsewhere: a
/// room some human sleeps in and `actor` does not, neither the start nor
/// the end. A room reached only through bedrooms (an en-suite) makes
/// them part of the way in or out, not a corridor.
pub fn crossed_bedrooms(scene: Indexed<'_>, actor: &Id, from: &Id, via: &[Id]) -> Vec<Id> {
    let Some((to, between)) = via.split_last() else {
        return vec![];
    };
    let bedroom = |r: &Id| is_bedroom(scene, r);
    let only_through = |room: &Id, r: &Id| {
        neighbours(&scene, room).any(|n| n == r) && only_off_bedrooms(scene, room)
    };
    let sleeps = |who: &Id, r: &Id| {
        scene
            .actor(who)
            .is_some_and(|a| a.kind == crate::scene::ActorKind::Human && &a.room == r)
    };
    let mut out: Vec<Id> = vec![];
    for r in between {
        if r != from
            && r != to
            && bedroom(r)
            && !sleeps(actor, r)
            && !only_through(to, r)
            && !only_through(from, r)
            && !out.contains(r)
        {
            out.push(r.clone());
        }
    }
    out
}

/// The one room all of `room`'s doors lead to (an en-suite's bedroom),
/// if there is one.
pub fn reached_only_from(scene: &Scene, room: &Id) -> Option<Id> {
    let mut others = neighbours(scene, room);
    let first = others.next()?;
    others.all(|o| o == first).then(|| first.clone())
}

/// Whether some human sleeps in `room` and it is not a room others walk
/// through anyway (a studio's main room, a hall or public room in the
/// catalogue, is where everyone lives).
pub fn is_bedroom(scene: Indexed<'_>, room: &Id) -> bool {
    let cat = super::parse::builtin();
    scene
        .actors
        .iter()
        .any(|a| a.kind == crate::scene::ActorKind::Human && &a.room == room)
        && !room_kind(cat, scene, room)
            .and_then(|k| cat.room(k))
            .is_some_and(|t| t.zone.is_core())
}

/// Whether every door of `room` opens into a bedroom (an en-suite, a
/// playroom between two children's rooms): it is reached through them.
pub fn only_off_bedrooms(scene: Indexed<'_>, room: &Id) -> bool {
    let mut n = neighbours(&scene, room).peekable();
    n.peek().is_some() && n.all(|r| is_bedroom(scene, r))
}

/// The rooms `room`'s doors lead to, once per door.
fn neighbours<'s>(scene: &'s Scene, room: &'s Id) -> impl Iterator<Item = &'s Id> + Clone {
    scene.doors.iter().filter_map(move |d| {
        if &d.rooms.0 == room {
            Some(&d.rooms.1)
        } else if &d.rooms.1 == room {
            Some(&d.rooms.0)
        } else {
            None
        }
    })
}
