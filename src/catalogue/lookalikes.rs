//! The look-alike axis: more objects of the categories a house has, each a
//! catalogue variant it lacks ("the other mug"), beside one of its kind.

use std::collections::BTreeSet;

use crate::ids::Id;
use crate::scene::index::fixtures;
use crate::scene::{ObjectDef, Placement, Scene};

use super::model::{Catalogue, Spot};

/// `scene` with up to `per_category` more objects of every object category
/// it has, in the order the scene lists them. Each takes the unused variant
/// of the catalogue most like the first of its kind, and that one's owner
/// (so its owner now has several alike), and goes on or
/// in a receptacle with room: where one of its kind is, else a receptacle
/// kind it is found at. A category out of variants or room gets fewer.
/// Deterministic: no draw.
pub fn add_lookalikes(scene: &Scene, cat: &Catalogue, per_category: u32) -> Scene {
    let mut out = scene.clone();
    let mut categories: Vec<String> = vec![];
    for o in &scene.objects {
        if !categories.contains(&o.category) {
            categories.push(o.category.clone());
        }
    }
    let mut ids: BTreeSet<Id> = scene
        .objects
        .iter()
        .map(|o| o.id.clone())
        .chain(scene.furniture.iter().map(|f| f.id.clone()))
        .chain(scene.devices.iter().map(|d| d.id.clone()))
        .chain(scene.rooms.iter().map(|r| r.id.clone()))
        .chain(scene.actors.iter().map(|a| a.id.clone()))
        .collect();
    for category in categories {
        let Some(c) = cat.category(&category) else {
            continue;
        };
        for _ in 0..per_category {
            let kin: Vec<&ObjectDef> = out
                .objects
                .iter()
                .filter(|o| o.category == category)
                .collect();
            let used: BTreeSet<String> = kin.iter().map(|o| o.description.to_lowercase()).collect();
            // The unused variant most like the first of its kind (most words
            // in common; the catalogue's order among equals): "the blue
            // ceramic mug" beside "the blue ceramic mug with a chipped
            // handle" is what a reader confuses.
            let like = kin.first().map_or("", |o| o.description.as_str());
            let Some(variant) = c
                .variants
                .iter()
                .filter(|v| !used.contains(&v.to_lowercase()))
                .enumerate()
                .max_by_key(|(i, v)| (shared_words(v, like), std::cmp::Reverse(*i)))
                .map(|(_, v)| v)
            else {
                break;
            };
            let beside = kin.iter().filter_map(|o| match &o.at {
                Placement::On(r) => Some((r.clone(), false)),
                Placement::In(r) => Some((r.clone(), true)),
                Placement::HeldBy(_) | Placement::Outside => None,
            });
            let found = c.found.iter().flat_map(|sp| {
                fixtures_of(&out, sp.kind()).map(move |f| (f, matches!(sp, Spot::In(_))))
            });
            let Some((at, inside)) = beside
                .chain(found)
                .find(|(r, inside)| room_left(&out, r, *inside) > 0)
            else {
                break;
            };
            let owner = kin.first().and_then(|o| o.owner.clone());
            let slug = category.replace([' ', '-'], "_");
            let id = (kin.len() + 1..)
                .map(|k| Id::new(&format!("{slug}_{k}")))
                .find(|id| !ids.contains(id))
                .expect("an unused id");
            ids.insert(id.clone());
            out.objects.push(ObjectDef {
                id,
                category: category.clone(),
                description: variant.clone(),
                owner,
                at: if inside {
                    Placement::In(at)
                } else {
                    Placement::On(at)
                },
                roles: vec![],
            });
        }
    }
    out
}

/// How many distinct words `a` and `b` have in common, ignoring case.
fn shared_words(a: &str, b: &str) -> usize {
    let words = |s: &str| -> BTreeSet<String> {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    words(a).intersection(&words(b)).count()
}

/// Furniture and devices of `kind`, in scene order.
fn fixtures_of<'a>(s: &'a Scene, kind: &'a str) -> impl Iterator<Item = Id> + 'a {
    fixtures(s)
        .filter(move |f| f.kind.eq_ignore_ascii_case(kind))
        .map(|f| f.id.clone())
}

/// Objects `receptacle` still has room for on top or inside.
fn room_left(s: &Scene, receptacle: &Id, inside: bool) -> u32 {
    // The scene grows as look-alikes are added, so no index is kept.
    let capacity = fixtures(s)
        .find(|f| f.id == receptacle)
        .and_then(|f| f.capacity(inside))
        .unwrap_or(0);
    let there = s
        .objects
        .iter()
        .filter(|o| match &o.at {
            Placement::On(r) => !inside && r == receptacle,
            Placement::In(r) => inside && r == receptacle,
            Placement::HeldBy(_) | Placement::Outside => false,
        })
        .count() as u32;
    capacity.saturating_sub(there)
}
