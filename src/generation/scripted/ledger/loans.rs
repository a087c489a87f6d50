//! Books lent to visitors: one goes home with a guest and comes back at
//! their next call.

use std::collections::BTreeMap;

use crate::ids::Id;

#[derive(Debug, Clone, Default)]
pub(in super::super) struct Loans {
    /// Visitor → the book they have.
    lent: BTreeMap<Id, Id>,
}

impl Loans {
    /// The book `visitor` has, if any.
    pub fn lent_to(&self, visitor: &Id) -> Option<&Id> {
        self.lent.get(visitor)
    }

    pub fn has(&self, visitor: &Id) -> bool {
        self.lent.contains_key(visitor)
    }

    pub fn lend(&mut self, visitor: &Id, book: Id) {
        self.lent.insert(visitor.clone(), book);
    }

    /// `visitor` brought their book back.
    pub fn returned(&mut self, visitor: &Id) {
        self.lent.remove(visitor);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_book_goes_with_a_visitor_and_comes_back() {
        let (carol, book) = (Id::new("carol"), Id::new("book_2"));
        let mut l = Loans::default();
        assert!(!l.has(&carol));
        l.lend(&carol, book.clone());
        assert_eq!(l.lent_to(&carol), Some(&book));
        l.returned(&carol);
        assert!(l.lent_to(&carol).is_none());
    }
}
