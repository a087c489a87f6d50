//! The doorstep: what comes into the house from beyond the front door and
//! what goes out and stays out. Parcels still to be delivered, those left
//! on the doorstep, the food waiting to be bought, things left at work
//! (brought home next time), and when each person last came in.

use std::collections::BTreeMap;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::ids::Id;

#[derive(Debug, Clone, Default)]
pub(in super::super) struct Doorstep {
    /// Parcels still to be delivered, in scene order.
    parcels: Vec<Id>,
    /// Parcels on the doorstep: (trace seconds left there, parcel).
    waiting: Vec<(u64, Id)>,
    /// Food waiting outside to be bought, in scene order.
    groceries: Vec<Id>,
    /// Things left out of the house (at work) → by whom: brought home at
    /// their next arrival.
    left_out: BTreeMap<Id, Id>,
    /// When each person last came in (trace seconds).
    came_in: BTreeMap<Id, u64>,
}

impl Doorstep {
    /// What starts beyond the front door: `parcels` to be delivered and
    /// `groceries` to be bought.
    pub fn new(parcels: Vec<Id>, groceries: Vec<Id>) -> Self {
        Doorstep {
            parcels,
            groceries,
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
        let parcels = self
            .waiting
            .iter()
            .filter(|(t, _)| *t <= now)
            .map(|(_, p)| p.clone())
            .collect();
        self.waiting.retain(|(t, _)| *t > now);
        parcels
    }

    /// The weekly shop: two or three of the food waiting, bought (fewer if
    /// fewer are left).
    pub fn shop(&mut self, rng: &mut ChaCha8Rng) -> Vec<Id> {
        let n = self.groceries.len().min(rng.random_range(2..=3));
        self.groceries.drain(..n).collect()
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
        let mut d = Doorstep::new(ids(&["parcel_1", "parcel_2"]), vec![]);
        let p1 = d.next_parcel().unwrap();
        d.leave(100, p1.clone());
        assert!(d.take_in(99).is_empty());
        assert_eq!(d.take_in(100), vec![p1]);
        assert!(d.take_in(500).is_empty(), "taken in once");
        assert_eq!(d.next_parcel(), Some(Id::new("parcel_2")));
        assert_eq!(d.next_parcel(), None);
    }

    #[test]
    fn the_shop_buys_what_is_left_and_things_left_at_work_come_back() {
        let mut d = Doorstep::new(vec![], ids(&["milk", "bread", "eggs", "apples"]));
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let first = d.shop(&mut rng);
        assert!((2..=3).contains(&first.len()));
        let rest = d.shop(&mut rng);
        assert_eq!(first.len() + rest.len(), 4, "{first:?} {rest:?}");
        assert!(d.shop(&mut rng).is_empty());
        let bob = Id::new("bob");
        d.leave_out(Id::new("laptop_1"), &bob);
        assert!(d.bring_back(&Id::new("alice")).is_empty());
        assert_eq!(d.bring_back(&bob), ids(&["laptop_1"]));
        assert!(d.bring_back(&bob).is_empty());
        d.came_in(&bob, 42);
        assert_eq!(d.last_in(&bob), Some(42));
    }
}
