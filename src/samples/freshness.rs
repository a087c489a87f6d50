//! The freshness rule: whether what the robot last saw of an attribute is
//! still current at a cutoff, or possibly changed out of its sight, by
//! what the robot itself perceived (its own moves and standby, where it
//! saw the people), never by the truth. docs/samples.md states the rule
//! for users; the checks hold every current answer to the truth.

use crate::ids::Id;
use crate::trace::{Location, Value};

use super::index::{Index, Key, Seen};
use super::model::Act;

impl Index<'_> {
    /// The freshness rule (docs/samples.md, "What the robot could know,
    /// and what was true"): whether the robot's last sight of `key`, `seen`, still
    /// holds at `cutoff` by what the robot itself perceived. It does when,
    /// from that sight to the cutoff, the robot stayed where every act on
    /// the thing is perceived: in the room the thing was in (either room
    /// of a door; for a thing in someone's hands, the room it saw them in,
    /// which they did not leave in its sight), never in standby; a thing
    /// in the robot's own hands stays as it is. Anything else (it left the
    /// room, docked, the holder walked off, the thing went out of the
    /// house, or the robot saw it from elsewhere) makes the value possibly
    /// changed, until the robot sees it again. Sound by the visibility
    /// rules: every change the robot could miss needs an actor out of its
    /// sight, which the rule does not allow, and the checks hold every
    /// current answer to the truth ([`super::validate`]).
    pub fn current(&self, key: &Key, seen: &Seen, cutoff: u64) -> bool {
        let (s, t) = (&self.tables, seen.event);
        let between = |list: &[u64]| {
            let i = list.partition_point(|e| *e <= t);
            list.get(i).is_some_and(|e| *e < cutoff)
        };
        if between(&s.standby) {
            return false;
        }
        let rooms: Vec<&Id> = if key.1.as_str() == "location" {
            match &seen.value {
                Value::Location(Location::On(f) | Location::In(f)) => {
                    self.fixture_room(f).into_iter().collect()
                }
                Value::Location(Location::HeldBy(p) | Location::CarriedBy(p))
                    if *p == self.robot =>
                {
                    return true;
                }
                Value::Location(Location::HeldBy(p) | Location::CarriedBy(p)) => {
                    // Seen in their hands in the robot's room, and not
                    // seen anywhere else since.
                    let w = s.whereabouts.get(p).map_or(&[][..], Vec::as_slice);
                    let at = w.partition_point(|(e, _)| *e <= t);
                    let upto = w.partition_point(|(e, _)| *e < cutoff);
                    match at.checked_sub(1).map(|i| &w[i].1) {
                        Some(room) if w[at..upto].iter().all(|(_, r)| r == room) => vec![room],
                        _ => return false,
                    }
                }
                _ => vec![],
            }
        } else if let Some(d) = self.scene.doors.iter().find(|d| d.id == key.0) {
            vec![&d.rooms.0, &d.rooms.1]
        } else if let Some(r) = self.fixture_room(&key.0) {
            vec![r]
        } else {
            // Another attribute of a movable thing: where the robot last
            // saw it, if that is current too.
            let loc = (key.0.clone(), Id::new("location"));
            match self.seen_before(&loc, cutoff).last() {
                Some(l) if self.current(&loc, l, cutoff) => {
                    let at = Seen {
                        event: t,
                        value: l.value.clone(),
                    };
                    return self.current(&loc, &at, cutoff);
                }
                _ => return false,
            }
        };
        let r = &s.robot_rooms;
        let from = r.partition_point(|(e, _)| *e <= t);
        let upto = r.partition_point(|(e, _)| *e < cutoff);
        self.robot_room(t).is_some_and(|h| rooms.contains(&h))
            && r[from..upto].iter().all(|(_, room)| rooms.contains(&room))
    }

    /// Where the robot was just after event `t`, by its own moves.
    fn robot_room(&self, t: u64) -> Option<&Id> {
        let r = &self.tables.robot_rooms;
        match r[..r.partition_point(|(e, _)| *e <= t)].last() {
            Some((_, room)) => Some(room),
            None => match self
                .tables
                .initial
                .get(&(self.robot.clone(), Id::new("position")))
            {
                Some(Value::Position(p)) => Some(&p.room),
                _ => None,
            },
        }
    }

    /// Whether the robot watched `key` without a break through `seen`
    /// (its sights of it, in order) to `cutoff`: each sight still current
    /// at the next, the last at the cutoff.
    pub fn watched(&self, key: &Key, seen: &[Seen], cutoff: u64) -> bool {
        seen.windows(2)
            .all(|w| self.current(key, &w[0], w[1].event))
            && seen.last().is_some_and(|l| self.current(key, l, cutoff))
    }

    /// Whether the robot watched `key` without a break from event `from`
    /// to `to`, so that no change of it escaped it: a door, a device or
    /// furniture by the freshness rule from `from` (they stay in their
    /// rooms); anything else from its last sight at or before `from`, each
    /// sight current at the next and the last at `to`.
    pub fn watched_over(&self, key: &Key, from: u64, to: u64) -> bool {
        if self.fixed(&key.0) && key.1.as_str() != "location" {
            let seen = Seen {
                event: from,
                value: Value::Bool(true),
            };
            return self.current(key, &seen, to);
        }
        let seen = self.seen_before(key, to);
        let k = seen.partition_point(|s| s.event <= from);
        k > 0 && self.watched(key, &seen[k - 1..], to)
    }

    /// Whether the robot could have missed nobody's doing `act` again
    /// after event `e`: it watched what the act is done to without a break
    /// since (every act on a thing is perceived by everyone in its room).
    /// Else the last time it saw is only the latest it saw.
    pub fn watched_since(&self, act: &Act, e: u64, cutoff: u64) -> bool {
        let Some(thing) = act.object.as_ref().or(act.target.as_ref()) else {
            return false;
        };
        let attr = if self.fixed(thing) {
            "open"
        } else {
            "location"
        };
        self.watched_over(&(thing.clone(), Id::new(attr)), e, cutoff)
    }

    /// Whether `id` stays in its room(s): a door, furniture or a device.
    fn fixed(&self, id: &Id) -> bool {
        self.scene.doors.iter().any(|d| d.id == *id) || self.fixture_room(id).is_some()
    }

    /// The room of the furniture or device `id`.
    fn fixture_room(&self, id: &Id) -> Option<&Id> {
        let sc = self.scene;
        sc.furniture
            .iter()
            .find(|f| f.id == *id)
            .map(|f| &f.room)
            .or_else(|| sc.devices.iter().find(|d| d.id == *id).map(|d| &d.room))
    }

    /// How many events before `cutoff` could make a current view
    /// possibly out of date (see [`Index::current`]): while it does not
    /// grow, current answers stay current.
    pub fn unsettling(&self, cutoff: u64) -> usize {
        self.tables.unsettling.partition_point(|e| *e < cutoff)
    }
}
