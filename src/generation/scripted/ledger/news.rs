//! What the robot, alone at home, tells the first one back: what it put
//! where (a parcel taken in, things put back) and anything else that
//! happened (the repair technician's visit).

use crate::generation::Dest;
use crate::ids::Id;

/// What the robot put where: (trace seconds, object, where it went).
pub(in super::super) type Put = (u64, Id, Dest);

#[derive(Debug, Clone, Default)]
pub(in super::super) struct News {
    /// (trace seconds, object, where it went).
    put: Vec<Put>,
    /// (trace seconds, words).
    said: Vec<(u64, String)>,
}

impl News {
    /// The robot put `object` at `to` at `t`.
    pub fn put(&mut self, t: u64, object: Id, to: Dest) {
        self.put.push((t, object, to));
    }

    /// Something else to tell, in words, that happened at `t`.
    pub fn tell(&mut self, t: u64, words: String) {
        self.said.push((t, words));
    }

    pub fn is_empty(&self) -> bool {
        self.put.is_empty() && self.said.is_empty()
    }

    /// Everything to tell, taken (told once): what was put where, and the
    /// rest in words.
    pub fn take(&mut self) -> (Vec<Put>, Vec<(u64, String)>) {
        (
            std::mem::take(&mut self.put),
            std::mem::take(&mut self.said),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn news_is_told_once() {
        let mut n = News::default();
        assert!(n.is_empty());
        n.put(10, Id::new("parcel_1"), Dest::On(Id::new("console_table")));
        n.tell(20, "the technician came".into());
        let (put, said) = n.take();
        assert_eq!((put.len(), said.len()), (1, 1));
        assert!(n.is_empty());
    }
}
