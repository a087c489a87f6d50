//! The robot's commitments: asked for in one session, due at a time, done
//! or failed in a session of their own (or the next one that comes due
//! early enough).

use std::collections::BTreeSet;

use crate::generation::{Commitment, CommitmentStatus, Goal};
use crate::ids::Id;
use crate::trace::DAY;

/// A commitment session also takes up commitments due this soon after it.
pub(in super::super) const EARLY: u64 = 30 * 60;

#[derive(Debug, Clone, Default)]
pub(in super::super) struct Commitments {
    /// Every commitment asked for, in order (ids `c1`, `c2`, ...).
    all: Vec<Commitment>,
    /// Due times (trace seconds) that already have a commitment session.
    scheduled: BTreeSet<u64>,
}

impl Commitments {
    /// Every commitment so far (the day's notes).
    pub fn all(&self) -> &[Commitment] {
        &self.all
    }

    /// The robot is asked, in session `asked_in`, to pursue `goal` by
    /// `due` for `by`.
    pub fn ask(&mut self, by: &Id, asked_in: &str, due: u64, goal: Goal) {
        self.all.push(Commitment {
            id: format!("c{}", self.all.len() + 1),
            by: by.clone(),
            asked_in: asked_in.to_string(),
            due,
            goal,
            status: CommitmentStatus::Open,
        });
    }

    /// The times of day (seconds) open commitments fall due on `day`, in
    /// order, each once; each now has its session.
    pub fn due_on(&mut self, day: u32) -> Vec<u64> {
        let base = u64::from(day - 1) * DAY;
        let mut due: Vec<u64> = self
            .open()
            .filter(|c| c.due / DAY + 1 == u64::from(day))
            .map(|c| c.due % DAY)
            .collect();
        due.sort_unstable();
        due.dedup();
        self.scheduled.extend(due.iter().map(|at| base + at));
        due
    }

    /// Due times after `from` and before `to` (trace seconds) with no
    /// session yet, in order; each is given one, numbered from 1 in the
    /// order sessions were given: `(time, number)`.
    pub fn follow_ups(&mut self, from: u64, to: u64) -> Vec<(u64, usize)> {
        let mut due: Vec<u64> = self
            .open()
            .map(|c| c.due)
            .filter(|d| *d > from && *d < to && !self.scheduled.contains(d))
            .collect();
        due.sort_unstable();
        due.dedup();
        due.into_iter()
            .map(|at| {
                self.scheduled.insert(at);
                (at, self.scheduled.len())
            })
            .collect()
    }

    /// The open commitments due by `t`: their indices.
    pub fn due_by(&self, t: u64) -> Vec<usize> {
        (0..self.all.len())
            .filter(|&i| self.all[i].status == CommitmentStatus::Open && self.all[i].due <= t)
            .collect()
    }

    pub fn get(&self, i: usize) -> &Commitment {
        &self.all[i]
    }

    /// Nothing asked in session `id` reached the robot (docked away):
    /// those are failed (and kept, for unique ids).
    pub fn unheard(&mut self, id: &str) {
        for c in self.all.iter_mut().filter(|c| c.asked_in == id) {
            c.status = CommitmentStatus::Failed;
        }
    }

    /// The errand of a commitment session (started at `start`) ended:
    /// every open commitment of that goal due by then is done or failed
    /// (the same thing asked twice is done once).
    pub fn settle(&mut self, goal: &Goal, start: u64, ok: bool) {
        for c in self.all.iter_mut().filter(|c| {
            c.status == CommitmentStatus::Open && &c.goal == goal && c.due <= start + EARLY
        }) {
            c.status = if ok {
                CommitmentStatus::Done
            } else {
                CommitmentStatus::Failed
            };
        }
    }

    fn open(&self) -> impl Iterator<Item = &Commitment> {
        self.all
            .iter()
            .filter(|c| c.status == CommitmentStatus::Open)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn goto(t: &str) -> Goal {
        Goal::GoTo { target: Id::new(t) }
    }

    #[test]
    fn the_same_thing_asked_twice_is_settled_once() {
        let mut c = Commitments::default();
        let alice = Id::new("alice");
        c.ask(&alice, "s1", 9 * 3600, goto("sofa"));
        c.ask(&alice, "s2", 10 * 3600, goto("sofa"));
        c.ask(&alice, "s3", 10 * 3600, goto("desk"));
        assert_eq!(c.due_by(11 * 3600), vec![0, 1, 2]);
        c.settle(&goto("sofa"), 11 * 3600, true);
        assert_eq!(c.due_by(11 * 3600), vec![2]);
        assert!(
            c.all()[..2]
                .iter()
                .all(|x| x.status == CommitmentStatus::Done)
        );
    }

    #[test]
    fn commitments_fall_due_settle_and_are_numbered() {
        let mut c = Commitments::default();
        let bob = Id::new("bob");
        c.ask(&bob, "d1s01", 9 * 3600, goto("desk"));
        c.ask(&bob, "d1s02", 9 * 3600, goto("sofa"));
        c.ask(&bob, "d1s03", DAY + 8 * 3600, goto("bed"));
        assert_eq!(c.all()[2].id, "c3");
        assert_eq!(c.due_on(1), vec![9 * 3600], "one session per due time");
        assert_eq!(c.due_on(2), vec![8 * 3600]);
        assert!(c.follow_ups(0, 2 * DAY).is_empty(), "all have a session");
        assert_eq!(c.due_by(9 * 3600), vec![0, 1]);
        c.settle(&goto("sofa"), 9 * 3600 - EARLY, true);
        c.settle(&goto("desk"), 9 * 3600 - EARLY, false);
        assert!(c.due_by(9 * 3600).is_empty());
        assert_eq!(c.get(0).status, CommitmentStatus::Failed);
        assert_eq!(c.get(1).status, CommitmentStatus::Done);
        c.unheard("d1s03");
        assert_eq!(c.all()[2].status, CommitmentStatus::Failed);
    }

    #[test]
    fn follow_ups_are_given_once_in_order() {
        let mut c = Commitments::default();
        let lily = Id::new("lily");
        c.ask(&lily, "d1s01", 15 * 3600, goto("desk"));
        c.ask(&lily, "d1s01", 11 * 3600, goto("desk"));
        assert_eq!(
            c.follow_ups(10 * 3600, DAY),
            vec![(11 * 3600, 1), (15 * 3600, 2)]
        );
        assert!(c.follow_ups(10 * 3600, DAY).is_empty());
    }
}
