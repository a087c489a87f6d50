//! Procedural households (`hearth scene generate`): a valid scene from a
//! seed and a household kind of the catalogue. Rooms tile a footprint and
//! are all reachable through doors on shared walls; furniture stands inside
//! its room against a wall, clear of doorways and of other furniture;
//! devices carry the catalogue's field schemas; objects sit on or in
//! receptacles where such things are found, with look-alikes told apart by
//! their descriptions; people have names, roles, bedrooms and their own
//! things, and the robot starts at its dock. Same seed and options, same
//! scene, byte for byte.

mod furnish;
pub mod layout;
mod stock;

use std::collections::BTreeMap;

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use crate::catalogue::{Catalogue, HouseholdKind};
use crate::ids::Id;
use crate::scene::{ActorDef, ActorKind, DoorDef, Rect, RoomDef, Scene};
use layout::Cells;

/// What to generate. Ranges are inclusive; `None` takes the household
/// kind's range from the catalogue.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneSpec {
    pub seed: u64,
    pub kind: String,
    pub rooms: Option<(u32, u32)>,
    pub people: Option<u32>,
}

impl SceneSpec {
    pub fn new(kind: &str, seed: u64) -> Self {
        SceneSpec {
            seed,
            kind: kind.into(),
            rooms: None,
            people: None,
        }
    }

    /// The scene id this spec generates (`gen_apartment_s7`).
    pub fn scene_id(&self) -> String {
        format!("gen_{}_s{}", self.kind, self.seed)
    }
}

#[derive(Debug, Error, PartialEq)]
pub enum ProcgenError {
    #[error("no household kind {kind:?} in the catalogue (known: {known})")]
    UnknownKind { kind: String, known: String },
    #[error("{what} {lo}..={hi} is impossible for a {kind}: {why}")]
    BadRange {
        kind: String,
        what: &'static str,
        lo: u32,
        hi: u32,
        why: String,
    },
    #[error("no floor plan found for seed {seed} after {attempts} attempts")]
    NoLayout { seed: u64, attempts: u32 },
}

/// Attempts at a floor plan before giving up, each with fresh areas and
/// order (no seed of 1,000 per kind needs them all).
const ATTEMPTS: u32 = 64;

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
    let people = spec
        .people
        .unwrap_or_else(|| rng.random_range(kind.people.0..=kind.people.1));
    let rooms = rng.random_range(lo.max(least)..=hi);
    for _ in 0..ATTEMPTS {
        if let Some(scene) = attempt(spec, cat, kind, rooms, people, &mut rng) {
            return Ok(scene);
        }
    }
    Err(ProcgenError::NoLayout {
        seed: spec.seed,
        attempts: ATTEMPTS,
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
    private: bool,
    sleepers: Vec<usize>,
}

/// A person to be.
#[derive(Debug, Clone)]
struct Person {
    id: Id,
    name: String,
    role: String,
}

fn attempt(
    spec: &SceneSpec,
    cat: &Catalogue,
    kind: &HouseholdKind,
    n_rooms: u32,
    n_people: u32,
    rng: &mut ChaCha8Rng,
) -> Option<Scene> {
    let people = people(cat, n_people, rng);
    let mut plans = room_plans(cat, kind, n_rooms, &people, rng);
    // Entry first; the rest shuffled so plans differ, hubs early so that
    // they end up central, outer rooms (a garage) last so that they end up
    // at the far end.
    plans[1..].shuffle(rng);
    plans[1..].sort_by_key(|p| (p.outer, !p.hub));
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
    let pairs = layout::doors(
        &cells,
        |i, j| {
            let (a, b) = (&plans[i], &plans[j]);
            let mut c = 1.0;
            if a.hub || b.hub {
                c -= 0.6;
            }
            if a.private && b.private {
                c += 3.0;
            } else if a.private || b.private {
                c += 0.5;
            }
            c
        },
        |i, j| !plans[i].private && !plans[j].private,
        rng,
    );
    let Some(pairs) = pairs else {
        tracing::trace!(
            "seed {}: some room shares no wall long enough for a door",
            spec.seed
        );
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
    let doors: Vec<DoorDef> = pairs
        .iter()
        .map(|&(i, j)| door(&plans, &cells, i, j, rng))
        .collect();
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
            couple: p.sleepers.len() == 2 && p.sleepers.contains(&0) && p.sleepers.contains(&1),
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
            room: plan.id.clone(),
            near,
            hands: 2,
            speed: f32::from(rng.random_range(10_u8..=13)) / 10.0,
        });
    }
    let dock = furnish::robot_dock(&mut scene, cat, rng)?;
    scene.actors.push(ActorDef {
        id: Id::new("robot"),
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
    scene.description = format!(
        "A generated {} of {} rooms for {}, with one home robot.",
        kind.kind,
        scene.rooms.len(),
        names(&people)
    );
    let problems = crate::scene::validate(&scene);
    if !problems.is_empty() {
        tracing::trace!("seed {}: invalid: {problems:?}", spec.seed);
        return None;
    }
    Some(scene)
}

fn names(people: &[Person]) -> String {
    match people {
        [] => String::new(),
        [one] => one.name.clone(),
        [init @ .., last] => format!(
            "{} and {}",
            init.iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            last.name
        ),
    }
}

fn people(cat: &Catalogue, n: u32, rng: &mut ChaCha8Rng) -> Vec<Person> {
    let names: Vec<&String> = cat.people.names.choose_multiple(rng, n as usize).collect();
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let pool = if i < 2 {
                &cat.people.adults
            } else {
                &cat.people.others
            };
            Person {
                id: Id::new(&name.to_lowercase()),
                name: (*name).clone(),
                role: pool.choose(rng).cloned().unwrap_or_default(),
            }
        })
        .collect()
}

/// The rooms: required ones, bedrooms (a couple shares one; everyone else
/// has their own while rooms last), then extras up to the count.
fn room_plans(
    cat: &Catalogue,
    kind: &HouseholdKind,
    n_rooms: u32,
    people: &[Person],
    rng: &mut ChaCha8Rng,
) -> Vec<Plan> {
    let n_people = people.len();
    let mut kinds: Vec<String> = kind.required.clone();
    let shared = kind.required.contains(&kind.bedroom);
    let mut sleepers: Vec<Vec<usize>> = vec![];
    if shared {
        sleepers.push((0..n_people).collect());
    } else {
        let free = (n_rooms as usize).saturating_sub(kinds.len()).max(1);
        let wanted = if n_people <= 2 { 1 } else { n_people - 1 };
        let bedrooms = wanted.min(free);
        sleepers = vec![vec![]; bedrooms];
        for p in 0..n_people {
            // The first two share; later people get a room each, and share
            // the last one when rooms run out.
            let b = if p < 2 { 0 } else { (p - 1).min(bedrooms - 1) };
            sleepers[b].push(p);
        }
        kinds.extend(std::iter::repeat_n(kind.bedroom.clone(), bedrooms));
    }
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
                private: t.private,
                sleepers: sleeping,
            }
        })
        .collect()
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
/// private room is involved (and then sometimes closed), else mostly an
/// open archway.
fn door(plans: &[Plan], cells: &[Cells], i: usize, j: usize, rng: &mut ChaCha8Rng) -> DoorDef {
    let (vertical, at, lo, hi) =
        layout::shared_wall(&cells[i], &cells[j]).expect("doors only join rooms with a wall");
    let mid = (lo + hi) as f32 / 20.0;
    let at = at as f32 / 10.0;
    let (a, b) = (&plans[i], &plans[j]);
    let openable = a.private || b.private || rng.random_bool(0.25);
    let open = !openable || rng.random_bool(0.65);
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
