//! Where things are on the floor plan (metres, scene coordinates), from a
//! state: actors next to the fixture they stand at, objects on their
//! receptacle (or in a hand), walks along door points.

use std::collections::BTreeMap;

use bevy::math::Vec2;

use crate::ids::Id;
use crate::scene::{Indexed, Scene};
use crate::trace::Key;
use crate::trace::{Event, Location, Position, Value};

pub fn room_rect(scene: Indexed<'_>, room: &Id) -> Option<(Vec2, Vec2)> {
    let r = scene.room(room)?;
    Some((
        Vec2::new(r.rect.x, r.rect.y),
        Vec2::new(r.rect.x + r.rect.w, r.rect.y + r.rect.h),
    ))
}

pub fn room_center(scene: Indexed<'_>, room: &Id) -> Vec2 {
    room_rect(scene, room).map_or(Vec2::ZERO, |(a, b)| (a + b) / 2.0)
}

/// Centre and footprint of a fixture (furniture or device).
pub fn fixture(scene: Indexed<'_>, id: &Id) -> Option<(Vec2, Vec2, f32)> {
    let (p, s) = scene.fixture(id).map(|f| (f.pos, f.size))?;
    Some((Vec2::new(p.0, p.1), Vec2::new(s.0, s.1), s.2))
}

/// The bounds of all rooms.
pub fn bounds(scene: &Scene) -> (Vec2, Vec2) {
    let mut lo = Vec2::splat(f32::MAX);
    let mut hi = Vec2::splat(f32::MIN);
    for r in &scene.rooms {
        lo = lo.min(Vec2::new(r.rect.x, r.rect.y));
        hi = hi.max(Vec2::new(r.rect.x + r.rect.w, r.rect.y + r.rect.h));
    }
    (lo, hi)
}

/// Where an actor stands: beside the fixture it is at, towards the room's
/// centre; actors at the same spot are spread out.
pub fn actor_point(scene: Indexed<'_>, pos: &Position, slot: usize) -> Vec2 {
    let centre = room_center(scene, &pos.room);
    let base = match pos.near.as_ref().and_then(|n| fixture(scene, n)) {
        Some((p, size, _)) => {
            let to_centre = (centre - p).normalize_or_zero();
            p + to_centre * (size.max_element() / 2.0 + 0.35)
        }
        None => centre,
    };
    base + Vec2::new(0.3 * slot as f32, 0.0)
}

/// Positions of every actor in `state` who is in the house (someone out,
/// and what they carry, is not on the plan).
pub fn actor_points(scene: Indexed<'_>, state: &BTreeMap<Key, Value>) -> BTreeMap<Id, Vec2> {
    let mut taken: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeMap::new();
    for a in &scene.actors {
        if let Some(Value::Position(p)) = state.get(&(a.id.clone(), Id::new("position")))
            && p.room.as_str() != crate::scene::OUTSIDE
        {
            let key = format!("{}|{:?}", p.room, p.near);
            let slot = taken.entry(key).or_default();
            out.insert(a.id.clone(), actor_point(scene, p, *slot));
            *slot += 1;
        }
    }
    out
}

/// Where each object is drawn: a small grid on its receptacle, or beside
/// the actor holding it. Also says whether it is inside (not on) something.
pub fn object_points(
    scene: Indexed<'_>,
    locations: &BTreeMap<Id, Location>,
    actors: &BTreeMap<Id, Vec2>,
) -> BTreeMap<Id, (Vec2, bool)> {
    let mut per: BTreeMap<Id, usize> = BTreeMap::new();
    let mut out = BTreeMap::new();
    for o in &scene.objects {
        let Some(l) = locations.get(&o.id) else {
            continue;
        };
        let (p, inside) = match l {
            Location::On(r) | Location::In(r) => {
                let i = per.entry(r.clone()).or_default();
                let Some((c, size, _)) = fixture(scene, r) else {
                    continue;
                };
                let cols = ((size.x / 0.22).floor() as usize).max(1);
                let (col, row) = (*i % cols, *i / cols);
                *i += 1;
                let start = c - size / 2.0 + Vec2::splat(0.11);
                let p = start + Vec2::new(col as f32 * 0.22, row as f32 * 0.22);
                (p.min(c + size / 2.0), matches!(l, Location::In(_)))
            }
            Location::HeldBy(a) | Location::CarriedBy(a) => match actors.get(a) {
                Some(p) => (*p + Vec2::new(0.18, -0.18), false),
                None => continue,
            },
            // Beyond the front door: not on the plan.
            Location::Outside => continue,
        };
        out.insert(o.id.clone(), (p, inside));
    }
    out
}

/// Object locations out of a state.
pub fn locations(state: &BTreeMap<Key, Value>) -> BTreeMap<Id, Location> {
    state
        .iter()
        .filter(|((_, a), _)| a.as_str() == "location")
        .filter_map(|((e, _), v)| match v {
            Value::Location(l) => Some((e.clone(), l.clone())),
            _ => None,
        })
        .collect()
}

/// The walk of a navigation event: from `from` through the doors between
/// the rooms it passed to where it ended, and the point `frac` along it.
pub fn walk(scene: &Scene, e: &Event, from: Vec2, to: Vec2, frac: f32) -> Vec2 {
    let mut points = vec![from];
    for pair in e.via.windows(2) {
        if let Some(d) = scene.doors.iter().find(|d| {
            (d.rooms.0 == pair[0] && d.rooms.1 == pair[1])
                || (d.rooms.0 == pair[1] && d.rooms.1 == pair[0])
        }) {
            points.push(Vec2::new(d.at.0, d.at.1));
        }
    }
    points.push(to);
    let lengths: Vec<f32> = points.windows(2).map(|w| w[0].distance(w[1])).collect();
    let total: f32 = lengths.iter().sum();
    if total <= f32::EPSILON {
        return to;
    }
    let mut left = frac.clamp(0.0, 1.0) * total;
    for (w, l) in points.windows(2).zip(&lengths) {
        if left <= *l {
            return w[0].lerp(w[1], if *l > 0.0 { left / l } else { 1.0 });
        }
        left -= l;
    }
    to
}
