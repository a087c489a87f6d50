//! What the shops and the courier have for the household over the run:
//! the scene extended, before the run, with the food it will buy and the
//! parcels that will come, waiting beyond the front door (`at: Outside`,
//! as a scene's own groceries and parcels wait), so that a thing bought
//! is an ordinary arrival every reader of a trace already understands.
//!
//! Food of a kind the house keeps and uses up (the catalogue's
//! `servings`) is stocked two a week, each told apart from the rest of
//! its kind by its best-before day ("carton of semi-skimmed milk, best
//! before day 19": the week it is for, plus the days the kind keeps);
//! the shop buys only what still has most of its life ahead
//! ([`Stocked::fresh_on`]), so a week not shopped for stays in the shop.
//! Supplies (used up, but never going off: detergent) are stocked one
//! every four weeks, told apart, as parcels are, by the catalogue's
//! `labels` ("bottle of laundry detergent for sensitive skin"). Parcels,
//! three a week (the most the calendar's courier calls), are told apart
//! by their sender. Deterministic: no draw, ids continuing the scene's
//! (`milk_7`).

use std::collections::BTreeSet;

use crate::catalogue::Catalogue;
use crate::catalogue::bought::{best_before, with_best_before};
use crate::ids::Id;
use crate::scene::{ActorKind, ObjectDef, Placement, Role, Scene};

/// Food of a kind bought each week.
const PER_WEEK: u32 = 2;
/// Parcels that may come each week (the calendar's `deliveries` at most).
const PARCELS_PER_WEEK: u32 = 3;
/// Weeks a supply (a bottle of detergent) is stocked for.
const SUPPLY_WEEKS: u32 = 4;

/// `scene` with the food and parcels that may come in over `days` days
/// waiting outside.
pub fn provision(scene: &Scene, days: u32, cat: &Catalogue) -> Scene {
    let mut out = scene.clone();
    let mut ids: BTreeSet<Id> = scene.objects.iter().map(|o| o.id.clone()).collect();
    let weeks = days.div_ceil(7);
    let mut fresh_id = |category: &str| {
        let slug = category.replace([' ', '-'], "_");
        let id = (1..)
            .map(|k| Id::new(&format!("{slug}_{k}")))
            .find(|id| !ids.contains(id))
            .expect("an unused id");
        ids.insert(id.clone());
        id
    };
    // Food: the kinds in the house that are used up, in catalogue order,
    // bought again as they are (the descriptions the house has, in turn).
    for c in &cat.objects {
        let (Some(_), Some(keeps)) = (c.servings, c.keeps) else {
            continue;
        };
        let kept: Vec<&ObjectDef> = scene
            .objects
            .iter()
            .filter(|o| o.category == c.category && o.at != Placement::Outside)
            .collect();
        if kept.is_empty() {
            continue;
        }
        for week in 1..=weeks {
            for j in 0..PER_WEEK {
                let like = kept[((week - 1) * PER_WEEK + j) as usize % kept.len()];
                let day = 7 * week + keeps + j;
                out.objects.push(ObjectDef {
                    id: fresh_id(&c.category),
                    category: c.category.clone(),
                    description: with_best_before(&like.description, day),
                    owner: None,
                    at: Placement::Outside,
                    roles: vec![],
                });
            }
        }
    }
    let mut taken: BTreeSet<(String, Option<Id>)> = scene
        .objects
        .iter()
        .map(|o| (o.description.clone(), o.owner.clone()))
        .collect();
    // Supplies kept in the house, one every four weeks, each a label of
    // its kind's in turn (as many as there are).
    for c in &cat.objects {
        let (Some(_), None) = (c.servings, c.keeps) else {
            continue;
        };
        let kept = |o: &&ObjectDef| o.category == c.category && o.at != Placement::Outside;
        if c.variants.is_empty() || !scene.objects.iter().any(|o| kept(&o)) {
            continue;
        }
        let descriptions = labelled(&c.variants, &c.labels);
        let mut left = weeks.div_ceil(SUPPLY_WEEKS);
        for description in descriptions {
            if left == 0 {
                break;
            }
            if taken.insert((description.clone(), None)) {
                out.objects.push(ObjectDef {
                    id: fresh_id(&c.category),
                    category: c.category.clone(),
                    description,
                    owner: None,
                    at: Placement::Outside,
                    roles: vec![],
                });
                left -= 1;
            }
        }
    }
    // Parcels, for the people of the house in turn (not its callers).
    let people: Vec<Id> = scene
        .actors
        .iter()
        .filter(|a| a.kind == ActorKind::Human && !a.is_visitor())
        .map(|a| a.id.clone())
        .collect();
    let parcel = cat
        .objects
        .iter()
        .find(|c| c.roles.contains(&Role::Delivery) && !c.variants.is_empty());
    if let (Some(c), false) = (parcel, people.is_empty()) {
        let descriptions = labelled(&c.variants, &c.labels);
        let mut made = 0;
        for i in 0..descriptions.len() * people.len() {
            if made == weeks * PARCELS_PER_WEEK {
                break;
            }
            let owner = people[i % people.len()].clone();
            let description = descriptions[i / people.len()].clone();
            if !taken.insert((description.clone(), Some(owner.clone()))) {
                continue;
            }
            out.objects.push(ObjectDef {
                id: fresh_id(&c.category),
                category: c.category.clone(),
                description,
                owner: Some(owner),
                at: Placement::Outside,
                roles: vec![],
            });
            made += 1;
        }
    }
    out
}

/// Each variant with each label ("small box from a bookshop"), variants
/// first; the variants alone where there are no labels.
fn labelled(variants: &[String], labels: &[String]) -> Vec<String> {
    if labels.is_empty() {
        return variants.to_vec();
    }
    (labels.iter())
        .flat_map(|l| variants.iter().map(move |v| format!("{v} {l}")))
        .collect()
}

/// Food and supplies waiting in the shop: the kind, and a food's
/// best-before day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Stocked {
    pub id: Id,
    pub category: String,
    pub best_before: Option<u32>,
}

impl Stocked {
    /// What [`provision`] put outside in `scene`, in scene order: food
    /// marked with its best-before day, supplies with a label of their
    /// kind's.
    pub fn of(scene: &Scene, cat: &Catalogue) -> Vec<Stocked> {
        let supply = |o: &ObjectDef| {
            cat.category(&o.category).is_some_and(|c| {
                c.servings.is_some()
                    && c.keeps.is_none()
                    && !c.labels.is_empty()
                    && labelled(&c.variants, &c.labels).contains(&o.description)
            })
        };
        (scene.objects.iter())
            .filter(|o| o.at == Placement::Outside)
            .filter_map(|o| {
                let best_before = best_before(&o.description);
                (best_before.is_some() || supply(o)).then(|| Stocked {
                    id: o.id.clone(),
                    category: o.category.clone(),
                    best_before,
                })
            })
            .collect()
    }

    /// Whether it is bought on `day` (1-based): more than half of its
    /// `keeps` days still ahead of it (a supply always).
    pub fn fresh_on(&self, day: u32, keeps: u32) -> bool {
        self.best_before
            .is_none_or(|b| b >= day + keeps.div_ceil(2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_week_of_food_and_parcels_waits_outside_told_apart() {
        let cat = crate::catalogue::builtin();
        let scene = crate::scene::default_scene();
        let two = provision(&scene, 14, cat);
        let added = &two.objects[scene.objects.len()..];
        assert!(added.iter().all(|o| o.at == Placement::Outside));
        // Milk is kept in the family apartment: two a week, fresh labels.
        let milk: Vec<&ObjectDef> = added.iter().filter(|o| o.category == "milk").collect();
        assert_eq!(milk.len(), 4, "{milk:?}");
        assert!(
            milk[0].description.ends_with("best before day 14"),
            "{milk:?}"
        );
        assert!(
            milk[3].description.ends_with("best before day 22"),
            "{milk:?}"
        );
        let parcels = added.iter().filter(|o| o.category == "parcel").count();
        assert_eq!(parcels, 6);
        // Valid: ids and (category, description, owner) unique.
        let problems = crate::scene::validate(&two);
        assert!(problems.is_empty(), "{problems:?}");
        let stocked = Stocked::of(&two, cat);
        assert_eq!(stocked.len(), added.len() - parcels);
        assert_eq!(stocked[0].id, milk[0].id);
        assert_eq!(stocked[0].best_before, Some(14));
        // Bought with more than half its life ahead, not after.
        assert!(stocked[0].fresh_on(10, 7));
        assert!(!stocked[0].fresh_on(11, 7));
        // Nothing kept that is used up, no people: nothing added.
        let bare = Scene {
            objects: vec![],
            ..scene.clone()
        };
        assert_eq!(provision(&bare, 56, cat).objects.len(), 24);
        let empty = Scene {
            objects: vec![],
            actors: vec![],
            ..scene
        };
        assert!(provision(&empty, 56, cat).objects.is_empty());
    }
}
