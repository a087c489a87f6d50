//! Where a thing is, whether it is open or on, what it was before it
//! changed: docs/samples.md, "What the robot could know, and what was
//! true" (the calibrated answer and the freshness rule) and the
//! overwritten-state line of the families table.

use hearth::ids::Id;
use hearth::samples::Answer;
use hearth::trace::request::Action;
use hearth::trace::{ClaimMode, Location, Value};

use super::{Eyes, Got, Reference, Unsettled};

impl Reference<'_> {
    /// What `entity.attr` is, as far as `eyes` know: the last value seen,
    /// current or possibly changed by the freshness rule; not known when
    /// nothing seen or told bears on it.
    pub fn state(&self, eyes: Eyes, entity: &Id, attr: &Id, c: u64) -> Result<Got, Unsettled> {
        let seen = self.sightings(eyes, entity, attr, c);
        let Some((s, value)) = seen.last().cloned() else {
            let told = self
                .heard(eyes, c)
                .iter()
                .any(|h| h.claim.entity == *entity && h.claim.attr == *attr);
            return if told {
                Err("told about, never seen: no answer to give".into())
            } else {
                Ok(Got::unknown())
            };
        };
        let answer = if self.current(entity, attr, s, &value, c) {
            Answer::Value { value }
        } else {
            Answer::LastSeen {
                value,
                seen_at: self.event(s).expect("seen in an event").t,
                stale: true,
            }
        };
        Ok(Got::new(answer, [s]))
    }

    /// The freshness rule: whether the robot's sight of `entity.attr =
    /// value` in event `s` still holds at `c` by what the robot perceived
    /// since: it stayed in the room the thing was in (either room of a
    /// door; the fixture's room; for a thing in someone's hands, the room
    /// it saw them in, which they were not seen to leave), and never
    /// docked; a thing in its own hands stays current; a thing outside, or
    /// seen from another room, may have changed at once.
    pub fn current(&self, entity: &Id, attr: &Id, s: u64, value: &Value, c: u64) -> bool {
        let since = &self.events[s as usize..(c as usize - 1).max(s as usize)];
        let docked = since.iter().any(|e| {
            e.actor == self.robot
                && e.outcome.is_ok()
                && matches!(e.action, Action::Wait { standby: true, .. })
        });
        if docked {
            return false;
        }
        let rooms: Vec<Id> = if attr.as_str() == "location" {
            match value {
                Value::Location(Location::On(f) | Location::In(f)) => {
                    self.fixture_room(f).into_iter().cloned().collect()
                }
                Value::Location(Location::HeldBy(p) | Location::CarriedBy(p))
                    if *p == self.robot =>
                {
                    return true;
                }
                Value::Location(Location::HeldBy(p) | Location::CarriedBy(p)) => {
                    // Seen in their hands in the robot's own room, and
                    // not perceived anywhere else since.
                    let before = self.perceived_rooms(p, 0, s + 1);
                    let Some(room) = before.last() else {
                        return false;
                    };
                    if self.perceived_rooms(p, s + 1, c).iter().any(|r| r != room) {
                        return false;
                    }
                    vec![room.clone()]
                }
                _ => vec![],
            }
        } else if let Some(d) = self.scene.doors.iter().find(|d| d.id == *entity) {
            vec![d.rooms.0.clone(), d.rooms.1.clone()]
        } else if let Some(r) = self.fixture_room(entity) {
            vec![r.clone()]
        } else {
            // A movable thing's other attribute (what is left in it) is
            // changed only where the thing is: current while its place is,
            // the robot in that place's room from this sight on.
            let loc = Id::new("location");
            let Some((l, place)) = self.sightings(Eyes::Robot, entity, &loc, c).pop() else {
                return false;
            };
            return self.current(entity, &loc, l, &place, c)
                && self.current(entity, &loc, s, &place, c);
        };
        let Some(here) = self.robot_room_after(s) else {
            return false;
        };
        rooms.contains(&here) && self.robot_moves(s + 1, c).iter().all(|r| rooms.contains(r))
    }

    /// A door, a device or furniture: what stays in its room(s).
    pub fn fixed(&self, id: &Id) -> bool {
        self.scene.doors.iter().any(|d| d.id == *id) || self.fixture_room(id).is_some()
    }

    /// Since when `device` has been broken, as `eyes` know: the change
    /// that began their latest run of sights of it broken (none where that
    /// run began with a view, which says nothing of when); as the latest
    /// seen where the robot did not watch it since (it may have been
    /// repaired and broken again).
    pub fn broken_since(&self, eyes: Eyes, device: &Id, c: u64) -> Result<Got, Unsettled> {
        let attr = Id::new("broken");
        let broken = Value::Bool(true);
        let seen = self.sightings(eyes, device, &attr, c);
        let working = seen.iter().rposition(|(_, v)| *v != broken);
        let from = working.map_or(0, |k| k + 1);
        let Some(&(s, _)) = seen.get(from) else {
            return Ok(Got::unknown());
        };
        let e = self.event(s).expect("seen in an event");
        if !e
            .changes
            .iter()
            .any(|ch| ch.entity == *device && ch.attr == attr)
        {
            // Not seen to break: the first "it is broken" heard since it
            // was last seen working, hedged (it may have broken before).
            let after = working.map_or(0, |k| seen[k].0);
            let told = self.heard(eyes, c).into_iter().find(|h| {
                h.event.id > after
                    && h.claim.mode == ClaimMode::Fact
                    && h.claim.entity == *device
                    && h.claim.attr == attr
                    && h.claim.value == broken
            });
            return Ok(match told {
                Some(h) => {
                    let mut at = super::time_answer(h.event.t);
                    if let Answer::Time { stale, .. } = &mut at {
                        *stale = true;
                    }
                    Got::new(at, [h.event.id])
                }
                None => Got::unknown(),
            });
        }
        let mut at = super::time_answer(e.t);
        if let Answer::Time { stale, .. } = &mut at {
            *stale = eyes == Eyes::Robot && !self.watched_over(device, &attr, s, c);
        }
        Ok(Got::new(at, [s]))
    }

    /// Whether the robot watched `entity.attr` without a break from event
    /// `from` to `to`: a fixed thing's state by the freshness rule from
    /// `from`; anything else from its last sight at or before `from`, each
    /// sight current at the next and the last at `to`.
    pub fn watched_over(&self, entity: &Id, attr: &Id, from: u64, to: u64) -> bool {
        if self.fixed(entity) && attr.as_str() != "location" {
            return self.current(entity, attr, from, &Value::Bool(true), to);
        }
        let seen = self.sightings(Eyes::Robot, entity, attr, to);
        let Some(k) = seen.iter().rposition(|(e, _)| *e <= from) else {
            return false;
        };
        seen[k..]
            .windows(2)
            .all(|w| self.current(entity, attr, w[0].0, &w[0].1, w[1].0))
            && seen
                .last()
                .is_some_and(|(e, v)| self.current(entity, attr, *e, v, to))
    }

    /// The rooms the robot moved into in events `from..to` (ids).
    fn robot_moves(&self, from: u64, to: u64) -> Vec<Id> {
        let mut out = Vec::new();
        for e in self.before(to).iter().skip(from.saturating_sub(1) as usize) {
            if !e.outcome.is_ok() {
                continue;
            }
            for ch in &e.changes {
                if ch.entity == self.robot
                    && ch.attr.as_str() == "position"
                    && let Value::Position(p) = &ch.new
                {
                    out.push(p.room.clone());
                }
            }
        }
        out
    }

    /// The room the robot was in just after event `s`.
    fn robot_room_after(&self, s: u64) -> Option<Id> {
        self.robot_moves(1, s + 1).pop().or_else(|| {
            match self.initial.get(&(self.robot.clone(), Id::new("position"))) {
                Some(Value::Position(p)) => Some(p.room.clone()),
                _ => None,
            }
        })
    }

    /// The rooms the robot perceived `who` in, in events `from..to`: seen
    /// moving there, or shown there.
    pub fn perceived_rooms(&self, who: &Id, from: u64, to: u64) -> Vec<Id> {
        let mut out = Vec::new();
        for e in self.before(to).iter().skip(from.saturating_sub(1) as usize) {
            if e.outcome.is_ok() && self.observed(Eyes::Robot, e) {
                for ch in &e.changes {
                    if ch.entity == *who
                        && ch.attr.as_str() == "position"
                        && let Value::Position(p) = &ch.new
                    {
                        out.push(p.room.clone());
                    }
                }
            }
            if self.revealed(Eyes::Robot, e) {
                for f in &e.reveals {
                    if f.entity == *who
                        && f.attr.as_str() == "position"
                        && let Value::Position(p) = &f.value
                    {
                        out.push(p.room.clone());
                    }
                }
            }
        }
        out
    }

    /// What `entity.attr` was before the change `eyes` saw in event
    /// `change`: the value seen before it, when the new value is one it
    /// was seen to take only that once (so "before it was put there" names
    /// one move) and nothing changed unseen between the last sight of the
    /// old value and the change (a thing picked up in between is still
    /// where it was taken from).
    pub fn before_change(
        &self,
        eyes: Eyes,
        entity: &Id,
        attr: &Id,
        change: u64,
        c: u64,
    ) -> Result<Got, Unsettled> {
        let in_hands = |v: &Value| {
            attr.as_str() == "location" && matches!(v, Value::Location(Location::HeldBy(_)))
        };
        // The values seen, hands left out, each with the events it was seen in.
        let mut runs: Vec<(Value, Vec<u64>)> = Vec::new();
        for (e, v) in self.sightings(eyes, entity, attr, c) {
            if in_hands(&v) {
                continue;
            }
            match runs.last_mut() {
                Some((last, es)) if *last == v => es.push(e),
                _ => runs.push((v, vec![e])),
            }
        }
        let i = runs
            .iter()
            .position(|(_, es)| es[0] == change)
            .ok_or_else(|| format!("no change of value seen in event {change}"))?;
        let (new, _) = &runs[i];
        let times = runs.iter().filter(|(v, _)| v == new).count();
        if times != 1 {
            return Err(format!("the new value was seen {times} times"));
        }
        let (old, at) = runs.get(i.wrapping_sub(1)).ok_or("nothing seen before")?;
        if let Value::Location(Location::CarriedBy(a) | Location::HeldBy(a)) = old
            && self.event(change).is_some_and(|e| e.actor == *a)
        {
            return Err("it was with the one who moved it: it answers itself".into());
        }
        let last_seen = *at.last().expect("a run has events");
        for e in &self.events[last_seen as usize..change as usize - 1] {
            if !e.outcome.is_ok() {
                continue;
            }
            for ch in &e.changes {
                if ch.entity == *entity && ch.attr == *attr && ch.new != *old && !in_hands(&ch.new)
                {
                    return Err(format!("it changed unseen in event {} in between", e.id));
                }
            }
        }
        let answer = Answer::Value { value: old.clone() };
        // The evidence: the change, and a sight of the old value.
        Ok(Got::either(answer, at.iter().map(|s| vec![*s, change])))
    }
}
