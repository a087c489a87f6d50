//! A home for the household: rooms planned and laid out, doors on shared
//! walls and the front door, then furnished and stocked; attempts drawn
//! until one passes validation.

use std::collections::BTreeMap;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::layout::Cells;
use crate::catalogue::{Catalogue, HouseholdKind, RoomType, Zone};
use crate::ids::Id;
use crate::scene::{ActorDef, ActorKind, DoorDef, Rect, RoomDef, Scene};

use super::household::*;
use super::spec::{ProcgenError, SceneSpec};
use super::{furnish, layout, stock};

/// Attempts at a floor plan before giving up, each with fresh areas and
/// order (no seed of 1,000 per kind needs them all).
const ATTEMPTS: u32 = 1024;
/// Room counts tried before giving up (see [`generate`]).
const ROUNDS: u32 = 4;

/// Generates a household. Errors are about the spec (unknown kind,
/// impossible ranges) or, never seen in practice, a seed whose plans all
/// fail.
pub fn generate(spec: &SceneSpec, cat: &Catalogue) -> Result<Scene, ProcgenError> {
    let kind = cat
        .household(&spec.kind)
        .ok_or_else(|| ProcgenError::UnknownKind {
            kind: spec.kind.clone(),
            known: cat.household_kinds().join(", "),
        })?;
    let (lo, hi) = spec.rooms.unwrap_or(kind.rooms);
    let shared_bedroom = kind.required.contains(&kind.bedroom);
    let least = kind.required.len() as u32 + u32::from(!shared_bedroom);
    if lo > hi || hi < least || hi > 40 {
        return Err(ProcgenError::BadRange {
            kind: kind.kind.clone(),
            what: "rooms",
            lo,
            hi,
            why: format!("needs between {least} and 40 rooms, low before high"),
        });
    }
    if let Some(p) = spec.people
        && !(1..=8).contains(&p)
    {
        return Err(ProcgenError::BadRange {
            kind: kind.kind.clone(),
            what: "people",
            lo: p,
            hi: p,
            why: "between 1 and 8 people".into(),
        });
    }
    let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
    // The household first, then a home for it: a bedroom for the couple,
    // one for everyone else, two children to a room only where the rooms
    // asked for cannot hold more.
    let household = household(cat, kind, spec.people, &mut rng);
    let shared_ok = spec.rooms.is_some();
    let bedrooms = |pair: bool| bedrooms_for(&household, shared_bedroom, pair).len() as u32;
    let least = kind.required.len() as u32 + if shared_bedroom { 0 } else { bedrooms(false) };
    let tight = kind.required.len() as u32 + if shared_bedroom { 0 } else { bedrooms(true) };
    if shared_ok && hi < tight {
        return Err(ProcgenError::BadRange {
            kind: kind.kind.clone(),
            what: "rooms",
            lo,
            hi,
            why: format!(
                "{} people need {} bedrooms besides {} other rooms",
                household.people.len(),
                bedrooms(true),
                kind.required.len()
            ),
        });
    }
    let (lo, hi) = if shared_ok {
        (lo.max(tight), hi)
    } else {
        (lo.max(least), hi.max(least))
    };
    let mut rooms = rng.random_range(lo..=hi);
    // A room count whose zones cannot be tiled for these people (1 house
    // seed in 2,000) gets another count drawn.
    for round in 0..ROUNDS {
        if round > 0 {
            rooms = rng.random_range(lo..=hi);
        }
        for _ in 0..ATTEMPTS {
            if let Some(scene) = attempt(spec, cat, kind, rooms, &household, &mut rng) {
                return Ok(scene);
            }
        }
    }
    Err(ProcgenError::NoLayout {
        seed: spec.seed,
        attempts: ATTEMPTS * ROUNDS,
    })
}

/// A room to be: its type, id, display name and who sleeps there.
#[derive(Debug, Clone)]
struct Plan {
    kind: String,
    id: Id,
    name: String,
    area: f32,
    hub: bool,
    outer: bool,
    zone: Zone,
    sleepers: Vec<usize>,
}

fn attempt(
    spec: &SceneSpec,
    cat: &Catalogue,
    kind: &HouseholdKind,
    n_rooms: u32,
    household: &Household,
    rng: &mut ChaCha8Rng,
) -> Option<Scene> {
    let people = &household.people;
    let mut plans = room_plans(cat, kind, n_rooms, household, rng);
    // Entry first; the rest shuffled so plans differ, hubs early so that
    // they end up central, outer rooms (a garage) last so that they end up
    // at the far end. Every other attempt interleaves the leaves (private
    // and service rooms) with the halls and public rooms instead, so each
    // leaf is tiled next to a room it may open onto (large houses need it).
    plans[1..].shuffle(rng);
    plans[1..].sort_by_key(|p| (p.outer, !p.hub));
    if rng.random_bool(0.75) {
        let (core, leaves): (Vec<Plan>, Vec<Plan>) =
            plans.drain(..).partition(|p| p.zone.is_core());
        let per = leaves.len().div_ceil(core.len().max(1));
        let before = rng.random_bool(0.5);
        let mut leaves = leaves.into_iter();
        for (i, c) in core.into_iter().enumerate() {
            if before && i > 0 {
                plans.extend(leaves.by_ref().take(per));
            }
            plans.push(c);
            if !before {
                plans.extend(leaves.by_ref().take(per));
            }
        }
        plans.extend(leaves);
    }
    let total: f32 = plans.iter().map(|p| p.area).sum();
    let aspect = rng.random_range(1.0..1.8_f32);
    let w = (total * aspect).sqrt();
    let outer = Cells {
        x: 0,
        y: 0,
        w: (w * 10.0).round() as i32,
        h: (total / w * 10.0).round() as i32,
    };
    let (w, h) = if rng.random_bool(0.5) {
        (outer.w, outer.h)
    } else {
        (outer.h, outer.w)
    };
    let outer = Cells { w, h, ..outer };
    let areas: Vec<f32> = plans.iter().map(|p| p.area).collect();
    let hubs: Vec<bool> = plans.iter().map(|p| p.hub).collect();
    let Some(cells) = layout::tile(outer, &areas, &hubs) else {
        tracing::trace!("seed {}: a room came out too narrow", spec.seed);
        return None;
    };
    let Some(pairs) = zoned_doors(cat, &plans, &cells, rng) else {
        tracing::trace!("seed {}: the rooms do not touch as zones need", spec.seed);
        return None;
    };
    let rooms: Vec<RoomDef> = plans
        .iter()
        .zip(&cells)
        .map(|(p, c)| RoomDef {
            id: p.id.clone(),
            name: p.name.clone(),
            rect: metres(c),
            height: f32::from(rng.random_range(25_u8..=27)) / 10.0,
        })
        .collect();
    let mut doors: Vec<DoorDef> = pairs
        .iter()
        .map(|&(i, j)| door(&plans, &cells, i, j, rng))
        .collect();
    doors.extend(front_door(&rooms));
    let mut scene = Scene {
        id: Id::new(&spec.scene_id()),
        name: format!("Generated {} (seed {})", kind.kind, spec.seed),
        description: String::new(),
        rooms,
        doors,
        furniture: vec![],
        devices: vec![],
        objects: vec![],
        actors: vec![],
    };
    let infos: Vec<furnish::RoomInfo> = plans
        .iter()
        .map(|p| furnish::RoomInfo {
            id: p.id.clone(),
            kind: p.kind.clone(),
            sleepers: p.sleepers.iter().map(|s| people[*s].name.clone()).collect(),
            couple: household.couple && p.sleepers == [0, 1],
        })
        .collect();
    if !furnish::furnish(&mut scene, cat, &infos, rng) {
        tracing::trace!("seed {}: a required fixture did not fit", spec.seed);
        return None;
    }
    let beds = furnish::beds(&scene, cat);
    // People sleep in their bedroom, next to a bed of theirs.
    for (i, p) in people.iter().enumerate() {
        let plan = plans.iter().find(|r| r.sleepers.contains(&i))?;
        let near = beds
            .iter()
            .filter(|(room, _)| *room == plan.id)
            .map(|(_, b)| b.clone())
            .nth(plan.sleepers.iter().position(|s| *s == i).unwrap_or(0))
            .or_else(|| {
                beds.iter()
                    .find(|(r, _)| *r == plan.id)
                    .map(|(_, b)| b.clone())
            });
        scene.actors.push(ActorDef {
            id: p.id.clone(),
            name: p.name.clone(),
            kind: ActorKind::Human,
            role: p.role.clone(),
            schedule: Some(Id::new(&p.schedule)),
            room: plan.id.clone(),
            near,
            hands: 2,
            speed: f32::from(rng.random_range(10_u8..=13)) / 10.0,
        });
    }
    let dock = furnish::robot_dock(&mut scene, cat, rng)?;
    scene.actors.push(ActorDef {
        id: Id::new("robot"),
        schedule: None,
        name: "Robot".into(),
        kind: ActorKind::Robot,
        role: "home assistant robot".into(),
        room: dock.0,
        near: Some(dock.1),
        hands: 1,
        speed: 0.8,
    });
    let target = rng.random_range(kind.objects.0..=kind.objects.1);
    let room_kinds = plans
        .iter()
        .map(|p| (p.id.clone(), p.kind.clone()))
        .collect();
    stock::stock(&mut scene, cat, &room_kinds, target, rng);
    scene.actors.extend(visitor(people, spec.seed));
    scene.actors.extend(callers(people));
    scene.description = format!(
        "A generated {} of {} rooms for {}, with one home robot.",
        kind.kind,
        scene.rooms.len(),
        names(people)
    );
    let problems = crate::scene::validate(&scene);
    if !problems.is_empty() {
        tracing::trace!("seed {}: invalid: {problems:?}", spec.seed);
        return None;
    }
    Some(scene)
}

/// The rooms: required ones, bedrooms (see [`bedrooms_for`]; two
/// children share only where `n_rooms` leaves too few), then extras up to
/// the count.
fn room_plans(
    cat: &Catalogue,
    kind: &HouseholdKind,
    n_rooms: u32,
    household: &Household,
    rng: &mut ChaCha8Rng,
) -> Vec<Plan> {
    let people = &household.people;
    let mut kinds: Vec<String> = kind.required.clone();
    let shared = kind.required.contains(&kind.bedroom);
    let sleepers = if shared {
        bedrooms_for(household, true, false)
    } else {
        let alone = bedrooms_for(household, false, false);
        let free = (n_rooms as usize).saturating_sub(kinds.len());
        let sleepers = if alone.len() <= free {
            alone
        } else {
            bedrooms_for(household, false, true)
        };
        kinds.extend(std::iter::repeat_n(kind.bedroom.clone(), sleepers.len()));
        sleepers
    };
    let mut extra = kind.extra.clone();
    extra.shuffle(rng);
    kinds.extend(
        extra
            .into_iter()
            .take((n_rooms as usize).saturating_sub(kinds.len())),
    );
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut bedroom_no = 0;
    kinds
        .iter()
        .map(|k| {
            let t = cat.room(k).expect("the catalogue checks room types");
            let n = counts.entry(k.clone()).or_default();
            *n += 1;
            let repeated = kinds.iter().filter(|x| *x == k).count() > 1;
            let id = if repeated {
                format!("{k}_{n}")
            } else {
                k.clone()
            };
            let (sleeping, name) = if *k == kind.bedroom && !shared {
                bedroom_no += 1;
                let s = sleepers[bedroom_no - 1].clone();
                let name = match s.as_slice() {
                    [one] => format!("{}'s room", people[*one].name),
                    _ if bedroom_no == 1 => "Main bedroom".into(),
                    _ => format!("Bedroom {bedroom_no}"),
                };
                (s, name)
            } else if *k == kind.bedroom {
                (sleepers[0].clone(), t.name.clone())
            } else if repeated {
                (vec![], format!("{} {n}", t.name))
            } else {
                (vec![], t.name.clone())
            };
            // Area grows a little with the number of sleepers.
            let area = rng.random_range(t.area.0..=t.area.1) + 2.0 * sleeping.len() as f32;
            Plan {
                kind: k.clone(),
                id: Id::new(&id),
                name,
                area: area.min(t.area.1 * 1.5),
                hub: t.hub,
                outer: t.outer,
                zone: t.zone,
                sleepers: sleeping,
            }
        })
        .collect()
}

/// The plan's doors by zone (see `layout::zoned_doors`): halls and public
/// rooms joined from the entry, hallways preferred; each private or
/// service room off a room of a zone it opens onto (a hall first, a room
/// it prefers before that), or as an en-suite off its bedroom; the rooms
/// that adjoin each other (kitchen and dining room) joined. `None` unless
/// some room of every type that may be en-suite opens onto the core.
fn zoned_doors(
    cat: &Catalogue,
    plans: &[Plan],
    cells: &[Cells],
    rng: &mut ChaCha8Rng,
) -> Option<Vec<(usize, usize)>> {
    let types: Vec<&RoomType> = plans
        .iter()
        .map(|p| cat.room(&p.kind).expect("the catalogue checks room types"))
        .collect();
    let core: Vec<bool> = types.iter().map(|t| t.zone.is_core()).collect();
    let cost = |i: usize, j: usize| -> Option<f32> {
        let (a, b) = (types[i], types[j]);
        match (core[i], core[j]) {
            (true, true) => Some(if plans[i].hub || plans[j].hub {
                0.4
            } else {
                1.0
            }),
            (false, true) => a.opens_onto.contains(&b.zone).then(|| {
                if a.prefers.contains(&b.kind) {
                    0.0
                } else if b.zone == Zone::Hall {
                    0.5
                } else {
                    1.0
                }
            }),
            (false, false) => {
                (a.en_suite_of.contains(&b.kind) && !plans[j].sleepers.is_empty()).then_some(1.0)
            }
            (true, false) => None,
        }
    };
    let mut required = vec![];
    for (i, t) in types.iter().enumerate() {
        for (j, u) in types.iter().enumerate().skip(i + 1) {
            if t.adjoins.contains(&u.kind) || u.adjoins.contains(&t.kind) {
                required.push((i, j));
            }
        }
    }
    let pairs = layout::zoned_doors(
        cells,
        &core,
        cost,
        &required,
        |i, j| plans[i].hub || plans[j].hub,
        rng,
    )?;
    let onto_core = |i: usize| {
        pairs
            .iter()
            .any(|&(a, b)| (a == i && core[b]) || (b == i && core[a]))
    };
    let suited = types
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.en_suite_of.is_empty());
    let mut by_kind: BTreeMap<&str, bool> = BTreeMap::new();
    for (i, t) in suited {
        *by_kind.entry(t.kind.as_str()).or_default() |= onto_core(i);
    }
    by_kind.values().all(|ok| *ok).then_some(pairs)
}

/// The front door: closed, in the middle of the longest outer wall of the
/// entry (room 0, the entrance, or the studio's main room), which the
/// tiling always puts at a corner of the footprint.
fn front_door(rooms: &[RoomDef]) -> Option<DoorDef> {
    let entry = rooms.first()?;
    let rects: Vec<Rect> = rooms.iter().map(|r| r.rect).collect();
    let wall = crate::scene::walls::outer_walls(&entry.rect, &rects)
        .into_iter()
        .max_by(|a, b| (a.hi - a.lo).total_cmp(&(b.hi - b.lo)))?;
    let mid = (wall.lo + wall.hi) / 2.0;
    Some(DoorDef {
        id: Id::new("front_door"),
        rooms: (entry.id.clone(), Id::new(crate::scene::OUTSIDE)),
        at: if wall.vertical {
            (wall.coord, mid)
        } else {
            (mid, wall.coord)
        },
        openable: true,
        open: false,
    })
}

fn metres(c: &Cells) -> Rect {
    Rect {
        x: c.x as f32 / 10.0,
        y: c.y as f32 / 10.0,
        w: c.w as f32 / 10.0,
        h: c.h as f32 / 10.0,
    }
}

/// A door at the middle of the wall two rooms share: openable where a
/// private or service room is involved, else mostly an open archway. At
/// the start (night, before anyone wakes) a bedroom's door to the rest of
/// the home is closed and every other door open.
fn door(plans: &[Plan], cells: &[Cells], i: usize, j: usize, rng: &mut ChaCha8Rng) -> DoorDef {
    let (vertical, at, lo, hi) =
        layout::shared_wall(&cells[i], &cells[j]).expect("doors only join rooms with a wall");
    let mid = (lo + hi) as f32 / 20.0;
    let at = at as f32 / 10.0;
    let (a, b) = (&plans[i], &plans[j]);
    let openable = !a.zone.is_core() || !b.zone.is_core() || rng.random_bool(0.25);
    let bedroom = |p: &Plan, other: &Plan| {
        p.zone == Zone::Private && !p.sleepers.is_empty() && other.zone.is_core()
    };
    let open = !(bedroom(a, b) || bedroom(b, a));
    DoorDef {
        id: Id::new(&format!(
            "{}_{}_{}",
            if openable { "door" } else { "arch" },
            a.id,
            b.id
        )),
        rooms: (a.id.clone(), b.id.clone()),
        at: if vertical { (at, mid) } else { (mid, at) },
        openable,
        open,
    }
}
