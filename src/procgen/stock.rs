//! Objects: every category some household activity relies on (those with
//! roles) first, then more of anything until the target count, each on or
//! in a receptacle where such things are found, with room left on that
//! surface. Personal things get an owner and go to the owner's room when
//! their receptacle kind is there.

use std::collections::BTreeMap;

use rand::Rng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand_chacha::ChaCha8Rng;

use crate::catalogue::{Catalogue, ObjectCategory, Spot};
use crate::ids::Id;
use crate::scene::{ActorKind, ObjectDef, Placement, Role, Scene, Surface};

/// Kinds of food waiting outside to be bought, one each.
const GROCERIES: usize = 3;

/// A receptacle surface with room left.
struct Slot {
    fixture: Id,
    kind: String,
    room: Id,
    room_kind: String,
    description: String,
    inside: bool,
    left: u32,
}

/// `room_kinds` gives each room's type, for categories that belong in
/// some rooms.
pub fn stock(
    scene: &mut Scene,
    cat: &Catalogue,
    room_kinds: &BTreeMap<Id, String>,
    target: u32,
    rng: &mut ChaCha8Rng,
) {
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
                    room_kind: room_kinds.get(room).cloned().unwrap_or_default(),
                    description: description.to_lowercase(),
                    inside,
                    left,
                }
            })
        })
        .collect();
    // The categories with roles at their minimum, then one more of a
    // category at a time until the target, each placed as it is added; a
    // category leaves the draw when it has no variant or no room left.
    let cap = |c: &ObjectCategory| {
        if c.each {
            humans.len().min(c.variants.len())
        } else {
            c.variants.len()
        }
    };
    let mut made: Vec<Vec<ObjectDef>> = vec![vec![]; cat.objects.len()];
    let mut variants: Vec<Vec<String>> = cat.objects.iter().map(|c| c.variants.clone()).collect();
    let delivery = |i: usize| cat.objects[i].roles.contains(&Role::Delivery);
    let mut add =
        |i: usize, made: &mut Vec<Vec<ObjectDef>>, rng: &mut ChaCha8Rng, out: bool| -> bool {
            let c = &cat.objects[i];
            let k = made[i].len();
            if k >= cap(c) {
                return false;
            }
            let owner = match (c.personal, c.each) {
                (true, true) => humans.get(k),
                (true, false) => humans.choose(rng),
                _ => None,
            };
            let at = if out {
                Placement::Outside
            } else {
                let Some(at) = spot(&mut slots, c, owner, cat, rng) else {
                    return false;
                };
                at
            };
            let pick = rng.random_range(0..variants[i].len());
            let v = variants[i].remove(pick);
            made[i].push(ObjectDef {
                id: Id::new(&format!(
                    "{}_{}",
                    c.category.replace([' ', '-'], "_"),
                    k + 1
                )),
                category: c.category.clone(),
                description: v,
                owner: owner.map(|o| o.0.clone()),
                at,
                roles: vec![],
            });
            true
        };
    // Every role some activity relies on, by a category drawn among those
    // playing it (so households differ in what they have), at its minimum.
    let mut roles: Vec<Role> = cat
        .objects
        .iter()
        .flat_map(|c| c.roles.clone())
        .filter(|r| *r != Role::Delivery)
        .collect();
    roles.sort_unstable();
    roles.dedup();
    for role in roles {
        let covered = |made: &Vec<Vec<ObjectDef>>| {
            (0..made.len()).any(|i| !made[i].is_empty() && cat.objects[i].roles.contains(&role))
        };
        let mut players: Vec<usize> = (0..cat.objects.len())
            .filter(|i| cat.objects[*i].roles.contains(&role))
            .collect();
        players.shuffle(rng);
        for i in players {
            if covered(&made) {
                break;
            }
            let c = &cat.objects[i];
            let n = if c.each { cap(c) } else { c.count.0 as usize };
            for _ in 0..n {
                add(i, &mut made, rng, false);
            }
        }
    }
    let mut total: usize = made.iter().map(Vec::len).sum();
    let mut open: Vec<usize> = (0..cat.objects.len()).filter(|i| !delivery(*i)).collect();
    while total < target as usize && !open.is_empty() {
        // Mostly a second one of something there is one of: look-alikes,
        // told apart only by their descriptions, are what memory is asked.
        let singles: Vec<usize> = (0..open.len())
            .filter(|k| made[open[*k]].len() == 1)
            .collect();
        let k = match singles.choose(rng) {
            Some(k) if rng.random_bool(0.8) => *k,
            _ => rng.random_range(0..open.len()),
        };
        if add(open[k], &mut made, rng, false) {
            total += 1;
        } else {
            open.swap_remove(k);
        }
    }
    // Beyond the front door, drawn last so the house is as it was: the
    // parcels to be delivered, and the week's groceries (food of kinds
    // the house keeps, waiting to be bought).
    for i in (0..cat.objects.len()).filter(|i| delivery(*i)) {
        let n = rng.random_range(cat.objects[i].count.0..=cat.objects[i].count.1);
        for _ in 0..n {
            add(i, &mut made, rng, true);
        }
    }
    let mut food: Vec<usize> = (0..cat.objects.len())
        .filter(|i| {
            !made[*i].is_empty()
                && cat.objects[*i]
                    .roles
                    .iter()
                    .any(|r| matches!(r, Role::Perishable | Role::BreakfastFood))
        })
        .collect();
    food.shuffle(rng);
    for i in food.into_iter().take(GROCERIES) {
        add(i, &mut made, rng, true);
    }
    // In catalogue order, so a category's objects are listed together.
    scene.objects.extend(made.into_iter().flatten());
}

/// Where an object of `c` goes: usually the first of its spots that has
/// room, sometimes a later one; the owner's room, or a fixture named for
/// the owner, first, then the rooms the category belongs in.
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
    // A spot kind with room in a room the category belongs in, else any.
    let in_place = |s: &Slot| c.rooms.is_empty() || c.rooms.contains(&s.room_kind);
    let mut chosen = None;
    for strict in [true, false] {
        for sp in &c.found {
            if slots
                .iter()
                .any(|s| matches(s, sp) && (!strict || in_place(s)))
            {
                chosen = Some(sp);
                if rng.random_bool(0.7) {
                    break;
                }
            }
        }
        if chosen.is_some() {
            break;
        }
    }
    let sp = chosen?;
    let candidates: Vec<usize> = (0..slots.len())
        .filter(|i| matches(&slots[*i], sp))
        .collect();
    let mine = |i: &&usize| {
        owner.is_some_and(|(_, room, name)| {
            slots[**i].room == *room || slots[**i].description.contains(&name.to_lowercase())
        })
    };
    let own: Vec<usize> = candidates.iter().filter(mine).copied().collect();
    let typical: Vec<usize> = candidates
        .iter()
        .filter(|i| c.rooms.contains(&slots[**i].room_kind))
        .copied()
        .collect();
    let pool = [&own, &typical, &candidates]
        .into_iter()
        .find(|p| !p.is_empty())?;
    let i = *pool.choose(rng)?;
    let s = &mut slots[i];
    s.left -= 1;
    Some(if s.inside {
        Placement::In(s.fixture.clone())
    } else {
        Placement::On(s.fixture.clone())
    })
}
