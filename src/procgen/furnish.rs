//! Furniture and devices: each room's fixtures from its type, placed by
//! mount: against a wall on the floor (clear of doorways and of each
//! other), on a wall, on the ceiling, or on top of another fixture.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::catalogue::{Catalogue, Mount};
use crate::ids::Id;
use crate::scene::{DeviceDef, FurnitureDef, Rect, Role, Scene};

/// A room's plan for furnishing: its type and who sleeps there (names; a
/// couple shares one bed).
#[derive(Debug, Clone)]
pub struct RoomInfo {
    pub id: Id,
    pub kind: String,
    pub sleepers: Vec<String>,
    pub couple: bool,
}

/// Half the side of the square kept free in front of a door.
pub const DOOR_CLEARANCE: f32 = 0.6;
/// Gap between furniture, and between furniture and walls.
const GAP: f32 = 0.03;

/// A footprint on the plan: centre and extent in metres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Footprint {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub d: f32,
}

impl Footprint {
    pub fn overlaps(&self, o: &Footprint, gap: f32) -> bool {
        (self.x - o.x).abs() * 2.0 < self.w + o.w + 2.0 * gap
            && (self.y - o.y).abs() * 2.0 < self.d + o.d + 2.0 * gap
    }

    /// Whether it keeps the square in front of a door point free.
    pub fn clear_of_door(&self, (dx, dy): (f32, f32)) -> bool {
        let door = Footprint {
            x: dx,
            y: dy,
            w: 2.0 * DOOR_CLEARANCE,
            d: 2.0 * DOOR_CLEARANCE,
        };
        !self.overlaps(&door, 0.0)
    }
}

/// What has been placed in a room so far.
#[derive(Default)]
struct Room {
    floor: Vec<Footprint>,
    wall: Vec<Footprint>,
    /// Fixtures that others can stand on: (kind, footprint, width used).
    tops: Vec<(String, Footprint, f32)>,
}

/// Furnishes every room; `false` if a fixture its room type always holds
/// (or a sleeper's bed) did not fit, so the caller tries another plan.
pub fn furnish(scene: &mut Scene, cat: &Catalogue, rooms: &[RoomInfo], rng: &mut ChaCha8Rng) -> bool {
    let mut counts = std::collections::BTreeMap::<String, u32>::new();
    for info in rooms {
        let t = cat.room(&info.kind).expect("the catalogue checks room types");
        let rect = scene
            .rooms
            .iter()
            .find(|r| r.id == info.id)
            .expect("the room was laid out")
            .rect;
        let doors: Vec<(f32, f32)> = scene
            .doors
            .iter()
            .filter(|d| d.rooms.0 == info.id || d.rooms.1 == info.id)
            .map(|d| d.at)
            .collect();
        let mut kinds: Vec<String> = t.fixtures.clone();
        for k in &t.optional {
            if rng.random_bool(0.5) {
                kinds.push(k.clone());
            }
        }
        let required: Vec<String> = t.fixtures.clone();
        // Sleepers: a bed each (one for a couple), a nightstand each, and
        // a desk for anyone who is not one of the couple.
        let mut owners: Vec<Option<String>> = vec![None; kinds.len()];
        let first = |kinds: &[String], role: Role| {
            kinds
                .iter()
                .position(|k| cat.fixture_roles(k).contains(&role))
        };
        if !info.sleepers.is_empty() {
            let single = !info.couple;
            if single
                && first(&kinds, Role::WorkDesk).is_none()
                && let Some(desk) = cat.furniture.iter().find(|f| f.roles.contains(&Role::WorkDesk))
            {
                kinds.push(desk.kind.clone());
                owners.push(None);
            }
            for (role, each) in [
                (Role::Sleeping, single),
                (Role::Bedside, true),
                (Role::WorkDesk, false),
                (Role::ClothesStorage, false),
            ] {
                let Some(i) = first(&kinds, role) else { continue };
                let n = if each { info.sleepers.len() } else { 1 };
                let named = each || single;
                owners[i] = named.then(|| info.sleepers[0].clone());
                for k in 1..n {
                    kinds.insert(i + k, kinds[i].clone());
                    owners.insert(i + k, named.then(|| info.sleepers[k].clone()));
                }
            }
        }
        let mut placed = Room::default();
        for (kind, owner) in kinds.iter().zip(owners) {
            let id = place(scene, cat, &info.id, rect, &doors, kind, owner, &mut placed, &mut counts, rng);
            if id.is_none() && required.contains(kind) {
                return false;
            }
        }
    }
    true
}

/// Places one fixture of `kind` in a room, if it fits.
#[allow(clippy::too_many_arguments)]
fn place(
    scene: &mut Scene,
    cat: &Catalogue,
    room: &Id,
    rect: Rect,
    doors: &[(f32, f32)],
    kind: &str,
    owner: Option<String>,
    placed: &mut Room,
    counts: &mut std::collections::BTreeMap<String, u32>,
    rng: &mut ChaCha8Rng,
) -> Option<Id> {
    let (size, mount, descriptions) = if let Some(f) = cat.furniture_kind(kind) {
        (f.size, &f.mount, &f.descriptions)
    } else {
        let d = cat.device_kind(kind)?;
        (d.size, &d.mount, &d.descriptions)
    };
    let spot = match mount {
        Mount::Ceiling => Some(Footprint {
            x: round(rect.x + rect.w / 2.0),
            y: round(rect.y + rect.h / 2.0),
            w: size.0,
            d: size.1,
        }),
        Mount::OnTop(under) => on_top(placed, under, size, cat)
            .or_else(|| against_wall(rect, size, doors, &placed.floor, rng)),
        Mount::Wall => against_wall(rect, size, doors, &placed.wall, rng),
        Mount::Floor => against_wall(rect, size, doors, &placed.floor, rng)
            .or_else(|| free_standing(rect, size, doors, &placed.floor)),
    }?;
    match mount {
        Mount::Wall => placed.wall.push(spot),
        Mount::Floor => placed.floor.push(spot),
        Mount::OnTop(_) if !placed.tops.iter().any(|t| t.1.overlaps(&spot, -0.001)) => {
            placed.floor.push(spot)
        }
        _ => {}
    }
    let n = counts.entry(kind.to_string()).or_default();
    *n += 1;
    let id = Id::new(&format!("{}_{n}", kind.replace([' ', '-'], "_")));
    let mut description = descriptions[rng.random_range(0..descriptions.len())].clone();
    if let Some(o) = owner {
        description = format!("{o}'s {description}");
    }
    let size = (spot.w, spot.d, size.2);
    if let Some(f) = cat.furniture_kind(kind) {
        placed.tops.push((f.kind.clone(), spot, 0.0));
        scene.furniture.push(FurnitureDef {
            id: id.clone(),
            kind: f.kind.clone(),
            room: room.clone(),
            pos: (spot.x, spot.y),
            size,
            surfaces: f.surfaces.clone(),
            openable: f.openable,
            description,
            roles: vec![],
        });
    } else {
        let d = cat.device_kind(kind)?;
        scene.devices.push(DeviceDef {
            id: id.clone(),
            kind: d.kind.clone(),
            room: room.clone(),
            pos: (spot.x, spot.y),
            size,
            remote: d.remote,
            fields: d.fields.clone(),
            surfaces: d.surfaces.clone(),
            openable: d.openable,
            description,
            roles: vec![],
        });
    }
    Some(id)
}

fn round(v: f32) -> f32 {
    (v * 100.0).round() / 100.0
}

/// On the first fixture of one of `under`'s kinds with room left along its
/// width, side by side with what already stands there.
fn on_top(
    placed: &mut Room,
    under: &[String],
    size: (f32, f32, f32),
    cat: &Catalogue,
) -> Option<Footprint> {
    let is = |k: &str, u: &String| {
        k.eq_ignore_ascii_case(u) || cat.furniture_kind(u).is_some_and(|f| f.kind == k)
    };
    for (kind, base, used) in placed.tops.iter_mut() {
        if !under.iter().any(|u| is(kind, u)) {
            continue;
        }
        let along_x = base.w >= base.d;
        let (len, depth) = if along_x { (base.w, base.d) } else { (base.d, base.w) };
        let (w, d) = (size.0, size.1);
        if *used + w > len - 2.0 * GAP || d > depth {
            continue;
        }
        let offset = -len / 2.0 + GAP + *used + w / 2.0;
        *used += w + GAP;
        let spot = if along_x {
            Footprint {
                x: round(base.x + offset),
                y: base.y,
                w,
                d,
            }
        } else {
            Footprint {
                x: base.x,
                y: round(base.y + offset),
                w: d,
                d: w,
            }
        };
        return Some(spot);
    }
    None
}

/// A spot against one of the room's walls (tried in a seeded order, every
/// 10 cm along each), with the fixture's width along the wall, clear of
/// the doors and of `taken`.
fn against_wall(
    rect: Rect,
    size: (f32, f32, f32),
    doors: &[(f32, f32)],
    taken: &[Footprint],
    rng: &mut ChaCha8Rng,
) -> Option<Footprint> {
    let mut walls = [0, 1, 2, 3];
    walls.shuffle(rng);
    let mut local = ChaCha8Rng::seed_from_u64(rng.random());
    for wall in walls {
        let horizontal = wall < 2;
        let (w, d) = if horizontal {
            (size.0, size.1)
        } else {
            (size.1, size.0)
        };
        let (lo, hi) = if horizontal {
            (rect.x + w / 2.0 + GAP, rect.x + rect.w - w / 2.0 - GAP)
        } else {
            (rect.y + d / 2.0 + GAP, rect.y + rect.h - d / 2.0 - GAP)
        };
        if hi < lo {
            continue;
        }
        let steps = ((hi - lo) / 0.1).floor() as u32 + 1;
        let start = local.random_range(0..steps);
        for k in 0..steps {
            let along = round(lo + ((start + k) % steps) as f32 * 0.1);
            let spot = match wall {
                0 => Footprint { x: along, y: round(rect.y + d / 2.0 + GAP), w, d },
                1 => Footprint { x: along, y: round(rect.y + rect.h - d / 2.0 - GAP), w, d },
                2 => Footprint { x: round(rect.x + w / 2.0 + GAP), y: along, w, d },
                _ => Footprint { x: round(rect.x + rect.w - w / 2.0 - GAP), y: along, w, d },
            };
            let inside = spot.x - w / 2.0 >= rect.x
                && spot.x + w / 2.0 <= rect.x + rect.w
                && spot.y - d / 2.0 >= rect.y
                && spot.y + d / 2.0 <= rect.y + rect.h;
            if inside
                && doors.iter().all(|p| spot.clear_of_door(*p))
                && taken.iter().all(|t| !spot.overlaps(t, GAP))
            {
                return Some(spot);
            }
        }
    }
    None
}

/// A spot anywhere in the room (a table in the middle), every 10 cm, clear
/// of the doors and of `taken`.
fn free_standing(
    rect: Rect,
    size: (f32, f32, f32),
    doors: &[(f32, f32)],
    taken: &[Footprint],
) -> Option<Footprint> {
    let (w, d) = (size.0, size.1);
    let nx = ((rect.w - w - 2.0 * GAP) / 0.1).floor();
    let ny = ((rect.h - d - 2.0 * GAP) / 0.1).floor();
    if nx < 0.0 || ny < 0.0 {
        return None;
    }
    (0..=ny as u32)
        .flat_map(|j| (0..=nx as u32).map(move |i| (i, j)))
        .map(|(i, j)| Footprint {
            x: round(rect.x + GAP + w / 2.0 + i as f32 * 0.1),
            y: round(rect.y + GAP + d / 2.0 + j as f32 * 0.1),
            w,
            d,
        })
        .find(|spot| {
            spot.x - w / 2.0 >= rect.x
                && spot.x + w / 2.0 <= rect.x + rect.w
                && spot.y - d / 2.0 >= rect.y
                && spot.y + d / 2.0 <= rect.y + rect.h
                && doors.iter().all(|p| spot.clear_of_door(*p))
                && taken.iter().all(|t| !spot.overlaps(t, GAP))
        })
}

/// Beds, as (room, bed) in scene order.
pub fn beds(scene: &Scene, cat: &Catalogue) -> Vec<(Id, Id)> {
    scene
        .furniture
        .iter()
        .filter(|f| cat.fixture_roles(&f.kind).contains(&Role::Sleeping))
        .map(|f| (f.room.clone(), f.id.clone()))
        .collect()
}

/// The robot's dock as (room, dock): the one placed, or one added to the
/// first room where it fits.
pub fn robot_dock(scene: &mut Scene, cat: &Catalogue, rng: &mut ChaCha8Rng) -> Option<(Id, Id)> {
    let found = |s: &Scene| {
        s.furniture
            .iter()
            .find(|f| cat.fixture_roles(&f.kind).contains(&Role::RobotDock))
            .map(|f| (f.room.clone(), f.id.clone()))
    };
    if let Some(d) = found(scene) {
        return Some(d);
    }
    let kind = cat
        .furniture
        .iter()
        .find(|f| f.roles.contains(&Role::RobotDock))?
        .kind
        .clone();
    let mut counts = Default::default();
    for room in scene.rooms.clone() {
        let doors: Vec<(f32, f32)> = scene
            .doors
            .iter()
            .filter(|d| d.rooms.0 == room.id || d.rooms.1 == room.id)
            .map(|d| d.at)
            .collect();
        let mut placed = Room {
            floor: floor_of(scene, &room.id, cat),
            ..Room::default()
        };
        let spot = place(scene, cat, &room.id, room.rect, &doors, &kind, None, &mut placed, &mut counts, rng);
        if let Some(id) = spot {
            return Some((room.id, id));
        }
    }
    None
}

/// Footprints of the floor-standing fixtures already in a room.
fn floor_of(scene: &Scene, room: &Id, cat: &Catalogue) -> Vec<Footprint> {
    let floor = |k: &str| {
        cat.furniture_kind(k)
            .map(|f| &f.mount)
            .or_else(|| cat.device_kind(k).map(|d| &d.mount))
            .is_none_or(|m| *m == Mount::Floor)
    };
    scene
        .furniture
        .iter()
        .map(|f| (&f.room, &f.kind, f.pos, f.size))
        .chain(scene.devices.iter().map(|d| (&d.room, &d.kind, d.pos, d.size)))
        .filter(|(r, k, _, _)| *r == room && floor(k))
        .map(|(_, _, p, s)| Footprint {
            x: p.0,
            y: p.1,
            w: s.0,
            d: s.1,
        })
        .collect()
}
