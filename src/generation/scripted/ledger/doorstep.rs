//! The doorstep: what comes into the house from beyond the front door and
//! what goes out and stays out. Parcels still to be delivered, those left
//! on the doorstep, the food waiting to be bought (the scene's own, and
//! the shop's stock for the months: `stock.rs`), things left at work
//! (brought home next time), and when each person last came in.

use std::collections::BTreeMap;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::super::stock::Stocked;
use crate::ids::Id;

#[derive(Debug, Clone, Default)]
pub(in super::super) struct Doorstep {
    /// Parcels still to be delivered, in scene order.
    parcels: Vec<Id>,
    /// Parcels on the doorstep: (trace seconds left there, parcel).
    waiting: Vec<(u64, Id)>,
    /// The scene's own food waiting outside to be bought, in scene order.
    groceries: Vec<Id>,
    /// The shop's stock: what the shopping list is bought from.
    stock: Vec<Stocked>,
    /// Things left out of the house (at work) → by whom: brought home at
    /// their next arrival.
    left_out: BTreeMap<Id, Id>,
    /// When each person last came in (trace seconds).
    came_in: BTreeMap<Id, u64>,
    /// Parcels taken in and not yet opened, in that order.
    unopened: Vec<Id>,
}

impl Doorstep {
    /// What starts beyond the front door: `parcels` to be delivered,
    /// `groceries` to be bought and the shop's `stock`.
    pub fn new(parcels: Vec<Id>, groceries: Vec<Id>, stock: Vec<Stocked>) -> Self {
        Doorstep {
            parcels,
            groceries,
            stock,
            ..Doorstep::default()
        }
    }

    /// The next parcel to be delivered, if any is left.
    pub fn next_parcel(&mut self) -> Option<Id> {
        (!self.parcels.is_empty()).then(|| self.parcels.remove(0))
    }

    /// `parcel` is left on the doorstep at `t`.
    pub fn leave(&mut self, t: u64, parcel: Id) {
        self.waiting.push((t, parcel));
    }

    /// The parcels left on the doorstep by `now`, taken in.
    pub fn take_in(&mut self, now: u64) -> Vec<Id> {
        let parcels: Vec<Id> = self
            .waiting
            .iter()
            .filter(|(t, _)| *t <= now)
            .map(|(_, p)| p.clone())
            .collect();
        self.waiting.retain(|(t, _)| *t > now);
        self.unopened.extend(parcels.iter().cloned());
        parcels
    }

    /// `parcel` handed over at the door.
    pub fn received(&mut self, parcel: Id) {
        self.unopened.push(parcel);
    }

    /// Parcels in the house not yet opened.
    pub fn unopened(&self) -> &[Id] {
        &self.unopened
    }

    /// `parcel` opened (its box thrown out).
    pub fn opened(&mut self, parcel: &Id) {
        self.unopened.retain(|p| p != parcel);
    }

    /// A shop on `day`: two or three of the scene's food waiting (fewer if
    /// fewer are left), and one of each kind on `list` from the stock,
    /// the first still fresh (`keeps`: the days a kind keeps); what was
    /// bought of the list is `(kind, thing)`.
    pub fn shop(
        &mut self,
        rng: &mut ChaCha8Rng,
        day: u32,
        list: &[String],
        keeps: impl Fn(&str) -> u32,
    ) -> (Vec<Id>, Vec<(String, Id)>) {
        let n = self.groceries.len().min(rng.random_range(2..=3));
        let food = self.groceries.drain(..n).collect();
        let mut listed = vec![];
        for c in list {
            let fresh = |s: &Stocked| &s.category == c && s.fresh_on(day, keeps(c));
            if let Some(i) = self.stock.iter().position(fresh) {
                listed.push((c.clone(), self.stock.remove(i).id));
            }
        }
        (food, listed)
    }

    /// `object` stays out of the house (at work) until `by` is next home.
    pub fn leave_out(&mut self, object: Id, by: &Id) {
        self.left_out.insert(object, by.clone());
    }

    /// What `who` left out, brought home now.
    pub fn bring_back(&mut self, who: &Id) -> Vec<Id> {
        let left: Vec<Id> = self
            .left_out
            .iter()
            .filter(|(_, by)| *by == who)
            .map(|(o, _)| o.clone())
            .collect();
        for o in &left {
            self.left_out.remove(o);
        }
        left
    }

    /// `who` came in at `t`.
    pub fn came_in(&mut self, who: &Id, t: u64) {
        self.came_in.insert(who.clone(), t);
    }

    /// When `who` last came in.
    pub fn last_in(&self, who: &Id) -> Option<u64> {
        self.came_in.get(who).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn ids(xs: &[&str]) -> Vec<Id> {
        xs.iter().map(|x| Id::new(x)).collect()
    }

    #[test]
    fn parcels_come_in_order_and_wait_on_the_doorstep() {
        let mut d = Doorstep::new(ids(&["parcel_1", "parcel_2"]), vec![], vec![]);
        let p1 = d.next_parcel().unwrap();
        d.leave(100, p1.clone());
        assert!(d.take_in(99).is_empty());
        assert_eq!(d.take_in(100), vec![p1.clone()]);
        assert!(d.take_in(500).is_empty(), "taken in once");
        // Taken in or handed over, it waits to be opened, once.
        d.received(Id::new("parcel_9"));
        assert_eq!(d.unopened(), ids(&["parcel_1", "parcel_9"]));
        d.opened(&p1);
        assert_eq!(d.unopened(), ids(&["parcel_9"]));
        assert_eq!(d.next_parcel(), Some(Id::new("parcel_2")));
        assert_eq!(d.next_parcel(), None);
    }

    #[test]
    fn the_shop_buys_what_is_left_and_things_left_at_work_come_back() {
        let stocked = |id: &str, category: &str, best_before| Stocked {
            id: Id::new(id),
            category: category.into(),
            best_before,
        };
        let stock = vec![
            stocked("milk_5", "milk", Some(14)),
            stocked("milk_6", "milk", Some(21)),
            stocked("bread_4", "bread", Some(12)),
            stocked("detergent_2", "detergent", None),
        ];
        let mut d = Doorstep::new(vec![], ids(&["milk", "bread", "eggs", "apples"]), stock);
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let keeps = |c: &str| if c == "milk" { 7 } else { 5 };
        let (first, listed) = d.shop(&mut rng, 3, &[], keeps);
        assert!((2..=3).contains(&first.len()));
        assert!(
            listed.is_empty(),
            "nothing on the list, nothing of the stock"
        );
        // Day 12: the milk of day 14 has too little life left, the next
        // one is bought; the bread is past it; two milks listed, one fresh.
        // A supply keeps: bought whatever the day.
        let list = [
            "milk".to_string(),
            "milk".into(),
            "bread".into(),
            "detergent".into(),
        ];
        let (rest, listed) = d.shop(&mut rng, 12, &list, keeps);
        assert_eq!(first.len() + rest.len(), 4, "{first:?} {rest:?}");
        assert_eq!(
            listed,
            vec![
                ("milk".to_string(), Id::new("milk_6")),
                ("detergent".to_string(), Id::new("detergent_2"))
            ]
        );
        let (food, listed) = d.shop(&mut rng, 12, &list, keeps);
        assert!(food.is_empty() && listed.is_empty());
        let bob = Id::new("bob");
        d.leave_out(Id::new("laptop_1"), &bob);
        assert!(d.bring_back(&Id::new("alice")).is_empty());
        assert_eq!(d.bring_back(&bob), ids(&["laptop_1"]));
        assert!(d.bring_back(&bob).is_empty());
        d.came_in(&bob, 42);
        assert_eq!(d.last_in(&bob), Some(42));
    }
}
