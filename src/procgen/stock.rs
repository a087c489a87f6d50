//! Objects: every category some household activity relies on (those with
//! roles) first, then more of anything until the target count, each on or
//! in a receptacle where such things are found, with room left on that
//! surface. Personal things get an owner and go to the owner's room when
//! their receptacle kind is there.

use std::collections::BTreeMap;

use rand::seq::IndexedRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::catalogue::{Catalogue, ObjectCategory, Spot};
use crate::ids::Id;
use crate::scene::{ActorKind, ObjectDef, Placement, Scene, Surface};

/// A receptacle surface with room left.
struct Slot {
    fixture: Id,
    kind: String,
    room: Id,
    description: String,
    inside: bool,
    left: u32,
}

pub fn stock(scene: &mut Scene, cat: &Catalogue, target: u32, rng: &mut ChaCha8Rng) {
    let humans: Vec<(Id, Id, String)> = scene
        .actors
        .iter()
        .filter(|a| a.kind == ActorKind::Human)
        .map(|a| (a.id.clone(), a.room.clone(), a.name.clone()))
        .collect();
    let mut slots: Vec<Slot> = scene
        .furniture
        .iter()
        .map(|f| (&f.id, &f.kind, &f.room, &f.description, &f.surfaces))
        .chain(
            scene
                .devices
                .iter()
                .map(|d| (&d.id, &d.kind, &d.room, &d.description, &d.surfaces)),
        )
        .flat_map(|(id, kind, room, description, surfaces)| {
            surfaces.iter().map(move |s| {
                let (inside, left) = match *s {
                    Surface::On(n) => (false, n),
                    Surface::In(n) => (true, n),
                };
                Slot {
                    fixture: id.clone(),
                    kind: kind.clone(),
                    room: room.clone(),
                    description: description.to_lowercase(),
                    inside,
                    left,
                }
            })
        })
        .collect();
    // How many of each category, in catalogue order: the categories with
    // roles at their minimum, then one more of a random category at a time.
    let mut plan: BTreeMap<usize, u32> = BTreeMap::new();
    let cap = |c: &ObjectCategory| {
        if c.each {
            humans.len().min(c.variants.len()) as u32
        } else {
            c.variants.len() as u32
        }
    };
    for (i, c) in cat.objects.iter().enumerate() {
        if !c.roles.is_empty() {
            let n = if c.each { cap(c) } else { c.count.0 };
            plan.insert(i, n.min(cap(c)));
        }
    }
    let mut total: u32 = plan.values().sum();
    let mut open: Vec<usize> = (0..cat.objects.len()).collect();
    while total < target && !open.is_empty() {
        let k = rng.random_range(0..open.len());
        let i = open[k];
        let n = plan.entry(i).or_default();
        if *n >= cap(&cat.objects[i]) {
            open.swap_remove(k);
            continue;
        }
        *n += 1;
        total += 1;
    }
    for (i, n) in plan {
        let c = &cat.objects[i];
        let stem = c.category.replace([' ', '-'], "_");
        let mut variants = c.variants.clone();
        for k in 0..n as usize {
            let owner = match (c.personal, c.each) {
                (true, true) => humans.get(k),
                (true, false) => humans.choose(rng),
                _ => None,
            };
            let Some(at) = spot(&mut slots, c, owner, cat, rng) else {
                break;
            };
            let v = variants.remove(rng.random_range(0..variants.len()));
            scene.objects.push(ObjectDef {
                id: Id::new(&format!("{stem}_{}", k + 1)),
                category: c.category.clone(),
                description: v,
                owner: owner.map(|o| o.0.clone()),
                at,
                roles: vec![],
            });
        }
    }
}

/// Where an object of `c` goes: usually the first of its spots that has
/// room, sometimes a later one; the owner's room, or a fixture named for
/// the owner, first.
fn spot(
    slots: &mut [Slot],
    c: &ObjectCategory,
    owner: Option<&(Id, Id, String)>,
    cat: &Catalogue,
    rng: &mut ChaCha8Rng,
) -> Option<Placement> {
    let matches = |s: &Slot, spot: &Spot| {
        s.left > 0
            && s.inside == matches!(spot, Spot::In(_))
            && (s.kind.eq_ignore_ascii_case(spot.kind())
                || cat
                    .furniture_kind(spot.kind())
                    .map(|f| &f.kind)
                    .or_else(|| cat.device_kind(spot.kind()).map(|d| &d.kind))
                    .is_some_and(|k| *k == s.kind))
    };
    let mut chosen = None;
    for sp in &c.found {
        if slots.iter().any(|s| matches(s, sp)) {
            chosen = Some(sp);
            if rng.random_bool(0.7) {
                break;
            }
        }
    }
    let sp = chosen?;
    let candidates: Vec<usize> = (0..slots.len()).filter(|i| matches(&slots[*i], sp)).collect();
    let mine = |i: &&usize| {
        owner.is_some_and(|(_, room, name)| {
            slots[**i].room == *room || slots[**i].description.contains(&name.to_lowercase())
        })
    };
    let own: Vec<usize> = candidates.iter().filter(mine).copied().collect();
    let pool = if own.is_empty() { &candidates } else { &own };
    let i = *pool.choose(rng)?;
    let s = &mut slots[i];
    s.left -= 1;
    Some(if s.inside {
        Placement::In(s.fixture.clone())
    } else {
        Placement::On(s.fixture.clone())
    })
}
