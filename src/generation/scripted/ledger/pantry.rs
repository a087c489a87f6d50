//! The pantry: food used up. What is finished (its last serving used, as
//! the world's `level` says, or gone off) and waits in the bin to be taken
//! out, and the shopping list: a kind once for each one finished since the
//! last shop, bought again one for one. The servings left are the world's
//! to keep (`use`), not the ledger's.

use std::collections::BTreeSet;

use crate::ids::Id;

#[derive(Debug, Clone, Default)]
pub(in super::super) struct Pantry {
    /// Finished or gone off: no part in the house's meals again.
    finished: BTreeSet<Id>,
    /// Kinds to buy, one entry for each one finished, in that order.
    list: Vec<String>,
    /// Finished and not yet taken out of the house, in that order.
    rubbish: Vec<Id>,
}

impl Pantry {
    /// A serving of `o` used, with `left` in it before (the world's
    /// `level`): whether that was the last (it is rubbish now, and its
    /// kind on the list). One found empty is finished as well.
    pub fn use_one(&mut self, o: &Id, category: &str, left: u32) -> bool {
        if left > 1 || self.finished.contains(o) {
            return false;
        }
        self.finish(o, category);
        true
    }

    /// `o` went off before it was finished: rubbish, and on the list.
    pub fn spoil(&mut self, o: &Id, category: &str) {
        if !self.finished(o) {
            self.finish(o, category);
        }
    }

    fn finish(&mut self, o: &Id, category: &str) {
        self.finished.insert(o.clone());
        self.rubbish.push(o.clone());
        self.list.push(category.to_string());
    }

    /// `o` thrown out (a parcel's box once opened): rubbish, not listed.
    pub fn throw(&mut self, o: &Id) {
        if !self.rubbish.contains(o) {
            self.rubbish.push(o.clone());
        }
    }

    /// Whether `o` is used up (or went off).
    pub fn finished(&self, o: &Id) -> bool {
        self.finished.contains(o)
    }

    /// The shopping list: kinds, once for each one finished.
    pub fn list(&self) -> &[String] {
        &self.list
    }

    /// `category` bought: one entry off the list.
    pub fn bought(&mut self, category: &str) {
        if let Some(i) = self.list.iter().position(|c| c == category) {
            self.list.remove(i);
        }
    }

    /// What is finished and still in the house.
    pub fn rubbish(&self) -> &[Id] {
        &self.rubbish
    }

    /// `o` went out of the house with the rubbish: whether it was rubbish.
    pub fn taken_out(&mut self, o: &Id) -> bool {
        let was = self.rubbish.contains(o);
        self.rubbish.retain(|r| r != o);
        was
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thing_is_finished_after_its_servings_listed_once_and_taken_out_once() {
        let mut p = Pantry::default();
        let milk = Id::new("milk_1");
        assert!(!p.use_one(&milk, "milk", 3));
        assert!(!p.use_one(&milk, "milk", 2));
        assert!(!p.finished(&milk));
        assert!(p.use_one(&milk, "milk", 1), "the third serving is the last");
        assert!(p.finished(&milk));
        assert!(!p.use_one(&milk, "milk", 0), "finished once");
        assert_eq!(p.list(), ["milk".to_string()]);
        assert_eq!(p.rubbish(), std::slice::from_ref(&milk));
        // A second one finished lists the kind again: two to buy.
        let other = Id::new("milk_2");
        assert!(p.use_one(&other, "milk", 1));
        assert_eq!(p.list().len(), 2);
        p.bought("milk");
        p.bought("bread");
        assert_eq!(p.list(), ["milk".to_string()]);
        assert!(p.taken_out(&milk));
        assert!(!p.taken_out(&milk), "taken out once");
        assert!(!p.taken_out(&Id::new("laptop_1")));
        assert_eq!(p.rubbish(), std::slice::from_ref(&other));
        // Gone off: rubbish and listed once, whatever was left in it.
        let yogurt = Id::new("yogurt_1");
        assert!(!p.use_one(&yogurt, "yogurt", 4));
        let eggs = Id::new("eggs_1");
        assert!(p.use_one(&eggs, "eggs", 0), "found empty: finished");
        p.bought("eggs");
        p.spoil(&yogurt, "yogurt");
        p.spoil(&yogurt, "yogurt");
        assert!(p.finished(&yogurt));
        assert_eq!(p.rubbish(), [other, eggs, yogurt]);
        assert_eq!(p.list(), ["milk".to_string(), "yogurt".into()]);
        let parcel = Id::new("parcel_1");
        p.throw(&parcel);
        p.throw(&parcel);
        assert_eq!(p.rubbish().len(), 4);
        assert_eq!(
            p.list().len(),
            2,
            "a box thrown out is bought again by nobody"
        );
    }
}
